"""A damaged store is found, refused by every reader, and repaired (issue 16's tamper cases).

Each case damages a copy of one small store as a crash, a disk error or a hand edit could; then
`knight results` and `knight report` refuse it in one line that says to run `knight verify
--repair`, `knight verify` names the damaged task, and after `--repair` and `knight run` the
store equals a clean one again.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import tempfile
from pathlib import Path

import pytest
from cli_helpers import knight_here, run_once
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from runner_helpers import knight, write_job

from knight.store import Store, integrity


@pytest.fixture
def cli(capsys):
    """`knight ARGS --store STORE` run in this process (a subprocess costs a second of imports each)."""
    return lambda args, store: knight_here(capsys, [*args, "--store", str(store)])


JOB = """
name = "tiny"
[[sweep]]
boards = [5, 6]
starts = "all"
method = "warnsdorff"

[[sweep]]
boards = [5]
starts = "all"
method = "census"
"""

#: name -> SQL that damages the store (as a hand edit, a crash or a disk error could).
TAMPERING = {
    "tour rows deleted": "DELETE FROM tours WHERE rowid IN (SELECT rowid FROM tours LIMIT 5)",
    "full flipped": "UPDATE tours SET full = 1 - full WHERE rowid = 3",
    "closed flipped": "UPDATE tours SET closed = 1 - closed WHERE rowid = 4",
    "length changed": "UPDATE tours SET length = length - 1 WHERE rowid = 5",
    "key changed": "UPDATE tours SET key_symmetric = 'x' || key_symmetric WHERE rowid = 6",
    "a byte of a path flipped": "UPDATE tours SET moves = substr(moves, 1, 3) || X'07' || substr(moves, 5) "
    "WHERE rowid = 7",
    "census count changed": "UPDATE counts SET tours = tours + 2 WHERE rowid = 2",
    "census rows deleted": "DELETE FROM counts WHERE rowid IN (1, 2)",
    "table dropped": "DROP TABLE tours",
    "task definition edited": 'UPDATE tasks SET params = \'{"tie": "random"}\' WHERE rowid = 8',
    "task start changed": "UPDATE tasks SET start_row = 1 WHERE key = (SELECT key FROM tasks WHERE method = 'census')",
    "task row deleted": "DELETE FROM tasks WHERE rowid = 9",
    "task key changed": "UPDATE tasks SET key = 'zzz' WHERE rowid = 10",
    "task params nested": "UPDATE tasks SET params = '[' || replace(hex(zeroblob(50000)), '00', '[') WHERE rowid = 11",
    "tasks table dropped": "DROP TABLE tasks",
}
#: Cases whose repair is followed by a run, which must give the clean store's results back (one of each
#: kind of damage: a run takes a few seconds, the other cases stop at a sound store).
RECOMPUTED = {
    "tour rows deleted",
    "a byte of a path flipped",
    "census count changed",
    "table dropped",
    "task definition edited",
}
#: Damage that leaves rows of a task no job asks for (the task whose key was changed): named without a job.
IN_NO_JOB = {"task key changed"}


@pytest.fixture(scope="module")
def clean(tmp_path_factory) -> tuple[Path, Path, str]:
    """A store with the tiny job run into it, the job file, and `knight results --json` of it."""
    return run_once(tmp_path_factory.mktemp("clean"), "tiny", JOB)


def tampered(clean: tuple[Path, Path, str], folder: Path, case: str) -> Path:
    """A copy of the clean store in ``folder`` damaged as TAMPERING[case] says."""
    store = folder / "s.sqlite"
    shutil.copy(clean[0], store)
    with sqlite3.connect(store) as db:
        db.execute(TAMPERING[case])
    db.close()
    return store


@pytest.mark.parametrize("case", TAMPERING)
def test_a_damaged_store_is_refused_named_and_repaired(clean, tmp_path, case, cli):
    _, job, clean_results = clean
    store = tampered(clean, tmp_path, case)

    readers = [["results"], ["results", "--json"], ["report", "--no-pdf", "--edition", "key", "--out", str(tmp_path)]]
    for command in readers:
        refused = cli(command, store)
        assert refused.returncode == 2 and refused.stdout == "", (command, refused.stdout)
        assert refused.stderr.count("\n") == 1 and "knight verify --repair" in refused.stderr, refused.stderr
    assert not (tmp_path / "knights-tour.html").exists()

    checked = cli(["verify", "--json"], store)
    assert checked.returncode == 1
    problems = json.loads(checked.stdout)["problems"]
    assert problems and all(p["what"] for p in problems)
    if "dropped" not in case:
        assert all(
            p["task"] and p["jobs"] == ([] if case in IN_NO_JOB and p["task"] == "zzz" else ["tiny"]) for p in problems
        )

    repaired = cli(["verify", "--repair"], store)
    assert repaired.returncode == 1 and "dropped" in repaired.stdout
    if "DROP TABLE" in TAMPERING[case]:  # made again as the store opened: said, not called sound
        table = TAMPERING[case].split()[-1]
        assert f"table {table} was missing" in repaired.stdout and f"made table(s) {table} again" in repaired.stdout
    assert cli(["verify"], store).returncode == 0  # what was damaged is gone: the store is sound, if incomplete
    if case in RECOMPUTED:
        assert knight(["run", str(job)], store).returncode == 0  # a subprocess: a pool inside pytest is slow
        assert cli(["verify"], store).returncode == 0
        assert cli(["results", "--json"], store).stdout == clean_results


#: Damage a run would not undo by itself: it refuses the store, as readers do (a run recomputes missing results).
REFUSED_BY_RUN = {
    "full flipped",
    "closed flipped",
    "length changed",
    "key changed",
    "census count changed",
    "task start changed",
    "task row deleted",
}


@pytest.mark.parametrize("case", sorted(REFUSED_BY_RUN))
def test_a_run_refuses_a_damaged_store_and_says_how_to_repair_it(clean, tmp_path, case, cli):
    job, store = clean[1], tampered(clean, tmp_path, case)
    with sqlite3.connect(store) as db:
        runs = db.execute("SELECT count(*) FROM runs").fetchone()
    for command in (["run", str(job)], ["census", "5"]):
        refused = cli(command, store)
        assert refused.returncode == 2 and refused.stderr.count("\n") == 1, (command, refused.stderr)
        assert "is damaged" in refused.stderr and "knight verify --repair" in refused.stderr, refused.stderr
        assert "nothing to run" not in refused.stdout + refused.stderr
    with sqlite3.connect(store) as db:
        assert db.execute("SELECT count(*) FROM runs").fetchone() == runs  # no run recorded over it
    assert cli(["verify", "--repair"], store).returncode == 1
    assert cli(["run", str(job)], store).returncode == 0  # repaired: the run recomputes what was dropped
    assert cli(["verify"], store).returncode == 0


def test_a_run_recomputes_results_that_have_gone_without_being_asked(clean, tmp_path, cli):
    _, job, clean_results = clean
    store = tampered(clean, tmp_path, "tour rows deleted")
    ran = knight(["run", str(job)], store)
    assert ran.returncode == 0 and "5 run now" in ran.stderr + ran.stdout
    assert cli(["verify"], store).returncode == 0
    assert cli(["results", "--json"], store).stdout == clean_results


def test_a_truncated_store_gets_one_line_and_no_traceback(clean, tmp_path, cli):
    original, job, _ = clean
    store = tmp_path / "s.sqlite"
    store.write_bytes(original.read_bytes()[: original.stat().st_size // 3])
    for command in (["results"], ["verify"], ["report", "--no-pdf", "--out", str(tmp_path / "out")], ["run", str(job)]):
        refused = cli(command, store)
        assert refused.returncode == 2 and refused.stderr.count("\n") == 1, (command, refused.stderr)
        assert "delete it" in refused.stderr and "Traceback" not in refused.stderr


def test_the_clean_store_is_sound_and_every_result_carries_a_checksum(clean):
    original, _, _ = clean
    with Store(original, read_only=True) as store:
        assert store.problems(full=True) == []
        missing = store.db.execute("SELECT count(*) FROM results WHERE status = 'done' AND checksum IS NULL")
        assert missing.fetchone()[0] == 0


def _age(store: Path, seconds: float = 60.0) -> None:
    """Make the store's files look written ``seconds`` ago (a fresh file's state is never trusted)."""
    for path in (store, Path(f"{store}-wal")):
        if path.exists():
            stat = path.stat()
            os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns - int(seconds * 1e9)))


def test_an_unchanged_store_is_not_checked_again_and_a_changed_one_is(clean, tmp_path, cli, monkeypatch):
    original, _, clean_results = clean
    store = tmp_path / "s.sqlite"
    shutil.copy(original, store)
    _age(store)
    assert cli(["results", "--json"], store).stdout == clean_results  # checked, and the facts noted
    known = json.loads(Path(f"{store}-known").read_text())
    assert known["sound"] is True and known["summary"]

    checks = []
    monkeypatch.setattr(integrity, "cheap_problems", lambda *args, **kwargs: checks.append(1) or [])
    assert cli(["results", "--json"], store).stdout == clean_results
    assert cli(["results", "tiny", "--json"], store).stdout == clean_results.replace('"job": null', '"job": "tiny"')
    assert checks == []  # nothing changed: neither check nor summary ran again
    monkeypatch.undo()

    with sqlite3.connect(store) as db:  # a hand edit after the check: the files change, so it runs again
        db.execute(TAMPERING["full flipped"])
    refused = cli(["results"], store)
    assert refused.returncode == 2 and "knight verify --repair" in refused.stderr


def test_a_store_written_a_moment_ago_is_checked_every_time(clean, tmp_path, cli, monkeypatch):
    original, _, _ = clean
    store = tmp_path / "s.sqlite"
    shutil.copy(original, store)  # just written: a coarse clock could give the next write the same time
    assert cli(["results"], store).returncode == 0
    assert not Path(f"{store}-known").exists()


def test_a_workers_checksum_is_the_stored_rows_and_a_wrong_one_is_found(tmp_path, cli):
    """Workers seal their results (the runner stores them without hashing each row): the seal is the checksum
    readers compute from the stored row, and a result changed between the worker and the store is found."""
    from dataclasses import replace

    from knight.engine import Board, find_tour
    from knight.runner import load_job
    from knight.store.database import sealed
    from knight.tasks import TaskResult

    tasks = load_job(write_job(tmp_path, "tiny", JOB)).tasks()
    tour_task = next(task for task in tasks if task.method == "warnsdorff")
    tour = sealed(TaskResult.from_tour(tour_task.key, find_tour(Board(5, 5), tour_task.start, "warnsdorff")))
    count_task = next(task for task in tasks if task.method == "census")
    count = sealed(TaskResult.from_count(count_task.key, 5, 5, 7, 100))
    assert tour.checksum and count.checksum and tour.checksum != count.checksum
    store = tmp_path / "s.sqlite"
    with Store(store) as db:
        db.register_job("tiny", tasks)
        run_id = db.start_run(["tiny"], "process", 1)
        db.record(
            run_id, [tour, replace(count, outcome=replace(count.outcome, tours=8))]
        )  # the count changed on the way, its seal not
        db.finish_run(run_id, "done", len(tasks), 2)
    done = cli(["verify"], store)
    assert done.returncode != 0 and count_task.key in done.stdout + done.stderr
    assert tour_task.key not in done.stdout + done.stderr


#: Each kind of damage the cases above make, aimed at a row the test chooses (``{row}``; rows past the end
#: of a table damage nothing), so that a mix of them can hit one task twice.
DAMAGE = {
    "tour row deleted": "DELETE FROM tours WHERE rowid = {row}",
    "full flipped": "UPDATE tours SET full = 1 - full WHERE rowid = {row}",
    "closed flipped": "UPDATE tours SET closed = 1 - closed WHERE rowid = {row}",
    "length changed": "UPDATE tours SET length = length - 1 WHERE rowid = {row}",
    "key changed": "UPDATE tours SET key_symmetric = 'x' || key_symmetric WHERE rowid = {row}",
    "a byte of a path flipped": "UPDATE tours SET moves = substr(moves, 1, 3) || X'07' || substr(moves, 5) "
    "WHERE rowid = {row}",
    "census count changed": "UPDATE counts SET tours = tours + 2 WHERE rowid = {row}",
    "census row deleted": "DELETE FROM counts WHERE rowid = {row}",
    "checksum changed": "UPDATE results SET checksum = 'x' WHERE rowid = {row}",
    "result record deleted": "DELETE FROM results WHERE rowid = {row}",
    "task definition edited": 'UPDATE tasks SET params = \'{{"tie": "random"}}\' WHERE rowid = {row}',
    "task row deleted": "DELETE FROM tasks WHERE rowid = {row}",
    "task start changed": "UPDATE tasks SET start_row = start_row + 1 WHERE rowid = {row}",
    "task key changed": "UPDATE tasks SET key = 'zzz' || rowid WHERE rowid = {row}",
    # nested past any stack: read as it was, it stopped verify with a RecursionError
    "task params nested": 'UPDATE tasks SET params = \'{{"tie": ' + "[" * 100_000 + "' WHERE rowid = {row}",
    "tours dropped": "DROP TABLE IF EXISTS tours",
    "counts dropped": "DROP TABLE IF EXISTS counts",
    "job_tasks dropped": "DROP TABLE IF EXISTS job_tasks",
    "tasks dropped": "DROP TABLE IF EXISTS tasks",
    "results dropped": "DROP TABLE IF EXISTS results",
    "censuses dropped": "DROP TABLE IF EXISTS censuses",
}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(damage=st.lists(st.tuples(st.sampled_from(sorted(DAMAGE)), st.integers(1, 45)), min_size=1, max_size=6))
def test_one_repair_leaves_a_sound_store_whatever_the_mix_of_damage(clean, cli, monkeypatch, damage):
    """`knight verify --repair` once, then `knight verify` passes: no damage hides another from the repair (a
    changed result on a task whose definition was edited too; a dropped table over any other damage); and a run
    then computes whatever was lost, so that the results are the clean store's again."""
    original, job, clean_results = clean
    # runs done in this process, chunk by chunk as a pool would: a pool inside pytest is slow, and there are dozens
    monkeypatch.setattr("knight.runner.sweep.is_small", lambda tasks: True)
    with tempfile.TemporaryDirectory() as folder:
        store = Path(folder) / "s.sqlite"
        shutil.copy(original, store)
        with sqlite3.connect(store) as db:
            for kind, row in sorted(damage, key=lambda hit: "dropped" in hit[0]):  # a table last: its rows first
                db.execute(DAMAGE[kind].format(row=row))
        db.close()
        repaired = cli(["verify", "--repair"], store)
        assert repaired.returncode in (0, 1) and "Traceback" not in repaired.stderr, repaired.stderr
        after = cli(["verify"], store)
        assert after.returncode == 0, (damage, repaired.stdout, after.stdout)
        ran = cli(["run", str(job)], store)
        assert ran.returncode == 0, (damage, ran.stderr)
        assert cli(["results", "--json"], store).stdout == clean_results, damage


@pytest.mark.parametrize("repair", [False, True])
def test_verify_of_a_store_that_does_not_exist_is_bad_input_and_makes_nothing(capsys, tmp_path, repair):
    """A mistyped --store: --repair once made it (folders too), empty, and said it was sound."""
    typo = tmp_path / "missing" / "typo.sqlite"
    ran = knight_here(capsys, ["verify", "--store", str(typo), *(["--repair"] if repair else [])])
    assert ran.returncode == 2 and "does not exist" in ran.stderr and len(ran.stderr.strip().splitlines()) == 1
    assert not typo.parent.exists() and ran.stdout == ""
