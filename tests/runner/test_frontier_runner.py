"""Frontier counts through the sweep runner: `method = "frontier"` in a job file, one task per board and kind, run
like any task and stored in table ``frontier_counts``, equal to what the enumerating census counts.

The frontier method's own numbers are checked in tests/engine/test_frontier.py; here each count that went through
the job parser, the runner and the store is compared with the census of the same board, in the same store or
computed directly.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from runner_helpers import write_job

from knight.engine import Board
from knight.engine.census import census
from knight.errors import JobError
from knight.runner import load_job, run_jobs
from knight.runner.jobs import parse_job
from knight.runner.progress import LineReporter
from knight.store import FrontierRecord, Store
from knight.tasks import FRONTIER, FailureCause, FrontierParams

JOB = """
name = "both-ways"
[[sweep]]
boards = [5, "4x5", "5x4"]
method = "frontier"
params = { closed = [false, true] }

[[sweep]]
boards = [6]
method = "frontier"
params = { closed = true }

[[sweep]]
boards = [5]
method = "frontier"
params = { removed = [[0, 0], [4, 4]] }

[[sweep]]
boards = [5, "4x5"]
method = "census"
"""


def quiet() -> LineReporter:
    return LineReporter(io.StringIO())


@pytest.fixture(scope="module")
def counted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The job run into a new store (the 6 x 6 count on one worker, the small boards in this process)."""
    folder = tmp_path_factory.mktemp("frontier-runner")
    job, path = write_job(folder, "both-ways", JOB), folder / "s.sqlite"
    with Store(path) as store:
        summary = run_jobs([load_job(job)], store, reporter=quiet())
    assert summary.failed == 0, summary.failures
    return job, path


def by_board(path: Path) -> dict[tuple[int, int, bool, tuple[tuple[int, int], ...]], FrontierRecord]:
    with Store(path, read_only=True) as store:
        store.refuse_if_damaged()
        return {(r.n, r.m, r.closed, r.removed): r for r in store.frontier_counts()}


def test_a_frontier_job_stores_the_counts_the_census_makes(counted: tuple[Path, Path]) -> None:
    _, path = counted
    found = by_board(path)
    assert len(found) == 8  # one task per board and kind
    with Store(path, read_only=True) as store:
        censuses = {(c.n, c.m): c for c in store.censuses()}
    for n, m in ((5, 5), (4, 5)):  # the census of the same store, enumerated
        assert found[n, m, False, ()].tours == censuses[n, m].total > 0
    for (n, m, closed, removed), record in found.items():  # and the census computed here, for every count
        expected = census(Board(n, m), closed=closed, removed=list(removed))
        assert record.tours == (expected.cycles if closed else expected.total), (n, m, closed, removed)
        assert record.peak_states <= record.states and (record.peak_states > 0 or record.tours == 0)
        assert record.seconds > 0
        assert record.jobs == ("both-ways",)
    assert found[6, 6, True, ()].tours == census(Board(6, 6), closed=True).cycles > 0


def test_a_census_units_time_is_stored_with_its_count(counted: tuple[Path, Path]) -> None:
    _, path = counted
    with Store(path, read_only=True) as store:
        assert all(stored.seconds > 0 for stored in store.censuses())


def test_a_second_run_counts_nothing_again(counted: tuple[Path, Path]) -> None:
    job, path = counted
    before = by_board(path)
    with Store(path) as store:
        summary = run_jobs([load_job(job)], store, reporter=quiet())
    assert (summary.ran, summary.already_done) == (0, summary.total)
    assert by_board(path) == before


def test_the_state_cap_is_no_part_of_the_task(tmp_path: Path) -> None:
    """A count past the cap fails with the engine's line as its reason; the same job with a larger cap is the same
    task, run again, and a count made under one cap is found under any other."""
    sweep = 'name = "count"\n[[sweep]]\nboards = [5]\nmethod = "frontier"\n'
    capped, roomy = (
        write_job(tmp_path, "capped", sweep + "params = {max_states = 10}\n"),
        write_job(tmp_path, "roomy", sweep),
    )
    (few,), (many,) = load_job(capped).tasks(), load_job(roomy).tasks()
    assert few.key == many.key and (few.max_states, many.max_states) == (10, None)
    store_path = tmp_path / "s.sqlite"
    with Store(store_path) as store:
        failed = run_jobs([load_job(capped)], store, reporter=quiet())
        assert failed.failed == 1
        assert [record.failure.cause for record in store.failures()] == [FailureCause.STATE_CAP]
        assert store.frontier_counts() == []
        again = run_jobs([load_job(roomy)], store, reporter=quiet())
        assert (again.ran, again.failed) == (1, 0)
        (record,) = store.frontier_counts()
        assert record.tours == census(Board(5, 5)).total
        assert run_jobs([load_job(capped)], store, reporter=quiet()).ran == 0


def test_a_frontier_task_is_its_board_and_kind() -> None:
    task = FrontierParams(True, ((4, 4), (0, 0), (0, 0))).task(6, 7, max_states=5)
    assert (task.method, task.n, task.m, task.start) == (FRONTIER, 6, 7, (0, 0))
    assert task.frontier == FrontierParams(True, ((0, 0), (4, 4)))
    assert task.describe() == "frontier 6x7 closed less 0,0 4,4"
    assert task.key != FrontierParams(False, ((0, 0), (4, 4))).task(6, 7).key


@pytest.mark.parametrize(
    ("sweep", "message"),
    [
        (
            {"boards": [14]},
            "sweep[0].boards: 14x14: the frontier method counts boards whose shorter side is at most 13",
        ),
        ({"boards": ["3x9"]}, ""),  # 3 rows of 9: the shorter side is what counts
        ({"boards": [5], "starts": [[0, 0]]}, "counts every tour at once, from no start: leave starts out"),
        ({"boards": [5], "repeats": 2}, "sweep[0].repeats: does not apply to method 'frontier'"),
        ({"boards": [5], "params": {"max_states": 0}}, "sweep[0].params.max_states: must be the state cap"),
        ({"boards": [5], "params": {"max_states": [10, 20]}}, "sweep[0].params.max_states: must be the state cap"),
        ({"boards": [5], "params": {"closed": "yes"}}, "sweep[0].params.closed: must be true or false"),
        ({"boards": [5], "params": {"depth": 2}}, "not a parameter of method 'frontier'; it takes closed, removed"),
        ({"boards": [5], "params": {"removed": [[5, 0]]}}, "sweep[0].params.removed: square [5, 0] is off the 5x5"),
    ],
)
def test_a_bad_frontier_sweep_is_one_line(sweep: dict, message: str) -> None:
    data = {"sweep": [{"method": "frontier", **sweep}]}
    if not message:
        assert [task.n for task in parse_job(data, Path("f.toml")).tasks()] == [3]
        return
    with pytest.raises(JobError) as error:
        parse_job(data, Path("f.toml"))
    assert message in str(error.value) and "\n" not in str(error.value)


def test_a_frontier_count_is_run_first_and_alone() -> None:
    """A frontier count takes seconds to an hour on a board of a few dozen squares: it is run before the tours of
    larger boards, and in a chunk of its own, so that no task waits behind it on its worker."""
    from knight.runner.pool import split
    from knight.runner.sweep import biggest_first
    from knight.tasks import Task

    tours = [Task("warnsdorff", (("tie", "first"),), 8, 8, (0, col)) for col in range(8)] * 4
    counts = [FrontierParams(closed).task(6, 6) for closed in (False, True)]
    ordered = biggest_first([*tours[:3], *counts, *tours[3:]])
    assert ordered[:2] == counts
    chunks = split(ordered, 2)
    assert chunks[:2] == [[counts[0]], [counts[1]]] and len(chunks[2]) > 1
    assert [task for chunk in chunks for task in chunk] == ordered
    middle = split([*tours[:9], counts[0], *tours[9:]], 1)  # among others: the ones before, then it alone
    assert [counts[0]] in middle and all(len(chunk) == 1 or counts[0] not in chunk for chunk in middle)


def test_a_count_says_each_row_it_has_swept(caplog: pytest.LogCaptureFixture) -> None:
    from knight.runner.jobs import frontier_job
    from knight.runner.work import run_task

    (task,) = frontier_job(Board(4, 5), FrontierParams(closed=False, removed=())).tasks()
    with caplog.at_level("INFO", logger="knight.runner.work"):
        result = run_task(task)
    assert result.ok and result.outcome.tours == census(Board(4, 5)).total
    rows = [record.getMessage() for record in caplog.records if "swept" in record.getMessage()]
    assert [line.split(": row ")[1].split(" of ")[0] for line in rows] == ["1", "2", "3", "4", "5"]  # 4 wide, 5 long
    assert all(" of 5 swept, " in line for line in rows)
