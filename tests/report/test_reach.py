"""The board-size analysis: reach per rule, and how the literature's claims are judged."""

import json

from runner_helpers import knight, write_job

from knight.engine import Board, find_tour
from knight.report.reach import CLAIMS, Reach, judge_claims, reach_by_rule
from knight.store import TourRecord as Record


def record(tie, m, full, seed=None):
    params = {"tie": tie, **({"seed": seed} if seed is not None else {})}
    return Record(
        method="warnsdorff",
        params=params,
        n=m,
        m=m,
        start=(0, 0),
        length=m * m if full else 1,
        full=full,
        closed=False,
        success=full,
        work=0,
        work_unit="steps",
        budget_exhausted=False,
        key_directed="",
        key_undirected="",
        key_symmetric="",
    )


def test_reach_counts_runs_per_side_and_finds_first_failure():
    records = [record("first", m, m not in (9, 12)) for m in range(5, 20)]
    records += [record("random", m, seed % 2 == 0 or m < 8, seed) for m in range(5, 10) for seed in range(4)]
    records += [record("roth", 5, True)]  # too few sides to report
    reach = reach_by_rule(records)
    assert set(reach) == {"first", "random"}
    assert reach["first"].first_failure == 9 and reach["first"].failing == [9, 12]
    assert reach["random"].outcomes[9] == (2, 4) and reach["random"].rate(5) == 1.0
    assert reach["random"].rate_between(5, 9) == (3 * 4 + 2 * 2) / 20
    middles, rates = reach["first"].binned(5)
    assert middles == [7.0, 12.0, 17.0] and rates == [0.8, 0.8, 1.0]


def _claim_verdict(rule, outcomes):
    reach = {rule: Reach(rule, outcomes)}
    return {c["statement"]: c["verdict"] for c in judge_claims(reach) if c["rule"] == rule}


def test_a_contradicted_claim_is_refuted_at_any_reach_and_a_consistent_one_needs_the_reach():
    roth = next(c for c in CLAIMS if c.rule == "roth")
    early_failure = {m: (int(m != 27), 1) for m in range(5, 101)}
    assert _claim_verdict("roth", early_failure)[roth.statement] == "disagree"
    no_failure = {m: (1, 1) for m in range(5, 101)}
    assert _claim_verdict("roth", no_failure)[roth.statement] == "untested"
    failure_at_428 = {m: (int(m != 428), 1) for m in range(5, 431)}
    assert _claim_verdict("roth", failure_at_428)[roth.statement] == "agree"


def test_blog_claim_on_real_runs():
    records = []
    for m in range(5, 71):
        tour = find_tour(Board(m, m), (0, 0), "warnsdorff")
        records.append(record("first", m, tour.full))
    blog = next(c for c in judge_claims(reach_by_rule(records)) if c["source"] == "the Warnsdorff blog")
    first = next(m for m in range(5, 71) if not find_tour(Board(m, m), (0, 0), "warnsdorff").full)
    assert blog["ours"] == f"first failure at m = {first}"
    assert blog["verdict"] == ("agree" if first > 50 else "disagree")


def test_results_reach_from_the_store(tmp_path):
    job = write_job(
        tmp_path,
        "sizes",
        '[[sweep]]\nboards = ["5..40"]\nstarts = [[0, 0]]\nmethod = "warnsdorff"\n'
        'params = { tie = ["lookahead-min", "roth"] }\n',
    )
    store = tmp_path / "s.sqlite"
    assert knight(["run", str(job)], store).returncode == 0
    done = knight(["results", "--reach", "--json"], store)
    assert done.returncode == 0, done.stderr
    rows = {row["rule"]: row for row in json.loads(done.stdout)["rules"]}
    for tie in ("lookahead-min", "roth"):
        failing = [m for m in range(5, 41) if not find_tour(Board(m, m), (0, 0), "warnsdorff", tie=tie).full]
        assert rows[tie]["first_failure"] == (failing[0] if failing else None)
        assert rows[tie]["failing_sides"] == len(failing)
    empty = tmp_path / "e.sqlite"
    assert (
        knight(
            ["run", str(write_job(tmp_path, "one", '[[sweep]]\nboards = [5]\nstarts = "corners"\nmethod = "naive"\n'))],
            empty,
        ).returncode
        == 0
    )
    refused = knight(["results", "--reach"], empty)
    assert refused.returncode == 2 and "board-size study" in refused.stderr


def test_a_share_claim_is_not_refuted_before_the_study_reaches_it():
    share = next(c for c in CLAIMS if c.rule == "roth" and not c.early)
    failing_early = {m: (int(m not in (27, 30)), 1) for m in range(5, 101)}  # 2% of 5..100 fail
    assert _claim_verdict("roth", failing_early)[share.statement] == "untested"
    to_1000 = {m: (int(m not in (27, 30)), 1) for m in range(5, 1001)}  # 0.2% of 5..1000
    assert _claim_verdict("roth", to_1000)[share.statement] == "agree"
    many = {m: (int(m % 50 != 0), 1) for m in range(5, 1001)}  # 2% of 5..1000
    assert _claim_verdict("roth", many)[share.statement] == "disagree"


def test_a_rate_compared_with_a_published_one_says_how_many_runs_it_rests_on():
    ganzfried = next(c for c in CLAIMS if c.rule == "random" and "81%" in c.statement)
    outcomes = {m: (7 if m == 50 else 3, 10) for m in range(5, 101)}
    (judged,) = [
        c for c in judge_claims({"random": Reach("random", outcomes)}) if c["statement"] == ganzfried.statement
    ]
    assert judged["ours"] == "70% at m = 50, 30% at m = 100 (10 runs each)" and judged["verdict"] == "agree"
    one = {m: (1, 1) for m in range(5, 101)}
    (judged,) = [c for c in judge_claims({"random": Reach("random", one)}) if c["statement"] == ganzfried.statement]
    assert judged["ours"].endswith("(1 run each)")
    mixed = {**outcomes, 100: (6, 20)}
    (judged,) = [c for c in judge_claims({"random": Reach("random", mixed)}) if c["statement"] == ganzfried.statement]
    assert judged["ours"].endswith("(10 and 20 runs)")
