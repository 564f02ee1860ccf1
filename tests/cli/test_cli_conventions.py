"""The conventions every `knight` command follows (issue 15): --json is one document with "version" and the
same keys every time, numbers as numbers; -q/--quiet; choices listed and checked; examples in the help;
`knight results` fits 80 columns and its CSV is plain; `knight run`'s progress bar and summary."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
import time

import pytest
import typer.main
from cli_helpers import knight_cli
from rich.console import Console
from runner_helpers import REPO, write_job

import knight
from knight.cli import app
from knight.cli.options import KnightCommand, PlainGroup
from knight.runner import load_job
from knight.runner.bar import BarReporter

EXAMPLES = REPO / "examples" / "submissions"
JOB = '[[sweep]]\nboards = [5, 6]\nstarts = "corners"\nmethod = "warnsdorff"\nparams = { tie = ["first", "roth"] }\n'
#: What a JSON document must never hold: a number written as text with thousands separators.
GROUPED = re.compile(r"^-?\d{1,3}(,\d{3})+$")


def commands() -> list[str]:
    """Every command of `knight`."""
    return sorted(typer.main.get_command(app).commands)  # type: ignore[attr-defined]  # a group


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """A store with a small job run into it, and the job file."""
    folder = tmp_path_factory.mktemp("conventions")
    job = write_job(folder, "small", JOB)
    path = folder / "store.sqlite"
    done = subprocess.run(
        [sys.executable, "-m", "knight", "run", str(job), "--workers", "1", "--store", str(path), "-q"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return path, job


def document(out: str) -> dict:
    """The one JSON document a --json command printed, checked against the convention."""
    data = json.loads(out)  # one document: json.loads refuses anything after it
    assert isinstance(data, dict) and data["version"] == knight.__version__ and next(iter(data)) == "version"

    def walk(value: object) -> None:
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str):
            assert not GROUPED.match(value), f"a number as text: {value!r}"

    walk(data)
    return data


def test_every_command_prints_one_json_document_with_the_same_keys_every_time(store, tmp_path, capsys):
    path, job = store
    at = ["--store", path]
    # per command, two invocations that differ (success and not, a filter, another branch): the same keys
    pairs = {
        "tour": (["tour", 5], ["tour", 5, "--start", 0, 1]),
        "starts": (["starts", 4], ["starts", 3, 4]),
        "census": (["census", 5, "--store", tmp_path / "c.sqlite"], ["census", 5, "--closed"]),
        "run": (["run", job, *at], ["run", job, *at, "--workers", 1]),
        "results": (["results", *at], ["results", "small", *at]),
        "verify": (["verify", *at], ["verify", *at, "--repair"]),
        "report": (
            ["report", "--edition", "handout", "--no-pdf", "--out", tmp_path / "r"],
            ["report", "--edition", "handout", "--no-pdf", "--out", tmp_path / "r", "--paper", "letter"],
        ),
        "check": (["check", EXAMPLES / "alice.txt"], ["check", EXAMPLES / "dave.txt", "--board", 8]),
        "grade": (["grade", EXAMPLES, "--out", tmp_path / "g"], ["grade", EXAMPLES, "--out", tmp_path / "g2"]),
        "site": (
            ["site", "--out", tmp_path / "s", "--no-pdf", "--course", REPO / "course.toml", "--today", "2000-01-01"],
            [
                "site",
                "--out",
                tmp_path / "s",
                "--no-pdf",
                "--course",
                REPO / "course.toml",
                "--today",
                "2000-01-02",
                "--paper",
                "letter",
            ],
        ),
    }
    assert set(pairs) == set(commands()), "a new command: add it here"
    for name, (first, second) in pairs.items():
        keys = []
        for argv in (first, second):
            status, out, err = knight_cli(capsys, *argv, "--json", "-q")
            assert status in (0, 1), (name, argv, err)
            keys.append(list(document(out)))
        assert keys[0] == keys[1], name
    # numbers as numbers, lists as arrays
    data = document(knight_cli(capsys, "results", *at, "--json")[1])
    (row, *_) = data["tours"]
    assert isinstance(row["tasks"], int) and row["board"] == [5, 5] and data["censuses"] == []


def test_quiet_silences_progress_and_information_never_the_result(store, capsys):
    path, job = store
    status, out, err = knight_cli(capsys, "run", job, "--store", path)
    assert status == 0 and out == ""
    # the summary line: here, nothing to run (the fixture ran the job); else tasks run, reused, failed, the time
    total = len(load_job(job).tasks())
    assert re.fullmatch(rf"knight: nothing to run: {total} tasks, all reused from .*store.sqlite\n", err)
    status, out, err = knight_cli(capsys, "run", job, "--store", path.with_name("fresh.sqlite"))
    assert status == 0 and out == ""
    assert re.search(rf"knight: run 1: {total} tasks: {total} run now, 0 reused from .*, 0 failed; \d+\.\d s", err)
    status, out, err = knight_cli(capsys, "run", job, "--store", path, "-q")
    assert status == 0 and out == "" and err == ""
    status, out, err = knight_cli(capsys, "tour", 5, "-q")
    assert status == 0 and "Full tour" in out and err == ""
    status, out, err = knight_cli(capsys, "run", "no-such-job.toml", "--store", path, "-q")
    assert status == 2 and len(err.strip().splitlines()) == 1  # errors are never silenced


@pytest.mark.parametrize(
    "argv, valid",
    [
        (["tour", "5", "--method", "warnsdorf"], "naive, static, warnsdorff"),
        (["tour", "5", "--order", "fast", "--method", "backtrack"], "plain, warnsdorff"),
        (["report", "--edition", "keys"], "key, handout"),
        (["report", "--paper", "a5"], "a4, letter"),
        (["run", "jobs/homework-8.toml", "--executor", "threads"], "process, dask"),
        (["census", "5", "--executor", "threads"], "process, dask"),
        (["check", "x.txt", "--format", "xml"], "array, pairs, chess, csv, json"),
    ],
)
def test_a_choice_typo_is_one_line_naming_the_valid_values(capsys, argv, valid):
    status, out, err = knight_cli(capsys, *argv)
    assert status == 2 and out == "" and len(err.strip().splitlines()) == 1 and valid in err


def test_every_help_lists_the_choices_and_ends_with_examples(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    for command in commands():
        status, out, _ = knight_cli(capsys, command, "--help")
        assert status == 0
        lines = [line.strip() for line in out.splitlines() if line.strip()]
        examples = lines[lines.index("Examples:") + 1 :]
        assert 2 <= len(examples) <= 3 and all(line.startswith("knight ") for line in examples), command
    out = knight_cli(capsys, "tour", "--help")[1]
    assert "[naive|static|warnsdorff|random-walk|backtrack|parberry|find]" in out
    assert "[key|handout|scheme]" in knight_cli(capsys, "report", "--help")[1]
    root = knight_cli(capsys, "--help")[1]
    assert "--install-completion" in root and "--show-completion" in root


def test_shell_completion_offers_the_registered_values():
    env = {"_KNIGHT_COMPLETE": "complete_bash", "COMP_WORDS": "knight tour 5 --tie r", "COMP_CWORD": "4"}
    done = subprocess.run(
        [sys.executable, "-c", "from knight.cli import main; main()"],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stdout.split() == ["random", "roth"]


def test_results_fit_80_columns_and_the_csv_is_plain(store, capsys, monkeypatch):
    path, _ = store
    monkeypatch.setenv("COLUMNS", "80")
    out = knight_cli(capsys, "results", "--store", path)[1]
    assert max(map(len, out.splitlines())) <= 80 and "small" in out and "left out at this width" in out
    monkeypatch.setenv("COLUMNS", "200")
    wide = knight_cli(capsys, "results", "--store", path)[1]
    assert "left out" not in wide and "≠ symmetry" in wide and max(map(len, wide.splitlines())) > 80
    monkeypatch.delenv("COLUMNS")
    every = list(csv.reader(io.StringIO(knight_cli(capsys, "results", "--store", path, "--csv")[1])))
    one = list(csv.reader(io.StringIO(knight_cli(capsys, "results", "small", "--store", path, "--csv")[1])))
    assert every[0] == one[0] and len(every) > 1  # the same header whatever the filter
    for row in every[1:]:
        assert all(not GROUPED.match(cell) for cell in row)
        record = dict(zip(every[0], row, strict=True))
        assert int(record["tasks"]) >= 1


def test_the_csv_writes_large_parameters_plainly(tmp_path, capsys):
    job = write_job(
        tmp_path,
        "budget",
        '[[sweep]]\nboards = [5]\nstarts = [[0, 0]]\nmethod = "backtrack"\nparams = {budget = 1234567}\n',
    )
    store = tmp_path / "s.sqlite"
    assert knight_cli(capsys, "run", job, "--store", store, "--workers", 1, "-q")[0] == 0
    rows = list(csv.DictReader(io.StringIO(knight_cli(capsys, "results", "--store", store, "--csv")[1])))
    assert "budget=1234567," in rows[0]["params"]
    table = knight_cli(capsys, "results", "--store", store)[1]
    assert "budget=1,234,567" in table


def test_the_progress_bar_redraws_while_a_slow_chunk_runs_and_estimates_the_time_left():
    clock = [0.0]
    terminal = io.StringIO()
    reporter = BarReporter(Console(file=terminal, force_terminal=True, width=120), get_time=lambda: clock[0])
    reporter.start(1000)
    try:
        before = terminal.getvalue().count("\r")
        time.sleep(1.3)  # no result comes in: rich's own thread still redraws the bar
        assert terminal.getvalue().count("\r") - before >= 2
        for _ in range(3):  # results in chunks of 100, one every 10 s (on the bar's clock)
            clock[0] += 10.0
            reporter.advance(100)
        (task,) = reporter.progress.tasks
        assert task.completed == 300 and task.time_remaining == pytest.approx(70.0, rel=0.15)
    finally:
        reporter.finish()
    assert "300/1000" in terminal.getvalue()


def test_a_tour_printed_as_json_is_read_back_by_knight_check(tmp_path, capsys):
    status, out, _ = knight_cli(capsys, "tour", 8, "--start", 3, 4, "--json")
    hand_in = tmp_path / "tour.json"
    hand_in.write_text(out)
    checked, found, _ = knight_cli(capsys, "check", hand_in, "--format", "json", "--json")
    data = document(found)
    assert checked == status and (data["verdict"] == "full") == (status == 0)
    assert data["board"] == json.loads(out)["board"] and data["length"] == json.loads(out)["length"]


@pytest.mark.parametrize("width", [60, 80, 200])
def test_a_results_table_keeps_each_heading_over_its_column(width):
    """A text column whose cells are shorter than its heading (all '-') is as wide as the heading, and every
    heading starts where its column's cells start."""
    from rich.console import Console

    from knight.cli.results import _fitted

    headings = {"jobs": "jobs", "removed": "removed", "board": "board", "units": "units", "nodes": "nodes"}
    cells = [
        {"jobs": "census", "removed": "-", "board": "5x5", "units": "12", "nodes": "4,286"},
        {"jobs": "census", "removed": "-", "board": "6x6", "units": "20", "nodes": "24,815,244"},
    ]
    text = _fitted(Console(width=width), "t", headings, cells, left=("jobs", "removed", "board"))
    lines = text.splitlines()
    head = next(line for line in lines if line.startswith("jobs"))
    row = next(line for line in lines if line.startswith("census") and "6x6" in line)
    assert head.index("removed") == row.index("-") and head.index("board") == row.index("6x6")
    assert head.rindex("nodes") + len("nodes") == row.index("24,815,244") + len("24,815,244")  # numbers right-aligned
    assert max(map(len, lines)) <= width


def test_a_command_converts_its_values_without_pydantic():
    """Typer 0.29 converts values through pydantic (about 0.1 s of a command's start); knight's plain values
    are converted as click did, so a small command never imports it."""
    code = (
        "import sys\nfrom knight.cli import main\n"
        "try:\n    main(['tour', '5', '--start', '1', '1', '--tie', 'roth', '--json'])\nexcept SystemExit:\n    pass\n"
        "print('pydantic' in sys.modules, file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout)["start"] == [1, 1] and done.stderr.strip() == "False"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["tour", "x"], "Invalid value for 'n': 'x' is not a valid integer."),
        (["tour", "5", "--seed", "one"], "Invalid value for '--seed': 'one' is not a valid integer."),
        (["census", "5", "--workers", "2.5"], "Invalid value for '--workers': '2.5' is not a valid integer."),
        (["tour", "5", "--start"], "Option '--start' requires an argument."),
    ],
)
def test_a_value_of_the_wrong_kind_is_one_line_naming_the_parameter(capsys, argv, message):
    status, out, err = knight_cli(capsys, *argv)
    assert (status, out) == (2, "") and err.strip() == f"knight: error: {message} (see --help)"


def test_plain_values_keep_their_kinds(capsys):
    status, out, _ = knight_cli(capsys, "census", "5", "--remove", "0,0", "--remove", "4,4", "--closed", "--json")
    document = json.loads(out)
    assert status == 0 and document["removed"] == [[0, 0], [4, 4]] and document["closed"] is True


def test_every_command_converts_its_own_values():
    group = typer.main.get_command(app)
    assert isinstance(group, PlainGroup)
    for name, command in group.commands.items():  # type: ignore[attr-defined]  # a group
        assert isinstance(command, KnightCommand), f"knight {name}: declare it with cls=KnightCommand"
