"""`knight results`: what the store knows, per job, board, method and parameters."""

from __future__ import annotations

import csv
import os
import shutil
import sys
import textwrap
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Annotated

import typer

from knight.cli import app, fail
from knight.cli.options import JsonOption, KnightCommand, QuietOption, examples, print_json
from knight.cli.run import StoreOption, run_everything
from knight.store.location import store_path

if TYPE_CHECKING:  # the engine, the store and rich are imported where used: `knight --help` loads none
    from rich.console import Console

    from knight.store import FailureRecord, Store
    from knight.tasks import Shown

__all__ = ["PIPE_WIDTH", "WIDTHS", "TEXT_WIDTH", "results"]

#: The narrowest a text column (job, board, method, parameters) is made before columns are left out.
TEXT_WIDTH = 11
#: The width of the tables when stdout is not a terminal and COLUMNS is not set (a file, a pipe).
PIPE_WIDTH = 200
#: The narrowest and the widest the tables are laid out, whatever $COLUMNS says: narrower, no column fits its
#: heading; wider, no table needs it.
WIDTHS = (20, 1000)


@app.command(
    cls=KnightCommand,
    epilog=examples(
        "knight results",
        "knight results homework-8 --csv > homework-8.csv",
        "knight results --census --json",
    ),
)
def results(
    job: Annotated[str | None, typer.Argument(help="A job's name or its file (default: every job).")] = None,
    store: StoreOption = None,
    as_json: JsonOption = False,
    as_csv: Annotated[
        bool, typer.Option("--csv", help="Print the rows as CSV (plain numbers; the same header whatever the job).")
    ] = False,
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
                "Only the censuses: per board and kind, units done, directed tours, tours up to reversal and nodes, "
                "and the frontier counts (--csv prints the censuses' rows; --json leaves out the tours and estimates)."
            ),
        ),
    ] = False,
    quiet: QuietOption = False,
) -> int:
    """Summarise the store: per job, board, method and parameters, the tours found and how many differ.

    Tasks, full and closed tours, how many starts give a full tour, and the distinct full tours three
    ways (directed, up to reversal, up to reversal and symmetry); then the censuses (tours counted, per
    board and kind), the frontier counts (every tour of a board counted at once) and the tree-size estimates. The tables fit the terminal's width (columns that tell
    least are left out on a narrow one: --csv and --json give them all). --csv prints the tour rows, or
    with --census the census rows; --json everything, under keys. Random tie-breaks are counted together
    over their seeds. Exit status 0, or 2 for bad input.
    """
    if as_json and as_csv:
        fail("choose one of --json and --csv")
    if reach and censuses:
        fail("choose one of --reach and --census")
    path = store_path(store)
    from knight.store import Store

    name = job
    if job and job.endswith(".toml"):  # a job's file: read it for its name (the runner loads only then)
        from knight.runner.jobs import load_job

        name = load_job(job, force=True).name
    with Store(path, read_only=True) as opened:
        opened.refuse_if_damaged()
        known = opened.jobs()
        if name is not None and name not in known:
            fail(f"no job named {name!r} in {path}; it has: {', '.join(known) or 'none yet'}")
        if reach:
            return _print_reach(opened, name, as_json, as_csv)
        tables = _tables(opened, name, censuses)
        failures = opened.failures(name)
    if as_json:
        print_json(
            {  # not the store's path: the same results give the same document wherever the store is
                "job": name,
                **{table.json_key: table.to_json() for table in tables if table.headings},  # a table per kind
                "failures": [_failure_json(failed) for failed in failures],
            }
        )
    elif as_csv:  # the first table shown: the tours', or with --census the censuses'
        first = next(table for table in tables if table.counts or not censuses)
        writer = csv.DictWriter(sys.stdout, fieldnames=list(first.columns), lineterminator="\n")
        writer.writeheader()
        writer.writerows(first.csv_rows())
    else:
        _print_table(tables, failures)
    return 0


def _failure_json(failed: FailureRecord) -> dict[str, str | int]:
    """A failed task in ``--json``: its key, what it is, its attempts, its failure's cause and message."""
    cause, reason = failed.failure.cause.value, failed.failure.message
    return {"task": failed.key, "what": failed.what, "attempts": failed.attempts, "cause": cause, "reason": reason}


def _shown_table(shown: Shown) -> str:
    """A kind's :class:`~knight.tasks.Shown` as a table fitted to the terminal: text cells on the left, numbers
    with thousands separators (only its title when it has no rows)."""
    if not shown.rows:
        return shown.title
    names = shown.columns
    cells = [{h: f"{v:,}" if isinstance(v, int) else str(v) for h, v in zip(names, row)} for row in shown.rows]
    text = shown.text
    if text is None:
        text = tuple(h for i, h in enumerate(names) if any(isinstance(row[i], str) for row in shown.rows))
    headings = dict(zip(names, shown.headings))
    return _fitted(_console(), shown.title, headings, cells, left=text, dropped=shown.dropped)


def _tables(opened: Store, job: str | None, counts_only: bool) -> list[Shown]:
    """Each kind's table of its results (only the counts' with ``counts_only``), in the registry's order; then, for
    a kind whose outcomes the store holds but whose module is not loaded here, a title that says so."""
    from knight.tasks.kind import Shown, kinds, sweep_kinds
    from knight.tasks.shown import shower

    shown = [table for kind in sweep_kinds() if (table := shower(kind).results(opened, job, counts_only))]
    known = {kind.name for kind in kinds()}
    for name in [] if counts_only else sorted(set(opened.stored_kinds()) - known):
        shown.append(Shown(f"results of kind {name!r}, whose module is not loaded: name it in KNIGHT_KINDS", (), ()))
    return shown


def _print_table(tables: list[Shown], failures: list[FailureRecord]) -> None:
    if not any(table.rows or not table.headings for table in tables):
        _console().print(f"The store holds no results yet: run `{run_everything()}`.")
        return
    for table in tables:
        if table.rows or not table.headings:  # a table, or a kind's note
            typer.echo(_shown_table(table))
    for failed in failures:
        _console().print(f"failed: {failed.line}", markup=False)


def _console() -> Console:
    """The console the tables are printed on: as wide as $COLUMNS, else the terminal, else :data:`PIPE_WIDTH`
    into a file or a pipe, where nothing wraps lines; kept within :data:`WIDTHS` (a $COLUMNS that is not a
    positive number, 0 among them, counts as unset: rich would take it as it is, and textwrap refuses 0)."""
    from rich.console import Console

    try:
        asked = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        asked = 0
    if asked > 0 or sys.stdout.isatty():  # shutil reads a positive $COLUMNS first, then asks the terminal
        width = shutil.get_terminal_size((PIPE_WIDTH, 24)).columns
    else:
        width = PIPE_WIDTH
    return Console(width=min(max(width, WIDTHS[0]), WIDTHS[1]))


def _fitted(
    console: Console,
    title: str,
    headings: dict[str, str],
    cells: list[dict[str, str]],
    left: Sequence[str],
    dropped: Sequence[str] = (),
) -> str:
    """A table of ``cells`` under ``headings`` that fits ``console``'s width, as text (drawn here: rich's
    tables take seconds over a thousand rows). Numbers are never broken (their
    headings take a line a word); while the table would leave the text columns (``left``) less than
    :data:`TEXT_WIDTH` each, a column that tells little is left out (``dropped``, its kind's order, one whose every
    value is the same first) and a caption says which; then the text columns fold (textwrap) into what is left."""
    numeric = [key for key in headings if key not in left]
    droppable = [key for key in dropped if key in numeric]
    same = [key for key in droppable if len(cells) > 1 and len({row[key] for row in cells}) == 1]
    order = [*same, *(key for key in droppable if key not in same)]

    def width(key: str, *, split: bool = True) -> int:
        words = headings[key].split() if key in numeric and split else [headings[key]]
        widest = max([len(row[key]) for row in cells] + [len(word) for word in words])
        return widest if key in numeric else min(widest, TEXT_WIDTH)

    def needed(keys: list[str], split: bool = True) -> int:  # the columns, and two spaces between two
        return sum(width(key, split=split) for key in keys) + 2 * (len(keys) - 1)

    shown, left_out = list(headings), []
    split = needed(shown, split=False) > console.width  # headings a word a line only when it helps
    while needed(shown) > console.width and set(order) & set(shown):
        key = next(key for key in order if key in shown)
        shown.remove(key)
        left_out.append(headings[key])
    widths = {key: width(key, split=split) for key in shown}
    room = console.width - needed(shown, split=split)
    for key in (key for key in shown if key not in numeric):  # room left widens the text columns, as they need
        natural = max([len(headings[key])] + [len(row[key]) for row in cells])  # never narrower than the heading
        grown = max(widths[key], min(natural, widths[key] + max(room, 0)))
        room -= grown - widths[key]
        widths[key] = grown
    lines = textwrap.wrap(title, console.width) or [""]
    heads = {key: (headings[key].split() if key in numeric and split else [headings[key]]) for key in shown}
    lines += _heading_lines(heads, widths, numeric)
    lines.append("─" * min(console.width, sum(widths.values()) + 2 * (len(widths) - 1)))
    for row in cells:  # a text cell longer than its column folds onto more lines
        folded = {
            key: [row[key]] if len(row[key]) <= widths[key] else textwrap.wrap(row[key], widths[key]) or [""]
            for key in shown
        }
        for line in range(max(len(parts) for parts in folded.values())):
            lines.append(
                _line(
                    [
                        (parts[line] if line < len(parts) else "", widths[key], key in numeric)
                        for key, parts in folded.items()
                    ]
                )
            )
    if left_out:
        lines += textwrap.wrap(
            f"left out at this width: {', '.join(left_out)} (--csv and --json give every column)", console.width
        )
    return "\n".join(lines) + "\n"


def _heading_lines(heads: dict[str, list[str]], widths: dict[str, int], numeric: list[str]) -> list[str]:
    """The headings' lines: each heading's words, a word a line where split, bottom-aligned over its column."""
    depth = max(len(words) for words in heads.values())
    return [
        _line(
            [
                (words[line - depth + len(words)] if line >= depth - len(words) else "", widths[key], key in numeric)
                for key, words in heads.items()
            ]
        )
        for line in range(depth)
    ]


def _line(cells: list[tuple[str, int, bool]]) -> str:
    """One line of a table: each (text, width, numeric) cell padded to its width, two spaces between cells."""
    return "  ".join(text.rjust(width) if numeric else text.ljust(width) for text, width, numeric in cells).rstrip()


def _print_reach(opened: Store, job: str | None, as_json: bool, as_csv: bool) -> int:
    """The board-size study: per rule, first failure and success by range of m; then the claims judged."""
    from knight.report.reach import judge_claims, reach_by_rule, side_ranges

    by_rule = reach_by_rule(opened.tours(job, drawn_up_to=0))
    if not by_rule:
        fail(
            "the store has no board-size study (warnsdorff from the corner of m x m boards); "
            "run `knight run board-sizes` first"
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
    if as_json:  # the rates as a list: the keys of a rule do not depend on how far the study went
        rules = [
            {
                **{key: value for key, value in row.items() if not key.startswith("rate_")},
                "rates": [{"low": a, "high": b, "rate": row[f"rate_{a}_{b}"]} for a, b in ranges],
            }
            for row in rows
        ]
        print_json({"job": job, "rules": rules, "claims": claims})
        return 0
    if as_csv:
        writer = csv.DictWriter(sys.stdout, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        return 0
    _print_reach_tables(rows, ranges, claims)
    return 0


def _print_reach_tables(
    rows: Sequence[Mapping[str, object]], ranges: list[tuple[int, int]], claims: list[dict[str, object]]
) -> None:
    """The board-size study on the terminal: how far each rule goes, then the literature's claims judged."""
    from rich.table import Table

    console = _console()
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
