"""Each method's parameters are described once (knight.engine.parameters); a new tie-break appears everywhere."""

from __future__ import annotations

import numpy as np
import pytest
from runner_helpers import write_job

from knight.cli import main
from knight.engine import METHODS, TIE_BREAKS, Board, find_tour, greedy, register_tie_break
from knight.report.appendix import appendix_section
from knight.runner import JobError, load_job
from knight.tasks.estimate import DEFAULTS as ESTIMATE_DEFAULTS

DUMMY = "backwards"


@pytest.fixture
def dummy_tie_break():
    """A tie-break preferring the highest move number, registered for one test and then forgotten."""
    register_tie_break(
        DUMMY, "the highest move number (a test's dummy)", lambda board, start: np.arange(8)[None, ::-1].copy()
    )
    yield DUMMY
    for registry in (TIE_BREAKS, greedy._TIE_CODES, greedy._TIE_RANKS):
        registry.pop(DUMMY)


def test_the_defaults_a_job_fills_in_are_the_ones_task_keys_were_made_with():
    # Changing these would change every task's key and lose the stored results.
    defaults = {**{name: method.defaults() for name, method in METHODS.items()}, "estimate": ESTIMATE_DEFAULTS}
    assert defaults == {
        "naive": {},
        "static": {},
        "warnsdorff": {"tie": "first"},
        "random-walk": {},
        "backtrack": {"closed": False, "order": "plain", "budget": 50_000_000},
        "parberry": {},
        "find": {"budget": 2_000_000},
        "estimate": {"probes": 100_000, "seed": 0, "rate_nodes": 0},
    }


def test_the_appendix_describes_each_parameter_as_before():
    methods = {m.name: m.parameters for m in appendix_section().methods}
    assert methods["warnsdorff"]["tie"] == f"tie-break: {', '.join(TIE_BREAKS)} (default first)"
    assert methods["warnsdorff"]["seed"] == "seed of the random tie-break (default 0)"
    assert methods["backtrack"]["budget"] == "most nodes to visit (default 50,000,000)"
    assert methods["backtrack"]["closed"] == "demand a closed tour (default false)"
    assert methods["naive"] == {}


def test_a_registered_tie_break_is_a_choice_everywhere(dummy_tie_break, tmp_path, capsys, monkeypatch):
    # the engine walks with it
    assert find_tour(Board(5, 5), (0, 0), "warnsdorff", tie=dummy_tie_break).params == {"tie": dummy_tie_break}
    # `knight tour --help` lists it among the choices of --tie
    monkeypatch.setenv("COLUMNS", "300")
    with pytest.raises(SystemExit):
        main(["tour", "--help"])
    tie_help = next(line for line in capsys.readouterr().out.splitlines() if "--tie" in line)
    assert dummy_tie_break in tie_help and "roth" in tie_help
    # `knight tour --tie` takes it, and a typo names it among the valid ones, in one line, exit 2
    with pytest.raises(SystemExit) as stop:
        main(["tour", "5", "--tie", dummy_tie_break])
    assert stop.value.code in (0, 1) and dummy_tie_break in capsys.readouterr().out
    with pytest.raises(SystemExit) as stop:
        main(["tour", "5", "--tie", "sideways"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and len(err.strip().splitlines()) == 1
    assert "unknown tie-break 'sideways'; choose one of: " in err and dummy_tie_break in err
    # the job parser accepts it, and names it among the valid ones when given a typo
    job = load_job(
        write_job(
            tmp_path,
            "dummy",
            "[[sweep]]\nboards = [5]\nstarts = [[0, 0]]\n"
            f'method = "warnsdorff"\nparams = {{tie = "{dummy_tie_break}"}}',
        )
    )
    assert [dict(task.params) for task in job.tasks()] == [{"tie": dummy_tie_break}]
    with pytest.raises(JobError, match=f"unknown tie-break 'sideways'; choose one of: .*{dummy_tie_break}"):
        load_job(
            write_job(
                tmp_path,
                "typo",
                '[[sweep]]\nboards = [5]\nstarts = [[0, 0]]\nmethod = "warnsdorff"\nparams = {tie = "sideways"}',
            )
        )
    # the report's methods appendix lists it
    warnsdorff = next(m for m in appendix_section().methods if m.name == "warnsdorff")
    assert dummy_tie_break in warnsdorff.parameters["tie"]


def test_a_tie_break_is_registered_once(dummy_tie_break):
    with pytest.raises(Exception, match="already exists"):
        register_tie_break(dummy_tie_break, "again", lambda board, start: np.arange(8)[None, :])


def test_every_parameter_checks_its_values():
    budget = METHODS["backtrack"].parameters["budget"]
    assert budget.problem(1) is None and budget.problem(0) == "must be a positive integer, got 0"
    assert METHODS["backtrack"].parameters["closed"].problem("yes") == "must be true or false, got 'yes'"
    assert METHODS["warnsdorff"].parameters["seed"].problem(True) == "must be a non-negative integer, got True"
