"""`knight results`: what the store knows, per job, board, method and parameters."""

from __future__ import annotations

import csv
import json
import sys
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from knight.cli import app, fail
from knight.cli.run import StoreOption
from knight.engine.board import size_text
from knight.store import CensusRecord, EstimateRecord, Store, store_path

__all__ = ["COLUMNS", "CENSUS_COLUMNS", "ESTIMATE_COLUMNS", "results", "census_row", "estimate_row", "format_params"]

#: Columns of the summary, with their headings in the table.
COLUMNS = {
    "job": "job",
    "board": "board",
    "method": "method",
    "params": "parameters",
    "starts": "starts",
    "tasks": "tasks",
    "done": "done",
    "failed": "failed",
    "pending": "pending",
    "full": "full",
    "closed": "closed",
    "starts_full": "starts full",
    "distinct_directed": "distinct",
    "distinct_undirected": "≠ reversal",
    "distinct_symmetric": "≠ symmetry",
}
#: Columns of the census summary (`--census`), with their headings in the table.
CENSUS_COLUMNS = {
    "jobs": "jobs",
    "board": "board",
    "kind": "kind",
    "removed": "removed",
    "starts": "starts",
    "depth": "depth",
    "units": "units",
    "done": "done",
    "failed": "failed",
    "directed": "directed tours",
    "undirected": "≠ reversal",
    "nodes": "nodes",
}
#: Columns of the tree-size estimates, with their headings in the table.
ESTIMATE_COLUMNS = {
    "jobs": "jobs",
    "board": "board",
    "start": "start",
    "probes": "probes",
    "seed": "seed",
    "nodes": "nodes (± s.e.)",
    "exact_nodes": "exact nodes",
    "tours": "tours (± s.e.)",
    "exact_tours": "exact tours",
    "full_probes": "full probes",
    "rate": "nodes/s",
}


@app.command()
def results(
    job: Annotated[str | None, typer.Argument(help="A job's name or its file (default: every job).")] = None,
    store: StoreOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the rows as JSON.")] = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print the rows as CSV.")] = False,
    reach: Annotated[
        bool,
        typer.Option(
            "--reach",
            help=(
                "Instead: how far each Warnsdorff rule goes on m x m boards from the corner (the board-size study): "
                "the first failing m, the failing sides, the success rate by range of m, and the literature's claims."
            ),
        ),
    ] = False,
    censuses: Annotated[
        bool,
        typer.Option(
            "--census",
            help=(
                "Only the censuses: per board and kind, units done, directed tours, tours up to reversal and nodes "
                "(the form --json and --csv print them in)."
            ),
        ),
    ] = False,
) -> int:
    """Summarise the store: tasks, full and closed tours, how many starts give a full tour, and the
    distinct full tours three ways (directed, up to reversal, up to reversal and symmetry); then the
    censuses (tours counted, per board and kind). --json and --csv print the tour rows, or with
    --census the census rows.

    Random tie-breaks are counted together over their seeds. Exit status 0, or 2 for bad input.
    """
    if as_json and as_csv:
        fail("choose one of --json and --csv")
    if reach and censuses:
        fail("choose one of --reach and --census")
    path = store_path(store)
    from knight.runner import load_job

    name = load_job(job, force=True).name if job and job.endswith(".toml") else job
    with Store(path, read_only=True) as opened:
        opened.refuse_if_damaged()
        known = opened.jobs()
        if name is not None and name not in known:
            fail(f"no job named {name!r} in {path}; it has: {', '.join(known) or 'none yet'}")
        if reach:
            return _print_reach(opened, name, as_json, as_csv)
        rows = [] if censuses else [_plain(row) for row in opened.summary(name)]
        counted = [census_row(stored) for stored in opened.censuses(name)]
        estimated = [] if censuses else [estimate_row(stored) for stored in opened.estimates(name)]
        failures = opened.failures(name)
    columns, shown = (CENSUS_COLUMNS, counted) if censuses else (COLUMNS, rows)
    if as_json:
        typer.echo(json.dumps(shown, indent=2))
    elif as_csv:
        writer = csv.DictWriter(sys.stdout, fieldnames=list(columns), lineterminator="\n")
        writer.writeheader()
        writer.writerows(
            {**row, **{key: _cell(key, row[key]) for key in ("params", "jobs", "removed", "starts") if key in row}}
            for row in shown
        )
    else:
        _print_table(rows, counted, estimated, failures)
    return 0


def census_row(stored: CensusRecord) -> dict[str, Any]:
    """One census as a summary row: its definition, units done, and its totals once complete (else None)."""
    spec = stored.spec
    return {
        "jobs": list(stored.jobs),
        "board": str(spec.board),
        "kind": spec.kind,
        "removed": [list(square) for square in spec.removed],
        "starts": "all" if spec.starts is None else [list(square) for square in spec.starts],
        "depth": spec.depth,
        "units": stored.units_total,
        "done": stored.units_done,
        "failed": stored.units_failed,
        "directed": stored.total,
        "undirected": stored.undirected,
        "nodes": stored.nodes,
    }


def estimate_row(estimate: EstimateRecord) -> dict[str, Any]:
    """One tree-size estimate as a table row (exact tours only where the task counted the tree)."""
    rate = estimate.nodes_per_second
    return {
        "jobs": list(estimate.jobs),
        "board": size_text(estimate.n, estimate.m),
        "start": [list(estimate.start)],
        "probes": estimate.probes,
        "seed": estimate.seed,
        "nodes": f"{estimate.node_mean:.4g} ± {estimate.node_se:.2g}",
        "exact_nodes": estimate.exact_nodes,
        "tours": f"{estimate.tour_mean:.4g} ± {estimate.tour_se:.2g}",
        "exact_tours": estimate.exact_tours,
        "full_probes": estimate.full_probes,
        "rate": None if rate is None else f"{rate:.3g}",
    }


def _cell(key: str, value: Any) -> str:
    """A summary value as table or CSV text: parameters as ``name=value``, lists of squares and jobs plainly."""
    if key == "params":
        return format_params(value)
    if isinstance(value, list):
        return " ".join(f"{item[0]},{item[1]}" if isinstance(item, list) else str(item) for item in value) or "-"
    if value is None:
        return "-"
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else str(value)


def _plain(row: dict[str, Any]) -> dict[str, Any]:
    """A summary row with the board as ``NxM`` and the seeds counted."""
    out = {"job": row["job"], "board": size_text(row["n"], row["m"]), "method": row["method"], "params": row["params"]}
    if row["variants"] > 1 and (row["params"].get("tie") == "random" or row["method"] == "random-walk"):
        out["params"] = {**row["params"], "seeds": row["variants"]}
    out.update({key: row[key] for key in COLUMNS if key not in out})
    return out


def format_params(params: dict[str, Any]) -> str:
    """Parameters as ``name=value`` pairs, e.g. ``tie=random seeds=5``."""
    return (
        ", ".join(
            f"{name}={value:,}"
            if isinstance(value, int) and not isinstance(value, bool)
            else f"{name}={json.dumps(value) if isinstance(value, bool) else value}"
            for name, value in params.items()
        )
        or "-"
    )


def _print_table(
    rows: list[dict[str, Any]],
    counted: list[dict[str, Any]],
    estimated: list[dict[str, Any]],
    failures: list[tuple[str, str, int, str]],
) -> None:
    console = Console(width=200 if not sys.stdout.isatty() else None)
    if not rows and not counted and not estimated:
        console.print("The store holds no results yet: run `knight run jobs/*.toml`.")
        return
    if rows:
        table = Table(
            title="Sweep results: full tours, the starts that gave one, and the distinct full tours "
            "(directed, up to reversal, up to reversal and symmetry)",
            show_lines=False,
        )
        for key, heading in COLUMNS.items():
            table.add_column(
                heading,
                justify="left" if key in ("job", "board", "method", "params") else "right",
                no_wrap=key in ("job", "params"),
            )
        for row in rows:
            table.add_row(*(format_params(row[k]) if k == "params" else str(row[k]) for k in COLUMNS))
        console.print(table)
    if counted:
        table = Table(
            title="Censuses: every tour counted (directed; closed tours from every square), once all units are done",
            show_lines=False,
        )
        for key, heading in CENSUS_COLUMNS.items():
            table.add_column(
                heading,
                justify="left" if key in ("jobs", "board", "kind", "removed", "starts") else "right",
                no_wrap=key == "jobs",
            )
        for row in counted:
            table.add_row(*(_cell(key, row[key]) for key in CENSUS_COLUMNS))
        console.print(table)
    if estimated:
        table = Table(
            title="Tree-size estimates: Knuth's probes of the plain backtracking tree (nodes and full "
            "tours), exact counts where the task made them, and the plain search's speed",
            show_lines=False,
        )
        for key, heading in ESTIMATE_COLUMNS.items():
            table.add_column(
                heading, justify="left" if key in ("jobs", "board", "start") else "right", no_wrap=key == "jobs"
            )
        for row in estimated:
            table.add_row(*(_cell(key, row[key]) for key in ESTIMATE_COLUMNS))
        console.print(table)
    for _key, what, attempts, reason in failures:
        console.print(f"failed: {what} after {attempts} attempt(s): {reason}", markup=False)


def _print_reach(opened: Store, job: str | None, as_json: bool, as_csv: bool) -> int:
    """The board-size study: per rule, first failure and success by range of m; then the claims judged."""
    from knight.report.reach import judge_claims, reach_by_rule, side_ranges

    by_rule = reach_by_rule(opened.tours(job, drawn_up_to=0))
    if not by_rule:
        fail(
            "the store has no board-size study (warnsdorff from the corner of m x m boards); "
            "run `knight run jobs/board-sizes.toml` first"
        )
    largest = max(rule.sides[-1] for rule in by_rule.values())
    ranges = side_ranges(largest, columns=10)
    rows = [
        {
            "rule": tie,
            "sides": f"{rule.sides[0]}-{rule.sides[-1]}",
            "runs": sum(r for _, r in rule.outcomes.values()),
            "first_failure": rule.first_failure,
            "failing_sides": len(rule.failing),
            **{f"rate_{low}_{high}": rule.rate_between(low, high) for low, high in ranges},
        }
        for tie, rule in by_rule.items()
    ]
    claims = judge_claims(by_rule)
    if as_json:
        typer.echo(json.dumps({"rules": rows, "claims": claims}, indent=2))
        return 0
    if as_csv:
        writer = csv.DictWriter(sys.stdout, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        return 0
    console = Console(width=200 if not sys.stdout.isatty() else None)
    table = Table(title="How far each rule goes: full tours from the corner of m x m boards")
    for heading in ("rule", "sides", "runs", "first failure", "failing sides", *(f"m {a}-{b}" for a, b in ranges)):
        table.add_column(heading, justify="left" if heading == "rule" else "right")
    for row in rows:
        rates = [row[f"rate_{a}_{b}"] for a, b in ranges]
        table.add_row(
            str(row["rule"]),
            str(row["sides"]),
            str(row["runs"]),
            str(row["first_failure"] or "none"),
            str(row["failing_sides"]),
            *("-" if r is None else f"{r:.0%}" for r in rates),
        )
    console.print(table)
    verdicts = Table(title="The literature's claims, tested on these runs")
    for heading in ("source", "rule", "claim", "our runs", "verdict"):
        verdicts.add_column(heading)
    for claim in claims:
        verdicts.add_row(*(str(claim[k]) for k in ("source", "rule", "statement", "ours", "verdict")))
    console.print(verdicts)
    return 0
