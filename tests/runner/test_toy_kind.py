"""A kind of work is one module and one registry line (issue 39, item 1): a toy kind written in a temporary module,
outside the package, runs end to end — job file, `knight run` on the process pool, the store, `knight results`,
`knight verify` — with no other file touched. The toy counts a square's knight moves (its degree on the empty
board), plus a parameter, in a table of its own."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

TOY = '''
"""A toy kind: the degree of each start square on the empty board, plus ``plus``."""

from dataclasses import dataclass

from knight.engine import Board
from knight.errors import InvalidInput
from knight.tasks import Shown, Task, register


@dataclass(frozen=True)
class Degree:
    degree: int


class DegreeKind:
    name = "degree"
    table = "toy_degrees"
    columns = ("degree INTEGER NOT NULL CHECK (degree >= 0)",)
    sealed_when_stored = False
    checkpoints = False

    def tasks(self, starts, params):
        plus = params.get("plus", 0)
        if not isinstance(plus, int) or isinstance(plus, bool) or plus < 0:
            raise InvalidInput(f"plus must be a whole number >= 0, got {plus!r}")
        return [Task(self.name, (("plus", plus),), b.n, b.m, s) for b, squares in starts.items() for s in squares]

    def run(self, task):
        return Degree(int(Board(task.n, task.m).accessibility()[task.start]) + dict(task.params)["plus"])

    def problem(self, outcome, task):
        return "" if outcome.degree >= 0 else "invalid degree"

    def row(self, outcome):
        return (int(outcome.degree),)

    def read(self, row):
        return Degree(*row)

    def derived(self, key, outcome):
        return []

    def warm(self):
        pass

    def describe(self, task):
        return f"degree of {task.start} on {task.n}x{task.m}"

    def shown(self, done):
        rows = tuple((f"{t.n}x{t.m}", f"{t.start[0]},{t.start[1]}", o.degree) for t, o in done)
        return Shown("degrees", ("board", "start", "degree"), rows)


register(DegreeKind())
'''

JOB = """
name = "toy"
[[sweep]]
boards = [3, 4]
starts = "all"
method = "degree"
params = {plus = 1}
"""


def knight(args: list[str], tmp: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "KNIGHT_KINDS": "toy_kind", "PYTHONPATH": str(tmp), "KNIGHT_STORE": str(tmp / "s.sqlite")}
    return subprocess.run(
        [sys.executable, "-m", "knight", *args], cwd=tmp, env=env, capture_output=True, text=True, timeout=300
    )


@pytest.fixture
def toy(tmp_path: Path) -> Path:
    (tmp_path / "toy_kind.py").write_text(textwrap.dedent(TOY), encoding="utf-8")
    (tmp_path / "toy.toml").write_text(JOB, encoding="utf-8")
    return tmp_path


def test_a_toy_kind_runs_from_its_job_file_to_the_store_and_the_results(toy: Path) -> None:
    from knight.engine import Board

    ran = knight(["run", "toy.toml", "--workers", "2", "-q"], toy)
    assert ran.returncode == 0, ran.stderr
    shown = knight(["results", "toy", "--json"], toy)
    assert shown.returncode == 0, shown.stderr
    rows = json.loads(shown.stdout)["degrees"]
    expected = [
        {"board": f"{n}x{n}", "start": f"{r},{c}", "degree": int(Board(n, n).accessibility()[r, c]) + 1}
        for n in (3, 4)
        for r in range(n)
        for c in range(n)
    ]
    assert rows == expected
    assert knight(["verify"], toy).returncode == 0
    again = knight(["run", "toy.toml", "--json"], toy)  # all stored: nothing runs again
    assert again.returncode == 0 and json.loads(again.stdout)["ran"] == 0
    terminal = knight(["results", "toy"], toy).stdout
    assert "degrees" in terminal and "Sweep results" not in terminal  # its own table, none of the tours


def test_a_toy_kinds_bad_params_are_refused_in_one_line(toy: Path) -> None:
    (toy / "toy.toml").write_text(JOB.replace("plus = 1", "plus = -1"), encoding="utf-8")
    ran = knight(["run", "toy.toml"], toy)
    assert ran.returncode == 2 and ran.stderr.count("\n") == 1
    assert "sweep[0].params: plus must be a whole number >= 0, got -1" in ran.stderr


def test_without_its_module_the_toy_method_is_unknown(toy: Path) -> None:
    env = {**os.environ, "KNIGHT_STORE": str(toy / "s.sqlite")}
    ran = subprocess.run(
        [sys.executable, "-m", "knight", "run", "toy.toml"], cwd=toy, env=env, capture_output=True, text=True
    )
    assert ran.returncode == 2 and "unknown method 'degree'" in ran.stderr


def test_without_its_module_the_store_is_sound_and_its_results_kept(toy: Path) -> None:
    """A reader that does not load the kind (no KNIGHT_KINDS) knows its table from the store: sound, nothing
    dropped, its results said to be there; a changed row of it is still found."""
    assert knight(["run", "toy.toml", "-q"], toy).returncode == 0
    env = {**os.environ, "KNIGHT_STORE": str(toy / "s.sqlite")}
    env.pop("KNIGHT_KINDS", None)

    def bare(args: list[str]) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "knight", *args], cwd=toy, env=env, capture_output=True, text=True)

    assert bare(["verify"]).returncode == 0
    shown = bare(["results"])
    assert shown.returncode == 0 and "'degree'" in shown.stdout and "Sweep results" not in shown.stdout
    assert len(json.loads(knight(["results", "toy", "--json"], toy).stdout)["degrees"]) == 25  # all kept
    with sqlite3.connect(toy / "s.sqlite") as db:
        db.execute("UPDATE toy_degrees SET degree = degree + 1 WHERE rowid = 1")
    db.close()
    assert bare(["verify"]).returncode != 0


def test_a_kind_that_lacks_a_member_is_refused_in_one_line(toy: Path) -> None:
    source = (toy / "toy_kind.py").read_text(encoding="utf-8")
    (toy / "toy_kind.py").write_text(source.replace("    checkpoints = False\n", ""), encoding="utf-8")
    ran = knight(["run", "toy.toml"], toy)
    assert ran.returncode == 2 and ran.stderr.count("\n") == 1 and "lacks checkpoints" in ran.stderr


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (('name = "degree"', 'name = "warnsdorff"'), "the name of a tour method"),
        (('table = "toy_degrees"', 'table = "order"'), "SQLite refuses its table order"),
        (('table = "toy_degrees"', 'table = "results"'), "is one of the store's own"),
        (('"degree INTEGER NOT NULL CHECK (degree >= 0)",', '"group INTEGER",'), "SQLite refuses its table"),
        (("raise InvalidInput", "raise RuntimeError"), "failed to list its tasks: RuntimeError: plus must be"),
    ],
)
def test_a_kind_the_store_cannot_take_is_refused_in_one_line(toy: Path, change: tuple[str, str], said: str) -> None:
    source = (toy / "toy_kind.py").read_text(encoding="utf-8")
    assert change[0] in source
    (toy / "toy_kind.py").write_text(source.replace(change[0], change[1]), encoding="utf-8")
    if "RuntimeError" in said:
        (toy / "toy.toml").write_text(JOB.replace("plus = 1", "plus = -1"), encoding="utf-8")  # params it refuses
    ran = knight(["run", "toy.toml"], toy)
    assert ran.returncode == 2 and ran.stderr.count("\n") == 1 and said in ran.stderr, ran.stderr


def test_a_kind_changed_since_it_stored_its_outcomes_is_refused_not_called_damage(toy: Path) -> None:
    assert knight(["run", "toy.toml", "-q"], toy).returncode == 0
    source = (toy / "toy_kind.py").read_text(encoding="utf-8")
    changed = source.replace(
        '("degree INTEGER NOT NULL CHECK (degree >= 0)",)', '("degree INTEGER NOT NULL", "extra INTEGER")'
    )
    (toy / "toy_kind.py").write_text(changed, encoding="utf-8")
    ran = knight(["run", "toy.toml"], toy)
    assert ran.returncode == 2 and ran.stderr.count("\n") == 1 and "give the changed kind a table" in ran.stderr
    (toy / "toy_kind.py").write_text(source, encoding="utf-8")
    assert knight(["verify"], toy).returncode == 0  # the store as it was


def test_the_built_in_kinds_and_a_kind_of_ones_own_are_read_by_one_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """The job file's reader names no kind: it hands every sweep, a tour's, a census's, a frontier count's, an
    estimate's and a kind of one's own alike, to its kind's expander (its model, then its tasks listed); the one
    for a kind that lists its own tasks is the generic one. In process, without a pool: fast."""
    from knight.runner import jobs
    from knight.tasks import Task, kind, sweep

    class Toy:  # the least a kind of one's own needs for its sweep to be read
        name, table, columns = "toy-path", "toy_path", ("degree INTEGER",)

        def tasks(self, starts, params):  # type: ignore[no-untyped-def]
            return [Task(self.name, (), b.n, b.m, s) for b, squares in starts.items() for s in squares]

    kind.kinds()  # the registry loaded, then the toy added for this test alone
    monkeypatch.setitem(kind._KINDS, Toy.name, Toy())  # type: ignore[arg-type]
    seen: list[tuple[str, str]] = []

    def recorded(of: object) -> sweep.Expander:
        found = sweep.expander(of)
        seen.append((getattr(of, "name", ""), type(found).__name__))
        return found

    monkeypatch.setattr(jobs, "expander", recorded)
    sweeps = [
        {"boards": [5], "starts": "corners", "method": "warnsdorff"},
        {"boards": [5], "method": "census"},
        {"boards": [5], "method": "frontier"},
        {"boards": [5], "starts": [[0, 0]], "method": "estimate"},
        {"boards": [3], "starts": "all", "method": Toy.name},
    ]
    job = jobs.parse_job({"sweep": sweeps}, Path("path.toml"))
    assert seen == [
        ("tour", "TourKind"),
        ("census", "CensusKind"),
        ("frontier", "FrontierKind"),
        ("estimate", "EstimateKind"),
        (Toy.name, "_OwnTasks"),
    ]
    assert [sweep.method for sweep in job.sweeps] == ["warnsdorff", "census", "frontier", "estimate", Toy.name]
    assert all(sweep.count() == len(list(sweep.tasks())) for sweep in job.sweeps)


def test_knight_results_shows_every_kind_by_one_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """`knight results` names no kind either: each sweep kind's table comes from its shower, the built-in kinds'
    their own (their records read back in their modules), a kind that reads back only its outcomes the generic
    one."""
    from knight.tasks import kind, shown

    class Toy:  # the least a kind of one's own needs to be shown
        name, table, columns = "toy-shown", "toy_shown", ("degree INTEGER",)

        def tasks(self, starts, params):  # type: ignore[no-untyped-def]
            return []

        def read(self, row):  # type: ignore[no-untyped-def]
            return row

        def shown(self, done):  # type: ignore[no-untyped-def]
            return shown.Shown("toys", ("degree",), ())

    kind.kinds()
    monkeypatch.setitem(kind._KINDS, Toy.name, Toy())  # type: ignore[arg-type]
    showers = {each.name: type(shown.shower(each)).__name__ for each in kind.sweep_kinds()}
    assert showers == {
        "tour": "TourKind",
        "census": "CensusKind",
        "frontier": "FrontierKind",
        "estimate": "EstimateKind",
        Toy.name: "_OwnOutcomes",
    }
