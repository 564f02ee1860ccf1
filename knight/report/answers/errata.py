"""The documents' own errors, and the damage done to our copies, each at the question it bears on.

An *erratum* is the authors': a claim that is wrong or imprecise, or a script that does not run as printed. It
comes with its evidence, computed here from the stored results or by running the script as printed, and its
correction. A *damaged copy* note says what our copy of a document lost in transcription (the Eiffel text's OCR, the
blog script's indentation) and how the key reads it. A note on a document's *count* is no error: a claim true in the
document's own terms (Deitel and the Eiffel text number the start square as the first move), said in the key's. An erratum whose evidence the store lacks, or whose evidence
does not bear it out, is left out.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass, field

from knight.engine import Board
from knight.engine.theory import colour_counts
from knight.errors import MissingData
from knight.report.answers.common import StoreData
from knight.report.answers.homework import OTHER_ORDER, OWN_TIE
from knight.report.listings import Run, highlight, program_text, run_source
from knight.report.questions import labels

__all__ = ["COUNT", "DAMAGED", "ERRATUM", "Erratum", "Step", "errata", "reindented"]

ERRATUM, DAMAGED, COUNT = "erratum", "damaged copy", "the document's count"
#: The blog's script: as our copy prints it, and with the smallest change that makes it run.
AS_PRINTED, MADE_TO_RUN = "blog_script_as_printed.txt", "warnsdorff_blog.py"
#: The name the script runs under, as the interpreter's messages give it.
SCRIPT_NAME = "blog_script.py"
#: The seed of the blog script's random start in the runs shown (the same as its listing's).
SEED = 2014


@dataclass(frozen=True)
class Step:
    """One run of a script on the way from the text as printed to one that runs: what was changed, and where
    (the line's number and text) and how the interpreter stopped ('' when the script ran to its end)."""

    change: str
    line: int | None
    text: str
    error: str

    @classmethod
    def of(cls, change: str, run: Run, source: str) -> Step:
        lines = source.splitlines()
        line = run.error_line
        return cls(change, line, lines[line - 1].strip() if line and line <= len(lines) else "", run.error)


@dataclass(frozen=True)
class Erratum:
    """A note at a question: an error of the document's authors (``erratum``), damage to our copy (``damaged
    copy``) or a claim true in the document's own count (``the document's count``): the document's words, what is
    wrong or how it counts, the evidence, the correction (or the claim in the key's terms)."""

    question: str
    kind: str
    claim: str
    finding: str
    fix: str
    code: str = ""  # a correction that is a line of code, shown as code after ``fix``
    steps: list[Step] = field(default_factory=list)
    diff: str = ""  # a script's correction as a highlighted unified diff


def errata(data: StoreData) -> dict[str, list[Erratum]]:
    """Every note, by the question it is shown at, in the order of :data:`NOTES`."""
    found: dict[str, list[Erratum]] = {}
    for note in NOTES:
        try:
            made = note(data)
        except MissingData:
            continue
        for erratum in made:
            found.setdefault(erratum.question, []).append(erratum)
    return found


def full_tour_moves(data: StoreData) -> list[Erratum]:
    """Deitel: "a full tour consists of 64 moves": true in its count (its counter's 1 is the start square); a full
    tour numbers 64 squares, 63 moves apart."""
    tours = data.results.by_start("warnsdorff", 8, 8, tie="first")
    full = [r for r in tours.values() if r.full]
    if not full:
        raise MissingData("no full tour of 8 x 8")
    shown = tours.get((0, 0), full[0]) if tours.get((0, 0), full[0]).full else full[0]
    closed = sum(r.closed for r in full)
    number = labels()
    return [
        Erratum(
            question="deitel-by-hand",
            kind=COUNT,
            claim="remembering that a full tour consists of 64 moves",
            finding=(
                "The exercise counts the start square as the first move (its counter's 1), the Eiffel text does "
                f"the same ({number['eiffel-colours']}): in that count the claim holds. In this key a move takes "
                f"the knight from one square to the next: a full tour numbers {shown.length} squares, so it makes {shown.length - 1} moves (the tour of "
                f"{number['deitel-heuristic']} from {shown.start}: 1 to {shown.length}); a {shown.length}th move, "
                f"back to the start, exists only for a closed tour ({closed} of the {len(full)} full tours of "
                f"{number['deitel-64-tours']})."
            ),
            fix=f"“a full tour consists of {shown.length - 1} moves” (it visits all {shown.length} squares).",
        )
    ]


def occasionally(data: StoreData) -> list[Erratum]:
    """Homework #8: the heuristic "will usually find a tour, but may occasionally fail". Not on 5 x 5: in the
    homework's own move order (tie-break ``homework``), with Deitel's order beside when the store has it."""
    failures = {}
    for side in (5, 6, 8):
        runs = data.results.by_start("warnsdorff", side, side, tie=OWN_TIE)
        failures[side] = ([r for r in runs.values() if not r.full], len(runs))
    failed, starts = failures[5]
    if 2 * len(failed) <= starts:
        return []  # it does usually find one: nothing to correct
    board = Board(5, 5)
    no_tour = sum(board.colour(r.start) == board.minority_colour() for r in failed)
    others = ", ".join(f"{len(f)} of {s} on {side} × {side}" for side, (f, s) in failures.items() if side != 5)
    deitel = data.results.select("warnsdorff", 5, 5, tie=OTHER_ORDER)
    beside = f" (in Deitel's move order from {sum(not r.full for r in deitel)})" if deitel else ""
    return [
        Erratum(
            question="homework-5x5",
            kind=ERRATUM,
            claim="A heuristic (without backtracking) will usually find a tour, but may occasionally fail",
            finding=(
                f"Not on 5 × 5: in the homework's own move order the heuristic fails from {len(failed)} of the "
                f"{starts} starts{beside}, more often than it "
                f"succeeds. {no_tour} of those {len(failed)} are squares of the colour with fewer squares, from "
                f"which no tour exists at all; {len(failed) - no_tour} {'is' if len(failed) - no_tour == 1 else 'are'}"
                f" the heuristic's own failure. “Occasionally” is right on the even boards: it fails from {others}."
            ),
            fix="“… will usually find a tour where one exists (on an odd board, from the squares of the colour "
            "with more squares), but may occasionally fail.”",
        )
    ]


def reindented(printed: str, fixed: str) -> str:
    """The lines of ``printed``, each with the indentation of its counterpart in ``fixed`` (matched by
    difflib on the lines' text; a changed line takes the indentation of the line that replaces it)."""
    lines, target = printed.splitlines(), fixed.splitlines()
    matcher = difflib.SequenceMatcher(None, [x.strip() for x in lines], [x.strip() for x in target], autojunk=False)
    out = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        for offset, line in enumerate(lines[i1:i2]):
            twin = target[j1 + offset] if tag in ("equal", "replace") and j1 + offset < j2 else ""
            out.append(twin[: len(twin) - len(twin.lstrip())] + line.strip())
    return "\n".join(out) + "\n"


def _run(source: str) -> Run:
    return run_source(source, name=SCRIPT_NAME, seed=SEED)


def blog_script(data: StoreData) -> list[Erratum]:
    """The blog's script: our copy lost its indentation; the authors' text is Python 2 and imports nothing; and
    it sizes its board with height and width swapped. Each shown by running it."""
    printed, program = program_text(AS_PRINTED), program_text(MADE_TO_RUN)
    fixed = _blog_lines(printed, program)
    indented = reindented(printed, fixed)
    no_imports = "".join(x for x in fixed.splitlines(keepends=True) if not x.startswith(("import ", "from ")))
    as_printed, with_indent, python3 = _run(printed), _run(indented), _run(no_imports)
    made = run_source(program, ("--seed", str(SEED)), name=SCRIPT_NAME)  # as its listing runs it
    if as_printed.status == 0 or made.status != 0:
        return []  # the copy runs after all, or the fix does not: nothing this note can say
    changed = sum(
        1 for a, b in zip(printed.splitlines(), indented.splitlines()) if a != b
    )  # lines the indentation changed
    notes = [
        Erratum(
            question="blog-script",
            kind=DAMAGED,
            claim="for k in xrange(width * height): / cb[ky][kx] = k + 1 / …",
            finding=(
                f"Our copy lost the script's indentation: all {len(printed.splitlines())} lines start in the first "
                "column, so that Python cannot tell which lines belong to which loop:"
            ),
            fix=(
                "The post shows a tour the script found, so it ran indented: the loss is our copy's. The code "
                f"leaves no doubt where each line belongs: {changed} lines indented again, four spaces a level, as "
                f"in {MADE_TO_RUN}, the answer's program."
            ),
            steps=[Step.of("as printed", as_printed, printed)],
        )
    ]
    diff = "".join(
        difflib.unified_diff(
            indented.splitlines(keepends=True),
            fixed.splitlines(keepends=True),
            "as printed, indented",
            "made to run",
            n=0,
        )
    )
    edits = sum(x[:1] in "+-" and x[:3] not in ("+++", "---") for x in diff.splitlines())
    notes.append(
        Erratum(
            question="blog-script",
            kind=ERRATUM,
            claim="print string.rjust(str(cb[cy][cx]), 2), … heappush(p_queue, (ctr, i)) … random.randint(0, width - 1)",
            finding=(
                "Indented, it still does not run: it is Python 2 (print statements, xrange, string.rjust), which "
                "the post does not say, and it imports none of random, heappush, heappop and string (Python 2 stops "
                "there too):"
            ),
            fix=(
                f"The {edits} lines of the diff below (our copy's indentation restored): the imports, print(…) and "
                "xrange = range; string.rjust, gone from Python 3, becomes str's own rjust, which needs no import "
                f"string. Then the script runs"
                + (f": from {_start(made)} it numbers all 64 squares." if _start(made) else ".")
                + f" {MADE_TO_RUN}, the answer's program, adds before the blog's lines a docstring and --seed, to give a student "
                f"the same random start (--seed {SEED})."
            ),
            steps=[
                Step.of("indented", with_indent, indented),
                Step.of("indented, print(…) and xrange = range, no imports", python3, no_imports),
                Step.of("with the imports (the answer's program)", made, fixed),
            ],
            diff=highlight(diff, "diff"),
        )
    )
    notes += _swapped_sides(fixed)
    return notes


def _blog_lines(printed: str, program: str) -> str:
    """The blog's own lines of the program made to run: from the script's first line on (the lines before it are
    ours: its docstring and the reading of --seed)."""
    first = printed.splitlines()[0]
    return program[program.index(f"\n{first}\n") + 1 :]


def _start(run: Run) -> tuple[int, int] | None:
    """The square the blog's script numbered 1, from its printed board, when it numbered every square."""
    rows = [[int(x) for x in line.split()] for line in run.stdout.splitlines() if line.strip()]
    numbers = sorted(x for row in rows for x in row)
    if numbers != list(range(1, len(numbers) + 1)):
        return None
    return next((r, c) for r, row in enumerate(rows) for c, x in enumerate(row) if x == 1)


#: The blog script's board, as printed (its rows are ``width`` long) and corrected.
_BOARD_AS_PRINTED = "cb = [[0 for x in xrange(height)] for y in xrange(width)]"
_BOARD_CORRECTED = "cb = [[0 for x in xrange(width)] for y in xrange(height)]"


def _swapped_sides(fixed: str) -> list[Erratum]:
    """The board ``cb`` is made ``width`` rows of ``height`` squares, but read as ``cb[row][column]``: on an
    8 x 8 board nobody notices; with width 6 the script fails. Run both ways to show it."""
    if _BOARD_AS_PRINTED not in fixed:
        return []
    narrow = fixed.replace("width = 8", "width = 6")
    failed, corrected = _run(narrow), _run(narrow.replace(_BOARD_AS_PRINTED, _BOARD_CORRECTED))
    if "IndexError" not in failed.error or corrected.status != 0:
        return []
    return [
        Erratum(
            question="blog-script",
            kind=ERRATUM,
            claim=_BOARD_AS_PRINTED + " # chessboard",
            finding=(
                "The board is made with its sides swapped: width lists of height squares each, but read as "
                "cb[row][column]. On 8 × 8 nobody notices; on a board 8 high and 6 wide the script fails:"
            ),
            fix="height lists of width squares each:",
            code=_BOARD_CORRECTED,
            steps=[Step.of("width = 6", failed, narrow), Step.of("width = 6, the board corrected", corrected, narrow)],
        )
    ]


def damaged_eiffel(data: StoreData) -> list[Erratum]:
    """What the OCR of the Eiffel text lost, where the key's answers read past it."""
    return [
        Erratum(
            question="eiffel-first",
            kind=DAMAGED,
            claim="IWop d := d+1 new_y := y + co.item(d) … if not success then end",
            finding=(
                "Our copy's OCR lost lines of Try_Next_Move: its head and the loop's start, new_x := x + row.item(d), "
                "board.put(k, new_x, new_y) before the call and board.put(0, new_x, new_y) after “if not success "
                "then”. It misreads letters (IWop: loop, AcceptabTe: Acceptable, co: col), and the “distance” "
                "formula, row(k - coTk), cannot be read."
            ),
            fix="Wirth's backtracking, which the text follows: try_next_move.py, the answer's program.",
        ),
        Erratum(
            question="eiffel-all",
            kind=DAMAGED,
            claim="from d := 1 until d > 8 New x := x + row.item(d) …",
            finding=(
                "The OCR lost Try_All's head and two lines of its loop, “loop” and “d := d + 1”, without which the "
                "loop would never end (Try_Next_Move's fragment keeps both); /F1ard reads board, hen then."
            ),
            fix="try_all.py, the answer's program, restores them.",
        ),
        Erratum(
            question="eiffel-closed",
            kind=DAMAGED,
            claim="(tour = travel round; journey = go to a … Solution: Kr 1 25 • 5 63 27 8 48",
            finding="Our copy breaks off mid-definition, and of the tour drawn after it only scattered numbers survive.",
            fix="A closed tour is drawn in this answer instead.",
        ),
        Erratum(
            question="eiffel-parberry",
            kind=DAMAGED,
            claim="Initial 4 tours … Combine them to get",
            finding=(
                "Of Parberry's 8 × 8 tour only its first row survives (1 46 17 50 3 6 31 52); the four initial "
                "tours and the tour they combine into are lost."
            ),
            fix="A closed tour with the join property is drawn in this answer instead.",
        ),
    ]


def sixty_first_move(data: StoreData) -> list[Erratum]:
    """The Eiffel text: "After the 61st move there will be no white square to move to": true in its count, which
    numbers the start square as the first move, as Deitel does (whose "64 moves" is A1's note): treated alike."""
    removed = [(0, 0), (7, 7)]
    board = Board(8, 8)
    kept = colour_counts(board, removed)
    fewer, more = min(kept), max(kept)
    squares = 2 * fewer + 1  # a path alternating colours, starting and ending on the colour with more
    number = labels()
    return [
        Erratum(
            question="eiffel-colours",
            kind=COUNT,
            claim=f"After the {_ordinal(squares)} move there will be no white square to move to",
            finding=(
                "The text counts the start square as the first move (board.put(1, x0, y0), then "
                "Try_Next_Move(2, …): the k-th square is numbered on the “k-th move”), as Deitel does "
                f"({number['deitel-by-hand']}): in that count the claim holds. In this key a move takes the knight "
                "from one square to the next. Without two "
                f"opposite corners 8 × 8 keeps {more} squares of one colour and {fewer} of the other: a path "
                f"alternating from the colour with more numbers at most {fewer + 1} + {fewer} = {squares} squares, "
                f"which is {squares - 1} moves."
            ),
            fix=(
                f"“After the {_ordinal(squares - 1)} move (the {_ordinal(squares)} square numbered) there will be no "
                "white square to move to.”"
            ),
        )
    ]


def _ordinal(number: int) -> str:
    """``61st``, ``60th``, ``62nd``."""
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


#: The notes, in the order of the questions.
NOTES: tuple[Callable[[StoreData], list[Erratum]], ...] = (
    full_tour_moves,
    occasionally,
    damaged_eiffel,
    sixty_first_move,
    blog_script,
)
