"""Checking a submission: verdict, errors, the homework's rule, and which of our methods made it.

Steps are numbered by the student's counters: step k is the move from the square numbered k to the
next one. The *first error step* is the first step that goes wrong — an illegal move, a move off the
board, onto a square already visited, or onto a number written twice or missing.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TypedDict

from knight.engine import Board, InvalidInput
from knight.engine.board import HORIZONTAL, VERTICAL, Square, is_knight_move
from knight.engine.parameters import Params, ParamValue
from knight.engine.tour import Tour
from knight.grading.formats import MAX_BOARD_SQUARES, Submission, square_name

__all__ = [
    "SEEDS",
    "BACKTRACK_BUDGET",
    "REPRODUCE_UP_TO",
    "FULL",
    "PARTIAL",
    "NOT_A_TOUR",
    "UNREADABLE",
    "Check",
    "CheckReport",
    "check",
    "assigned_start",
    "unreadable_report",
]

#: Random tie-breaks (Warnsdorff's random ties, the random walk) are tried with these seeds.
SEEDS = range(100)
#: Node budget of each backtracking search tried when looking for the method that made a tour.
BACKTRACK_BUDGET = 20_000
#: Boards larger than this (squares) are not searched for the method that made the tour.
REPRODUCE_UP_TO = 2_500

FULL, PARTIAL, NOT_A_TOUR = "full", "partial", "not a tour"
#: The verdict of a file that cannot be read (``knight check --json``; the gradebook's row).
UNREADABLE = "unreadable"
#: Said of a full open tour where a closed one was asked for.
OPEN_NOT_CLOSED = "an open tour, a closed one assigned"


class Repeated(TypedDict):
    """A square listed more than once, with the numbers it carries."""

    square: list[int]
    numbers: list[int]


class OffBoard(TypedDict):
    """A number written on a square off the board."""

    number: int
    square: list[int]


class CheckReport(TypedDict):
    """:meth:`Check.to_dict`: a check as JSON (``knight check --json``, the gradebook), squares as [row, col]."""

    format: str
    board: list[int]
    notes: list[str]
    verdict: str
    summary: str
    length: int
    closed: bool
    first_error_step: int | None
    errors: list[str]
    repeated: list[Repeated]
    off_board: list[OffBoard]
    unvisited: list[list[int]]
    rule_followed: bool | None
    rule_broken_at: int | None
    rule_allowed: list[list[int]]
    reproduced_by: str | None
    reproduce_note: str
    assigned: bool | None
    assigned_note: str
    closed_assigned: bool
    passed: bool
    legal_prefix: int
    advice: str


@dataclass
class Check:
    """What :func:`check` finds in a submission (see the module's docstring for step numbers)."""

    submission: Submission
    verdict: str  # FULL, PARTIAL or NOT_A_TOUR
    length: int  # squares listed
    closed: bool
    first_error_step: int | None
    errors: list[str]  # every error found, the first one first
    illegal: str | None  # the first illegal move, as a sentence
    repeated: dict[Square, list[int]]  # square -> the numbers it carries
    off_board: list[tuple[int, Square]]
    unvisited: list[Square]
    rule_followed: bool | None  # None when there was no choice to check
    rule_broken_at: int | None = None
    rule_allowed: list[Square] = field(default_factory=list)
    rule_chosen: Square | None = None
    reproduced_by: str | None = None
    reproduce_note: str = ""
    assigned: bool | None = None  # the assigned board and start (None: none was given)
    assigned_note: str = ""
    closed_assigned: bool = False  # a closed tour was asked for

    @property
    def passed(self) -> bool:
        """The verdict on the assignment (``knight check``'s exit status 0): a full tour, of the assigned board from
        the assigned start when they were given, closed when a closed tour was asked for."""
        return self.verdict == FULL and self.assigned is not False and (self.closed or not self.closed_assigned)

    @property
    def legal_prefix(self) -> int:
        """How many squares the submission lists before its first error: its longest legal prefix (every square
        when it has no error). The rubric credits these squares (:func:`knight.grading.rubric.score`)."""
        squares, labels = self.submission.squares, self.submission.labels
        if self.first_error_step is None:
            return len(squares)
        if not squares or not self.board.contains(squares[0]):
            return 0
        return sum(1 for label in labels if label <= self.first_error_step)

    @property
    def rule_steps(self) -> int:
        """The steps of the legal prefix taken before the first one that breaks the lowest-degree rule."""
        legal_steps = max(self.legal_prefix - 1, 0)
        if self.rule_followed is False and self.rule_broken_at is not None:
            return min(self.rule_broken_at - 1, legal_steps)
        return legal_steps

    @property
    def board(self) -> Board:
        return self.submission.board

    @property
    def start(self) -> Square:
        return self.submission.squares[0]

    def name(self, square: Square) -> str:
        return square_name(self.board, square)

    def summary(self) -> str:
        """The verdict in a few words: 'full tour, closed', 'partial tour of 40 squares', 'not a tour'."""
        if self.verdict == FULL:
            return f"full tour, {'closed' if self.closed else 'open'}"
        if self.verdict == PARTIAL:
            return f"partial tour of {self.length} of {self.board.size} squares"
        return "not a tour"

    @property
    def wrong_exercise(self) -> bool:
        """Another exercise than the one assigned: another board or start, or an open tour where a closed one was
        asked for (:attr:`assigned_note` says which)."""
        return self.assigned is False or (self.closed_assigned and self.verdict == FULL and not self.closed)

    def exercise_note(self) -> str:
        """The verdict on the assignment in one line: passed or not, and why."""
        if self.wrong_exercise:
            return "not passed: " + self.assigned_note
        if not self.passed:
            return "not passed: " + self.summary()
        return f"passed: a full {'closed ' if self.closed_assigned else ''}tour of the assigned exercise"

    def advice(self) -> str:
        """One sentence on what to fix."""
        if self.verdict == NOT_A_TOUR:
            return (
                f"Fix this first: {self.errors[0]}; every step must be a knight move to a square on the "
                "board not yet visited, and every number from 1 to the last written once."
            )
        if self.verdict == PARTIAL:
            return (
                f"The tour stops after {self.length} squares with {len(self.unvisited)} unvisited; "
                "if the program got stuck it should say so, otherwise let it run to the end."
            )
        if self.assigned is False:
            return (
                f"A full tour, but {self.assigned_note}; run the program on the assigned board from the assigned "
                "start square."
            )
        if self.closed_assigned and not self.closed:
            return "A full tour, but open: the assignment asks for a closed one (the last square a knight move from the first)."
        if self.rule_followed is False:
            return (
                f"A full tour, but step {self.rule_broken_at} does not take a square of lowest degree "
                f"(the rule allowed {', '.join(map(self.name, self.rule_allowed))}); check the degree count."
            )
        return "Nothing to fix: a full tour that follows the rule."

    def rule_sentence(self) -> str:
        """Whether the homework's rule was followed, in words."""
        if self.rule_followed is None:
            return "no choice to check"
        if self.rule_followed:
            if self.verdict == NOT_A_TOUR:
                return f"followed up to the first error (step {self.first_error_step})"
            return "followed at every step"
        assert self.rule_chosen is not None  # set whenever rule_followed is False
        return (
            f"not followed at step {self.rule_broken_at}: it went to {self.name(self.rule_chosen)}, "
            f"the rule allowed {', '.join(map(self.name, self.rule_allowed))}"
        )

    def to_dict(self) -> CheckReport:
        """JSON-ready data (squares as [row, col])."""
        return {
            "format": self.submission.format,
            "board": [self.board.n, self.board.m],
            "notes": self.submission.notes,
            "verdict": self.verdict,
            "summary": self.summary(),
            "length": self.length,
            "closed": self.closed,
            "first_error_step": self.first_error_step,
            "errors": self.errors,
            "repeated": [{"square": list(sq), "numbers": nums} for sq, nums in self.repeated.items()],
            "off_board": [{"number": k, "square": list(sq)} for k, sq in self.off_board],
            "unvisited": [list(sq) for sq in self.unvisited],
            "rule_followed": self.rule_followed,
            "rule_broken_at": self.rule_broken_at,
            "rule_allowed": [list(sq) for sq in self.rule_allowed],
            "reproduced_by": self.reproduced_by,
            "reproduce_note": self.reproduce_note,
            "assigned": self.assigned,
            "assigned_note": self.assigned_note,
            "closed_assigned": self.closed_assigned,
            "passed": self.passed,
            "legal_prefix": self.legal_prefix,
            "advice": self.advice(),
        }


def assigned_start(start: tuple[int, int] | None, board: Board | None = None) -> Square | None:
    """The assigned start square (--start ROW COL), refused when it is off the assigned ``board``, negative, or
    on no board a submission may be on (over :data:`~knight.grading.formats.MAX_BOARD_SQUARES` squares)."""
    if start is None:
        return None
    row, col = start
    if row < 0 or col < 0:
        raise InvalidInput(f"--start {row} {col} is off the board: rows and columns count from 0")
    if board is not None and not board.contains((row, col)):
        raise InvalidInput(
            f"--start {row} {col} is off the assigned {board} board; give a row from 0 to {board.n - 1} "
            f"and a column from 0 to {board.m - 1}"
        )
    if (row + 1) * (col + 1) > MAX_BOARD_SQUARES:
        raise InvalidInput(
            f"--start {row} {col} is on no board of at most {MAX_BOARD_SQUARES:,} squares (the largest graded)"
        )
    return row, col


def check(
    submission: Submission,
    *,
    board: Board | None = None,
    start: Square | None = None,
    closed: bool = False,
    reproduce: bool = True,
) -> Check:
    """Check ``submission``; with ``board``/``start``, also whether it is the assigned exercise, and with ``closed``
    whether it is the closed tour asked for (:attr:`Check.passed` is the verdict on the assignment)."""
    b = submission.board
    squares, labels = submission.squares, submission.labels
    errors: list[tuple[int, int, str]] = []  # (step, order, message)
    off_board: list[tuple[int, Square]] = []
    repeated: dict[Square, list[int]] = {}
    first_seen: dict[Square, int] = {}
    illegal: str | None = None
    for i, square in enumerate(squares):
        step = labels[i - 1] if i else 1
        if not b.contains(square):
            off_board.append((labels[i], square))
            errors.append((step, 0, f"step {step}: square {labels[i]} at {square} is off the {b} board"))
            continue
        if square in first_seen:
            repeated.setdefault(square, [first_seen[square]]).append(labels[i])
            errors.append(
                (
                    step,
                    2,
                    f"step {step}: square {square_name(b, square)} is visited twice "
                    f"(numbers {first_seen[square]} and {labels[i]})",
                )
            )
        else:
            first_seen[square] = labels[i]
        if i and b.contains(squares[i - 1]) and not is_knight_move(squares[i - 1], square):
            message = f"step {step}: {square_name(b, squares[i - 1])} → {square_name(b, square)} is not a knight move"
            illegal = illegal or message
            errors.append((step, 1, message))
    for step, message in submission.problems:
        errors.append((step, 3, f"step {step}: {message}"))
    errors.sort(key=lambda error: (error[0], error[1]))
    first_error = errors[0][0] if errors else None
    unvisited = [(r, c) for r in range(b.n) for c in range(b.m) if (r, c) not in first_seen]
    if errors:
        verdict = NOT_A_TOUR
    elif len(squares) == b.size:
        verdict = FULL
    else:
        verdict = PARTIAL
    is_closed = verdict == FULL and Tour.from_squares(b, squares, method="hand-in").closed
    result = Check(
        submission,
        verdict,
        len(squares),
        is_closed,
        first_error,
        [e[2] for e in errors],
        illegal,
        repeated,
        off_board,
        unvisited,
        None,
    )
    _rule(result)
    if reproduce and verdict != NOT_A_TOUR:
        _reproduce(result)
    result.closed_assigned = closed
    if board is not None or start is not None:
        _assigned(result, board, start)
    if closed and verdict == FULL and not result.closed:
        result.assigned_note = "; ".join(filter(None, [result.assigned_note, OPEN_NOT_CLOSED]))
    return result


def _rule(result: Check) -> None:
    """The homework's rule on the legal part of the path: each move to a square of lowest degree."""
    b = result.board
    squares = result.submission.squares
    labels = result.submission.labels
    end = len(squares)
    if not b.contains(squares[0]):
        return
    if result.first_error_step is not None:  # check the moves before the first error only
        end = next(i for i in range(1, len(squares) + 1) if labels[i - 1] >= result.first_error_step)
    visited = [[False] * b.m for _ in range(b.n)]
    n, m = b.n, b.m
    moves = list(zip(VERTICAL, HORIZONTAL))
    checked = False
    for i in range(end):
        r, c = squares[i]
        visited[r][c] = True
        if i + 1 >= end:
            break
        options = [
            (r + dr, c + dc) for dr, dc in moves if 0 <= r + dr < n and 0 <= c + dc < m and not visited[r + dr][c + dc]
        ]
        if len(options) < 2:
            continue
        degrees = [
            sum(1 for dr, dc in moves if 0 <= rr + dr < n and 0 <= cc + dc < m and not visited[rr + dr][cc + dc])
            for rr, cc in options
        ]
        low = min(degrees)
        allowed = [sq for sq, d in zip(options, degrees) if d == low]
        checked = True
        if squares[i + 1] not in allowed:
            result.rule_followed = False
            result.rule_broken_at = labels[i]
            result.rule_allowed = sorted(allowed)
            result.rule_chosen = squares[i + 1]
            return
    result.rule_followed = True if checked else None


# The paths of our methods' tours by (rows, cols, start, label), computed once per process.
_PATHS: dict[tuple[int, int, Square, str], tuple[int, ...]] = {}


def _specs() -> list[tuple[str, str, dict]]:
    """(description, method, parameters) of every tour tried: each method the grader tries
    (:attr:`~knight.engine.methods.Method.graded`), with every value of each parameter that has choices or is true
    or false, its budget :data:`BACKTRACK_BUDGET`, and the :data:`SEEDS` where its parameters take a seed; the
    likeliest first (the deterministic tours, then the seeded ones), in the engine's order of methods."""
    from knight.engine import METHODS

    specs: list[tuple[str, str, dict]] = []
    seeded: list[tuple[str, str, dict]] = []
    for method in METHODS.values():
        if not method.graded:
            continue
        axes: dict[str, list[ParamValue]] = {
            name: list(p.choice_names()) if p.choices else [False, True]
            for name, p in method.parameters.items()
            if p.choices or p.kind is bool
        }
        fixed: Params = {"budget": BACKTRACK_BUDGET} if "budget" in method.parameters else {}
        for values in itertools.product(*axes.values()):
            params: Params = {**dict(zip(axes, values)), **fixed}
            if method.seeded(params):
                seeded += [
                    (_described(method.label, {**params, "seed": s}), method.name, {**params, "seed": s}) for s in SEEDS
                ]
            else:
                specs.append((_described(method.label, params), method.name, params))
    return specs + seeded


def _described(label: str, params: dict) -> str:
    """``Warnsdorff (tie first)``, ``backtracking (closed, order warnsdorff)``: a method and its parameters."""
    said = [name if value is True else f"{name} {value}" for name, value in params.items() if value is not False]
    said = [text for text in said if not text.startswith("budget ")]
    return f"{label} ({', '.join(said)})" if said else label


def _candidates(board: Board, start: Square, follows_rule: bool, full: bool) -> Iterator[tuple[str, tuple[int, ...]]]:
    """Each (description, path) of our methods from ``start`` that could make the tour; cached.

    Warnsdorff's tours always follow the rule (tested), so they are skipped for a tour that does
    not; backtracking and Parberry only make full tours.
    """
    from knight.engine import METHODS, find_tour

    for label, method, params in _specs():
        if method == "warnsdorff" and not follows_rule:
            continue
        if METHODS[method].full_only and not full:
            continue
        key = (board.n, board.m, start, label)
        path = _PATHS.get(key)
        if path is None:
            try:
                tour = find_tour(board, start, method, **params)
            except InvalidInput:
                path = ()
            else:
                path = tuple(tour.path.tolist()) if not tour.budget_exhausted else ()
            _PATHS[key] = path
        yield f"{label} from {start}", path


def _reproduce(result: Check) -> None:
    b = result.board
    if b.size > REPRODUCE_UP_TO:
        result.reproduce_note = f"not tried: boards over {REPRODUCE_UP_TO:,} squares"
        return
    path = tuple(r * b.m + c for r, c in result.submission.squares)
    for label, candidate in _candidates(b, result.start, result.rule_followed is not False, result.verdict == FULL):
        if candidate == path:
            result.reproduced_by = label
            result.reproduce_note = "reproduced exactly"
            return
    result.reproduce_note = (
        "none of our methods reproduces it (naive, static, Warnsdorff with every tie-break, "
        f"random ties and the random walk with seeds 0–{SEEDS[-1]}, Parberry, backtracking)"
    )


def _assigned(result: Check, board: Board | None, start: Square | None) -> None:
    notes = []
    ok = True
    if board is not None and board != result.board:
        ok = False
        notes.append(f"board {result.board}, assigned {board}")
    if start is not None and (start[0], start[1]) != result.start:
        ok = False
        notes.append(f"starts at {result.name(result.start)}, assigned {result.name((start[0], start[1]))}")
    result.assigned = ok
    result.assigned_note = "the assigned exercise" if ok else "not the assigned exercise: " + "; ".join(notes)


def unreadable_report(message: str, fmt: str | None = None) -> CheckReport:
    """The JSON of a file that cannot be read: the fields of :meth:`Check.to_dict`, verdict ``unreadable``, the
    reason as its one error, nothing passed (``knight check --json`` prints it too, exit status 2)."""
    return {
        "format": fmt or "",
        "board": [],
        "notes": [],
        "verdict": UNREADABLE,
        "summary": "unreadable",
        "length": 0,
        "closed": False,
        "first_error_step": None,
        "errors": [message],
        "repeated": [],
        "off_board": [],
        "unvisited": [],
        "rule_followed": None,
        "rule_broken_at": None,
        "rule_allowed": [],
        "reproduced_by": None,
        "reproduce_note": "",
        "assigned": None,
        "assigned_note": "",
        "closed_assigned": False,
        "passed": False,
        "legal_prefix": 0,
        "advice": f"Fix this first: {message}",
    }
