"""The marks of the marking scheme (:mod:`knight.report.scheme`): what each answer space is marked against, and a
marker per question that reads them from the question's answer (which field of the answer fills which box), the
other conventions' values and the common wrong answers with them."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from knight.engine import Board
from knight.engine.theory import closed_tour_verdict, colour_counts
from knight.report.questions import questions
from knight.report.text import board_text, power_of_ten, scientific

__all__ = ["MARKERS", "Accepted", "Mark", "Marker", "Wrong"]


@dataclass(frozen=True)
class Accepted:
    """A value marked right under another convention than the key's first one, and which."""

    value: str
    convention: str


@dataclass(frozen=True)
class Wrong:
    """A wrong answer students give, and its cause."""

    value: str
    cause: str


@dataclass(frozen=True)
class Mark:
    """What one answer space is marked against: the key's value (``expected``: a number as the key prints it, yes or
    no, open or closed, or the points of a written answer), what the key says with it (``note``), the other
    conventions' values and the usual mistakes. ``own``: the box holds the student's own estimate or measurement:
    any honest value earns the mark, and ``expected`` is the key's figure to compare it with ("" where the key has
    none, as for an estimate made before starting)."""

    expected: str
    note: str = ""
    accepted: tuple[Accepted, ...] = ()
    wrong: tuple[Wrong, ...] = ()
    own: bool = False


#: A question's marker: from its answer (and the key's context: its errata), each box's mark by (part, box).
Marker = Callable[[Any, Mapping[str, Any]], dict[tuple[int, int], Mark]]


# --- the markers: which field of each answer fills which box ---------------------------------------------------


def _n(value: float) -> str:
    """A count as the key writes it: thousands separated."""
    return f"{value:,}"


def _mark(
    expected: object,
    accepted: Iterable[tuple[object, str]] = (),
    wrong: Iterable[tuple[object, str]] = (),
    *,
    note: str = "",
    own: bool = False,
) -> Mark:
    return Mark(
        str(expected),
        note,
        tuple(Accepted(str(v), c) for v, c in accepted),
        tuple(Wrong(str(v), c) for v, c in wrong),
        own,
    )


def _yes(value: bool) -> str:
    return "yes" if value else "no"


def _deitel_by_hand(a: Any, _: Mapping[str, Any]) -> dict[tuple[int, int], Mark]:
    walks = a.random
    typical = f"a random knight numbers {walks.about} (median of {walks.runs:,} walks, {walks.min}–{walks.max})"
    return {
        (0, 0): _mark("", wrong=[("more than 64", "the board has 64 squares")], note="an estimate, 1 to 64", own=True),
        (1, 0): _mark(
            walks.about,
            [("one less", "moves made, not squares numbered (the counter's 1 is the start)")],
            [("more than 64", "the board has 64 squares")],
            note=f"the squares numbered by hand, shown on the board; {typical}",
            own=True,
        ),
        (2, 0): _mark(
            f"compares the estimate with the count, and with chance: {typical}; the first-legal-move knight "
            f"{a.naive.about} (median of its {a.naive.runs} starts)",
            own=True,
        ),
    }


def _deitel_naive(a: Any, _: Mapping[str, Any]) -> dict[tuple[int, int], Mark]:
    m = a.moves
    return {
        (0, 0): _mark(
            a.corner_moves,
            [(a.corner_squares, "squares numbered, the counter's last value (the start counted)")],
            [(63, "a full tour assumed, not run"), (m.max, "the longest run from any start, not from (0, 0)")],
        ),
        (1, 0): _mark(
            _yes(m.full > 0),
            wrong=[("yes", "a long run taken for a full tour: a full tour makes 63 moves")] if not m.full else [],
            note=f"{m.min}–{m.max} moves from the {m.starts} starts; the grid: the squares each start reached",
        ),
    }


def _deitel_heuristic(a: Any, _: Mapping[str, Any]) -> dict[tuple[int, int], Mark]:
    def full_corners(failed: Iterable[tuple[int, int]]) -> str:
        failing = set(failed)
        return ", ".join(f"({r}, {c})" for r, c in (c.start for c in a.corners) if (r, c) not in failing) or "none"

    any_tie = "(the exercise lets the knight take any tied square)"
    return {
        (0, 0): _mark(
            a.answer.lower(),
            [(r.answer.lower(), f"ties: {r.tie} {any_tie}") for r in a.rules],
            [("no", "the table not updated as squares are used: that is A4b's static table")] if a.corner.full else [],
            note=f"the tour from (0, 0) visits {a.corner.length} of 64 squares",
        ),
        (1, 0): _mark(
            full_corners(c.start for c in a.corners if not c.full),
            [
                (full_corners(f.start for f in r.failures), f"ties: {r.tie} {any_tie}")
                for r in a.rules
                if r.corner_runs == len(a.corners) and r.runs == 1  # one run a corner: no random seeds
            ],
        ),
    }


def _deitel_64(a: Any, _: Mapping[str, Any]) -> dict[tuple[int, int], Mark]:
    updated, static, static6 = a.updated, a.static, a.static6
    others = [
        (r.summary.full, r.name) for r in a.rules if r.name.startswith("updated, ties") and "random" not in r.name
    ]
    return {
        (0, 0): _mark(
            updated.full,
            others,
            [(static.full, "the table never updated (that is part b)"), (64, "every start assumed to give a tour")],
            note=f"fails from {a.updated_failing}" if a.updated_failures else "",
        ),
        (1, 0): _mark(static.full, wrong=[(updated.full, "the table updated as squares are used (part a)")]),
        (1, 1): _mark(static6.full, wrong=[(static6.starts, "every start assumed to give a tour")]),
    }


def _homework_program(a: Any, _: Mapping[str, Any]) -> dict[tuple[int, int], Mark]:
    other = getattr(a, "other_failures", None)
    failing = f" ({a.failing})" if a.failing else ""
    return {
        (0, 0): _mark(
            f"the numbered array from (0, 0): a {a.kind} tour, 1 to {a.length}; it fails from {a.failures} of the 25 "
            f"starts{failing}, printing the partial tour and a failure message",
            [(f"fails from {other} of the 25 starts", "Deitel's move order")] if other is not None else [],
            [("no failure message", "a partial tour printed as if it were a tour")],
            note="a square never visited: '.' as homework8.py prints it, 0 as Deitel's and the blog's scripts do",
        )
    }


def _kinds(full: int, closed: int) -> str:
    """The full tours' kind, as the open/closed ticks answer it."""
    if not full:
        return "none full"
    return "open" if closed == 0 else "closed" if closed == full else "open and closed"


#: How the scheme names Deitel's move order where a homework answer gives it beside the homework's own.
DEITEL_ORDER = "Deitel's move order (ties to the lowest move number)"


def _homework_board(a: Any, _: Mapping[str, Any]) -> dict[tuple[int, int], Mark]:
    question = next(q for q in questions() if q.id == f"homework-{a.size}x{a.size}")
    s, other = a.summary, getattr(a, "other", None)
    marks: dict[tuple[int, int], Mark] = {}
    for k, part in enumerate(question.parts):
        if part.space == "yes-no":
            marks[k, 0] = _mark(
                _yes(a.always),
                [(_yes(other.full == other.runs), DEITEL_ORDER)] if other is not None else [],
                note=f"a full tour from {s.full} of the {s.runs} starts",
            )
        elif part.space == "number" and not part.boxes:
            everywhere, other_all = a.everywhere, getattr(a, "other_everywhere", None)
            marks[k, 0] = _mark(
                everywhere.full,
                [(other_all.full, DEITEL_ORDER)] if other_all is not None else [],
                [(everywhere.runs, "every start assumed to give a tour")]
                + (
                    [(everywhere.runs - everywhere.full, "the starts it fails from, not those it finds a tour from")]
                    if everywhere.full != everywhere.runs
                    else []
                ),
            )
        elif part.space == "open-closed":
            marks[k, 0] = _mark(
                _kinds(s.full, s.closed),
                [(_kinds(other.full, other.closed), DEITEL_ORDER)] if other is not None else [],
                [("closed", f"{board_text(a.size)} has an odd number of squares: no closed tour")]
                if a.odd
                else [("closed", "a full tour taken for a closed one: its last square must be a move from its first")],
                note=f"{s.closed} of the {s.full} full tours closed",
            )
        elif part.space == "number":
            fields = ("distinct_directed", "distinct_undirected", "distinct_symmetric")
            mistakes = (
                [(s.full, "runs counted, not different tours")],
                [(s.distinct_directed, "a tour and its reversal counted apart")],
                [(s.distinct_undirected, f"the {a.symmetries} rotations and reflections counted apart")],
            )
            for rank, name in enumerate(fields):
                marks[k, rank] = _mark(
                    _n(getattr(s, name)),
                    [(_n(getattr(other, name)), DEITEL_ORDER)] if other is not None else [],
                    mistakes[rank],
                )
    return marks


def _homework_starts(a: Any, _: Mapping[str, Any]) -> dict[tuple[int, int], Mark]:
    five, rest = a.maps[0], a.maps[1:]
    big, small = colour_counts(Board(5, 5))
    everywhere = all(m.found == m.squares for m in rest)
    return {
        (0, 0): _mark(
            five.found,
            wrong=[(five.squares, "every square assumed"), (small, "the smaller colour ringed instead of the larger")],
        ),
        (1, 0): _mark(
            f"colours: a tour of 25 squares alternates colours, {big} of one and {small} of the other, so it starts on "
            f"the {big}-square colour; the {five.none} squares of the other colour start none"
        ),
        (2, 0): _mark(
            _yes(everywhere),
            wrong=[("no", "the colour argument applied to an even board: it has as many squares of each colour")],
            note=", ".join(f"{m.board} from {m.found} of {m.squares}" for m in rest)
            + "; each has a closed tour, which can be walked from any of its squares",
        ),
    }


def _eiffel_first(a: Any, _: Mapping[str, Any]) -> dict[tuple[int, int], Mark]:
    def nodes(order: str, size: int) -> str | None:
        found = next((t.nodes for t in a.first_tours if t.order == order and t.size == size), None)
        if found is not None:
            return _n(found)
        lost = next((g.nodes for g in a.given_up if g.order == order and g.size == size), None)
        return None if lost is None else f"stops (none within {_n(lost)})"

    marks: dict[tuple[int, int], Mark] = {}
    for rank, size in enumerate((5, 6, 8)):
        expected = nodes("Deitel's", size)
        if expected is None:
            continue
        wirth = nodes("Wirth's", size)
        found = next((t.nodes for t in a.first_tours if t.order == "Deitel's" and t.size == size), None)
        marks[0, rank] = _mark(
            expected,
            [(wirth, "Wirth's move order (the Eiffel text's own; its row and column not printed)")] if wirth else [],
            [(_n(found - 1), "the start square not counted (the ask counts it as the first)")] if found else [],
        )
    five = a.five
    marks[1, 0] = _mark(
        five.found,
        wrong=[(five.starts, "every start assumed: the search proves none from the smaller colour")]
        + ([(five.proven_none, "the starts proved to have none, not those with a tour")] if five.proven_none else []),
        note=f"{five.proven_none} proved to have none",
    )
    return marks


#: The convention a count of directed tours halves under.
UNDIRECTED = "each tour counted once, not in both directions"


def _eiffel_all(a: Any, _: Mapping[str, Any]) -> dict[tuple[int, int], Mark]:
    five = next((b for b in a.boards if b.board == board_text(5)), None)
    marks: dict[tuple[int, int], Mark] = {}
    if five is not None:
        marks[0, 0] = _mark(
            _n(five.total),
            [(_n(five.undirected), UNDIRECTED)] if five.undirected else [],
            [(_n(five.found), "only the tours the heuristics found")],
        )
        if five.corner is not None:
            marks[0, 1] = _mark(_n(five.corner), [(_n(five.corner // 2), UNDIRECTED)])
        if five.homework_rule is not None:
            deitel = getattr(five, "deitel_order", None)
            marks[2, 0] = _mark(
                _n(five.homework_rule),
                [(_n(deitel), DEITEL_ORDER)] if deitel is not None else [],
                [(25, "runs counted, not different tours")],
            )
    six = next((c.tours for c in a.counts if (c.n, c.m, c.closed) == (6, 6, False)), None)
    cited = next((c.tours for c in a.literature if (c.n, c.m, c.closed) == (6, 6, False)), None)
    tours = six if six is not None else cited
    if tours is not None:
        marks[1, 0] = _mark(_n(tours), [(_n(tours // 2), UNDIRECTED)], note="" if six else "the literature's count")
    return marks


def _eiffel_closed(a: Any, _: Mapping[str, Any]) -> dict[tuple[int, int], Mark]:
    marks = {
        (0, 0): _mark(
            " and ".join(a.even_sizes),
            wrong=[(board_text(5), "an odd board: a closed tour alternates colours, so needs as many of each")],
            note=f"boards with an even number of squares; never {board_text(5)}",
        )
    }
    six = next((b for b in [*a.boards, *a.literature] if b.board == board_text(6)), None)
    if six is not None:
        accepted = [(_n(six.cycles * 2 * 36), "as sequences: each cycle from each of its 36 squares, both ways")]
        if six.symmetric:
            accepted.append((_n(six.symmetric), "up to the board's 8 rotations and reflections"))
        marks[1, 0] = _mark(_n(six.cycles), accepted, [(_n(six.cycles * 2), "each cycle counted in both directions")])
    return marks


def _eiffel_colours(a: Any, _: Mapping[str, Any]) -> dict[tuple[int, int], Mark]:
    verdict = closed_tour_verdict(Board(5, 5))
    return {
        (0, 0): _mark(
            f"no: only from the {a.majority} squares of the larger colour; a tour of 25 squares alternates colours, "
            f"starting and ending on the larger",
            wrong=[("yes", f"the colours not counted: {a.majority} and {a.minority} squares")],
            note=f"full tours: {a.runs_in_words()}",
        ),
        (1, 0): _mark(
            _yes(bool(verdict.exists)),
            wrong=[("yes", "a closed tour's cycle alternates colours, so it has as many squares of each")],
            note=verdict.reason,
        ),
    }


def _eiffel_corners(a: Any, _: Mapping[str, Any]) -> dict[tuple[int, int], Mark]:
    even = [b for b in a.boards if not b.odd]
    odd = [b for b in a.boards if b.odd]
    found = [f"{b.board}: {_n(b.total)} tours" for b in odd if b.total] + [
        f"{s.board}: {s.tried}" for s in a.odd_found if s.found
    ]
    return {
        (0, 0): _mark(
            _yes(any(b.total for b in even)),
            wrong=[("yes", "the colours not counted")],
            note="the two corners removed are of one colour, leaving two squares more of the other; our runs: "
            + ", ".join(f"{b.board} {_n(b.total)} tours" for b in even),
        ),
        (1, 0): _mark(
            _yes(bool(found)),
            wrong=[("no", "the even board's colour argument applied to an odd one: the colours balance")]
            if found
            else [],
            note="; ".join(found) if found else "none found",
        ),
    }


def _eiffel_parberry(a: Any, _: Mapping[str, Any]) -> dict[tuple[int, int], Mark]:
    shown, join = a.shown, a.join
    swapped = f" ({join.board}: {len(join.removed)} moves out, {len(join.added)} in)" if join is not None else ""
    return {
        (0, 0): _mark(
            "at the centre, take out one corner move of each quarter tour and put in four knight moves between the "
            f"quarters{swapped}; the outer corners are untouched, so the join property holds again"
        ),
        (1, 0): _mark(
            _yes(shown.closed and shown.corner_moves == shown.of),
            note=f"the {shown.board} tour is {'closed' if shown.closed else 'open'}, with {shown.corner_moves} of "
            f"{shown.of} corner moves",
        ),
    }


def _blog_wozniak(a: Any, _: Mapping[str, Any]) -> dict[tuple[int, int], Mark]:
    power = math.log10(a.eight.node_mean)
    guesses = [(d, round(p)) for d, p in a.guesses]
    implied_d, implied_power = f"{a.branching:.1f}", power_of_ten(power)  # d ** 63 is Knuth's estimate
    d_also = [(d, "a round guess") for d, _ in guesses]
    power_also = [(power_of_ten(p), f"d = {d}") for d, p in guesses]
    if a.choices:  # the key's back of the envelope (D1's program): the choices along a path, averaged two ways
        low, high = a.choices.powers
        d, tree = f"{a.choices.geometric:.1f}–{a.choices.mean:.1f}", f"{power_of_ten(low)}–{power_of_ten(high)}"
        note = "the unvisited squares a move away along a path, averaged two ways, as the key counts them"
        d_also.insert(0, (implied_d, "the d whose 63rd power is the tree's size (D1b)"))
        power_also.insert(0, (implied_power, "the tree's size, Knuth's estimate (D1b)"))
    else:
        d, tree, note = implied_d, implied_power, "the d whose 63rd power is the tree's size"
    return {
        (0, 0): _mark(d, d_also, [(8, "every move counted, visited squares too")], note=note, own=True),
        (0, 1): _mark(
            tree,
            power_also,
            [(power_of_ten(a.sequences_log), "8 choices at every move, visited squares too")],
            note="d to the 63rd power, to a power of ten",
            own=True,
        ),
        (1, 0): _mark(scientific(a.eight.node_mean, 2), [(power_of_ten(power), "to an order of magnitude")]),
        (2, 0): _mark(scientific(a.rate), note="the student's own timing; the key's machine", own=True),
        (2, 1): _mark(scientific(a.years), note="from the student's own rate; the key's", own=True),
        (3, 0): _mark(
            _yes(a.agree),
            note=f"about {scientific(a.years)} years against the blog's {power_of_ten(a.claim_log)}",
        ),
    }


def _blog_example(a: Any, _: Mapping[str, Any]) -> dict[tuple[int, int], Mark]:
    share = a.random_full / a.random_runs if a.random_runs else 0
    return {
        (0, 0): _mark(
            a.answer.lower(),
            [(_yes(not a.full), "the student's own random start decides")],
            note=f"from the key's start {a.start}; with random ties {share:.0%} of runs are full "
            f"({a.random_full} of {a.random_runs})",
            own=True,
        )
    }


def _blog_past_50(a: Any, _: Mapping[str, Any]) -> dict[tuple[int, int], Mark]:
    return {
        (0, 0): _mark(
            f"{a.first}" if a.first else f"none up to {a.largest}",
            wrong=[(51, "the blog's claim taken as the answer, not run")],
        ),
        (1, 0): _mark(
            _yes(a.verdict == "agree"),
            [(_yes(a.verdict != "agree"), f"with another tie-break, said which: {a.by_rule}")]
            if 0 < a.agreeing_count < a.judged
            else [],
            note=f"with ties by move order; {a.by_rule}",
        ),
    }


def _blog_w_plus(a: Any, _: Mapping[str, Any]) -> dict[tuple[int, int], Mark]:
    rows = {r.name.split(" ")[0]: r for r in a.rows}
    marks: dict[tuple[int, int], Mark] = {}
    if a.rows:
        marks[0, 0] = _mark(a.rows[0].plain_full, note=f"of the {a.rows[0].sides} sides 51–{a.largest}")
    for rank, name in ((1, "W+"), (2, "W2")):
        if name in rows:
            marks[0, rank] = _mark(rows[name].full)
    marks[1, 0] = _mark(
        "; ".join(f"{r.name}: {r.full} of {r.sides} (plain {r.plain_full}), our runs {r.verdict}" for r in a.rows)
    )
    return marks


#: The blog-ties boxes' captions (questions.toml) and the tie-break each asks about.
TIE_CAPTIONS = {"random, mean of 10 seeds": "random", "Roth": "roth"}


def _blog_ties(a: Any, _: Mapping[str, Any]) -> dict[tuple[int, int], Mark]:
    question = next(q for q in questions() if q.id == "blog-ties")
    rates = {c.tie: c for c in a.comparison}
    marks: dict[tuple[int, int], Mark] = {}
    for rank, caption in enumerate(question.parts[0].boxes):
        rate = rates.get(TIE_CAPTIONS.get(caption, caption))
        if rate is None:
            continue
        seeds = rate.summary.runs / max(rate.summary.starts, 1)
        if seeds == 1:
            marks[0, rank] = _mark(_n(rate.summary.full))
        else:
            mean = rate.rate * rate.summary.starts
            marks[0, rank] = _mark(  # random ties: another generator or other seeds give another mean
                f"{mean:.1f}",
                [(round(mean), "rounded")],
                [(_n(rate.summary.full), f"the {seeds:.0f} seeds added, not their mean")],
                note=f"the mean of the student's own {seeds:.0f} seeds; the key's, from its seeds",
                own=True,
            )
    marks[1, 0] = _mark(" and ".join(c.tie for c in a.best), note=f"{a.best_rate:.0%} of the 64 starts")
    return marks


def _blog_script(a: Any, context: Mapping[str, Any]) -> dict[tuple[int, int], Mark]:
    notes = context.get("errata", {}).get("blog-script", [])
    stops = [s for note in notes for s in note.steps if s.error]
    return {
        (0, 0): _mark(
            _yes(not stops),
            wrong=[("yes", "run under Python 2 with its indentation guessed: say so")] if stops else [],
            note=(f"python3 stops: {stops[0].error}; " if stops else "")
            + "restore the indentation, then Python 3's print() and range, and the imports",
        ),
        (1, 0): _mark(a.complete, wrong=[(64, "every start assumed to complete")]),
        (2, 0): _mark(
            f"{a.first_failure}" if a.first_failure else f"none up to {a.largest}",
            wrong=[(51, "the blog's m = 50 claim taken as the answer")],
        ),
    }


#: Each question's marker, by its id in questions.toml.
MARKERS: dict[str, Marker] = {
    "deitel-by-hand": _deitel_by_hand,
    "deitel-naive": _deitel_naive,
    "deitel-heuristic": _deitel_heuristic,
    "deitel-64-tours": _deitel_64,
    "homework-program": _homework_program,
    "homework-5x5": _homework_board,
    "homework-6x6": _homework_board,
    "homework-8x8": _homework_board,
    "homework-starts": _homework_starts,
    "eiffel-first": _eiffel_first,
    "eiffel-all": _eiffel_all,
    "eiffel-closed": _eiffel_closed,
    "eiffel-colours": _eiffel_colours,
    "eiffel-corners": _eiffel_corners,
    "eiffel-parberry": _eiffel_parberry,
    "blog-wozniak": _blog_wozniak,
    "blog-example": _blog_example,
    "blog-past-50": _blog_past_50,
    "blog-w-plus": _blog_w_plus,
    "blog-ties": _blog_ties,
    "blog-script": _blog_script,
}
