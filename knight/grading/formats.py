"""Reading a submission: the hand-in formats, detected from the text or forced by name.

The formats (:data:`FORMATS`):

* ``array`` — the homework's numbered array: one board row a line, the k-th square visited holds k;
  numbers separated by spaces, commas or semicolons, with or without a bordered grid (``|``, ``+``,
  ``-``, box-drawing characters); 1-based (1…nm) or 0-based (0…nm−1) counters; a partial tour with
  0 or ``.`` on unvisited squares;
* ``pairs`` — the squares in visiting order as (row, col) pairs, ``(0, 0) (2, 1)`` or ``0 0`` a line,
  0- or 1-based;
* ``chess`` — chess names in visiting order, ``a8 b6 c8 …``: file letters are columns, ``a1`` is the
  bottom-left square (row n−1, column 0);
* ``csv`` — a table with a header naming ``row`` and ``col`` (and optionally ``step``), one square a line;
* ``json`` — what ``knight tour --json`` prints (``board`` and ``squares``).

Lines of prose around the data (a program's messages) are ignored. Every failure to read is an
:class:`Unreadable` whose message says why and what would fix it.

The characters are said explicitly, so that the self-check page (``check.js``, a port of this module) reads a
text exactly as this does: a line ends at one of :data:`LINE_BREAKS` (what :meth:`str.splitlines` splits on),
a blank is one of :data:`SPACES` (what :meth:`str.isspace`, ``str.strip()`` and ``re``'s ``\\s`` take), and a
digit is an ASCII digit ``0``–``9`` only (a number written in other digits, ``٣`` or ``３``, is not a number
here: no program prints one, and JavaScript's ``\\d`` and ``parseInt`` do not read them).

A submission is untrusted, so nothing it declares is allocated or computed before it is checked against
the bounds: at most :data:`MAX_BYTES` read (from a regular file only, :mod:`knight.grading.files`), a
number of at most :data:`MAX_DIGITS` digits, a board of at most :data:`MAX_BOARD_SQUARES` squares (checked
on the sizes before any :class:`~knight.engine.Board` is made), JSON nested at most :data:`MAX_JSON_DEPTH`
deep and holding integers only (no ``Infinity``, ``NaN`` or fractions).
"""

from __future__ import annotations

import json
import math
import re
import string
from dataclasses import dataclass, field
from itertools import accumulate
from pathlib import Path
from typing import NoReturn

from knight.engine import Board, InvalidInput
from knight.engine.board import Square, is_knight_move
from knight.errors import Unreadable
from knight.grading.files import read_regular, text_by_bom

__all__ = [
    "FORMATS",
    "LINE_BREAKS",
    "SPACES",
    "too_large",
    "MAX_BYTES",
    "MAX_BOARD_SQUARES",
    "MAX_DIGITS",
    "MAX_JSON_DEPTH",
    "Submission",
    "read_file",
    "parse_bytes",
    "parse_text",
    "detect",
    "square_name",
    "parse_board",
]

FORMATS = ("array", "pairs", "chess", "csv", "json")

#: The largest file read, in bytes: a 400 × 400 array fits; a bigger file is refused at once.
MAX_BYTES = 2_000_000
#: The largest board a submission may be on, in squares: more than a full tour that fits in
#: :data:`MAX_BYTES` can number (every square takes two bytes at least; a 540 x 540 array is over 2 MB).
MAX_BOARD_SQUARES = 300_000
#: The most digits a number may have: a longer one is out of range on any board (and Python's int() of
#: a long digit string is slow, and refused past 4,300 digits).
MAX_DIGITS = 12
#: How deep JSON may nest: ``knight tour --json`` nests 3 deep (the object, its squares, a square).
MAX_JSON_DEPTH = 16
#: The characters a line ends at (``\r\n`` is one end): those :meth:`str.splitlines` splits on, said here for
#: the self-check page, which splits on the same (tests/grading/test_formats_characters.py holds them equal).
LINE_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"
#: The blanks between numbers and around a line: those :meth:`str.isspace` is true of (``str.strip()``'s and
#: ``re``'s ``\s``), said here for the self-check page. Not U+FEFF, the byte-order mark: mid-text it is a
#: character like any other (JavaScript's ``\s`` and ``trim()`` take it as a blank; the page does not).
SPACES = "\t\n\v\f\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"


def too_large() -> str:
    """Why a file over :data:`MAX_BYTES` is refused: one line, the same from the command and the self-check page."""
    return (
        f"the file is larger than {MAX_BYTES // 1_000_000} MB; hand in the tour alone "
        "(an array, a list of squares or knight tour --json)"
    )


@dataclass
class Submission:
    """A submission as read: the squares in visiting order and what the reading noticed.

    ``squares`` may hold squares off the board and repeated squares (the checker reports them);
    ``labels[i]`` is the number the student gave the i-th square (1-based; a gap in the array's
    counters shows as a jump). ``problems`` are (step, message) pairs found while reading, such
    as a counter written twice; ``notes`` say which reading was used where two fit.
    """

    format: str
    board: Board
    squares: list[Square]
    labels: list[int]
    problems: list[tuple[int, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def read_file(
    path: Path | str,
    *,
    board: Board | None = None,
    fmt: str | None = None,
    follow: bool = True,
    within: Path | str | None = None,
) -> Submission:
    """Read and parse one submission file (a regular file, at most :data:`MAX_BYTES`; a FIFO or a device is
    refused without blocking; with ``follow=False`` a link is refused too, and with ``within`` a link on the
    way from that folder: see :func:`~knight.grading.files.read_regular`)."""
    data = read_regular(path, MAX_BYTES, follow=follow, within=within)
    if len(data) > MAX_BYTES:
        raise Unreadable(too_large())
    return parse_bytes(data, board=board, fmt=fmt)


def parse_bytes(data: bytes, *, board: Board | None = None, fmt: str | None = None) -> Submission:
    """Decode ``data`` as text (as its byte-order mark says: UTF-8, -16 or -32; else UTF-8, else Latin-1) and
    parse it; binary data is refused."""
    marked = text_by_bom(data)
    if marked is not None:
        return parse_text(marked, board=board, fmt=fmt)
    if b"\x00" in data[:65536]:
        raise Unreadable("the file is binary, not text; hand in the program's printed output as a text file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
        controls = sum(ch < " " and ch not in "\t\r\n\f" for ch in text[:65536])
        if controls > len(text[:65536]) // 100:
            raise Unreadable(
                "the file is binary, not text; hand in the program's printed output as a text file"
            ) from None
    return parse_text(text, board=board, fmt=fmt)


def parse_text(text: str, *, board: Board | None = None, fmt: str | None = None) -> Submission:
    """Parse a submission's text, detecting the format unless ``fmt`` names it.

    ``board`` is the board to read pairs, chess squares and CSV on; an array and JSON carry their own
    board (a different one is for the checker to report as not the assigned exercise).
    """
    if fmt is not None and fmt not in FORMATS:
        raise Unreadable(f"unknown format {fmt!r}; choose one of: {', '.join(FORMATS)}")
    if not text.strip():
        raise Unreadable("the file is empty; hand in the printed array of the tour")
    if fmt is None:
        fmt = detect(text)
    return _READERS[fmt](text, board)


# --- detection ----------------------------------------------------------------------------------

# Every pattern here runs on untrusted text before any bound applies, so each is linear: no two adjacent or
# nested quantifiers can share a character (possessive ones, ``*+``, never give back), and a pattern that could
# start at each character of a long run starts only at the run's first one (``(?<!-)``). ``(1`` and 20,000
# spaces took 5 s with ``\s*[,;\s]\s*``, growing as the square of the length (hours at 2 MB); a line of dashes,
# with ``-+>``, the same.
#
# ``{S}`` below is :data:`SPACES` and ``[0-9]`` a digit, never ``\s`` and ``\d``: see the module's docstring.
_S = "[" + re.escape(SPACES) + "]"
_S_OR = re.escape(SPACES)  # inside a class with more
_INT = re.compile(r"[+-]?[0-9]+")
_PAIR = re.compile(rf"[(\[]{_S}*+([+-]?[0-9]++)(?:{_S}*+[,;]|{_S}){_S}*+([+-]?[0-9]++){_S}*+[)\]]")
_CHESS = re.compile(r"([a-zA-Z])([0-9]{1,3})")  # fullmatch
_SEPARATORS = re.compile(rf"[{_S_OR},;]+")
_BOARD = re.compile(rf"([0-9]{{1,9}})(?:{_S}*+[xX×]{_S}*+([0-9]{{1,9}}))?")  # on the stripped text: one blank run each
_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)  # a CSV header's names: ASCII letters
_BORDER = str.maketrans({ch: " " for ch in "|+=─│┼┌┐└┘├┤┬┴═║╬╔╗╚╝╠╣╦╩:"})
_CHESS_SPLIT = re.compile(rf"[{_S_OR},;]++|(?<!-)-++>|→|–|—|(?<=[0-9])-(?=[a-zA-Z])")


def detect(text: str) -> str:
    """The format of ``text`` (see :data:`FORMATS`); raises :class:`Unreadable` when none fits or two do."""
    stripped = text.lstrip()
    if stripped.startswith("{"):
        return "json"
    lines = text.splitlines()
    if any(_is_csv_header(line) for line in lines[:50]):
        return "csv"
    found = []
    pairs = len(_PAIR.findall(text))
    if pairs >= 2:
        found.append("pairs")
    chess = _chess_tokens(lines)
    if len(chess) >= 3:
        found.append("chess")
    block = _numeric_block(lines)
    if block and len(block) >= 2:
        twos = all(len(row) == 2 for row in block) and len(block) > 2
        if "pairs" not in found:
            found.append("pairs" if twos else "array")
        elif not twos and pairs < sum(map(len, block)) and _numbers_each_once(block):
            found[found.index("pairs")] = "array"  # a numbered board, and a few (row, col) in the words about it
    if not found:
        raise Unreadable(
            "no tour found: no numbered array, (row, col) pairs or chess squares; hand in the "
            "array the program prints (or give --format)"
        )
    if len(found) > 1:
        raise Unreadable(
            f"mixed formats: the file holds both {found[0]} and {found[1]} data; keep one, or force one with --format"
        )
    return found[0]


def _numbers_each_once(block: list[list[int | None]]) -> bool:
    """Whether ``block`` can be a numbered board: no counter twice (0 and dots aside, a partial tour's). A table
    of other numbers (degrees, a ``step row col`` listing) repeats its values."""
    numbers = [value for row in block for value in row if value]
    return len(numbers) == len(set(numbers))


def _is_csv_header(line: str) -> bool:
    fields = [part.strip().strip('"').translate(_LOWER) for part in line.split(",")]
    return len(fields) >= 2 and "row" in fields and ("col" in fields or "column" in fields)


def _chess_tokens(lines: list[str]) -> list[tuple[str, int]]:
    """The chess squares of every line made of chess squares only (prose lines are skipped)."""
    found: list[tuple[str, int]] = []
    for line in lines:
        tokens = [token for token in _CHESS_SPLIT.split(line.strip()) if token]
        matches = [_CHESS.fullmatch(token) for token in tokens]
        if tokens and all(matches):
            found.extend((match.group(1).lower(), int(match.group(2))) for match in matches)  # type: ignore[union-attr]
    return found


def _number(token: str) -> int:
    """``token`` (digits, maybe signed) as an int, refused past :data:`MAX_DIGITS` digits before converting."""
    digits = len(token.lstrip("+-"))
    if digits > MAX_DIGITS:
        raise Unreadable(
            f"a number of {digits:,} digits ({token[:8]}…) is out of range; numbers are squares' counters "
            "and coordinates, a few digits each"
        )
    return int(token)


def _numeric_row(line: str) -> list[int | None] | None:
    """A line of the array as numbers (None for a dot), or None when it is not such a line."""
    cleaned = line.translate(_BORDER).strip()
    if not cleaned:
        return [] if line.strip() else None  # a border line (or nothing)
    tokens = []
    for token in _SEPARATORS.split(cleaned):
        if not token or (len(token) > 1 and set(token) <= set("-_=")):  # a piece of border
            continue
        if token not in (".", "-", "_", "*", "..") and not _INT.fullmatch(token):
            return None  # prose: nothing converted
        tokens.append(token)
    return [None if token in (".", "-", "_", "*", "..") else _number(token) for token in tokens]


def _numeric_block(lines: list[str]) -> list[list[int | None]]:
    """The longest run of array lines (border lines inside it allowed, prose around it ignored)."""
    best: list[list[int | None]] = []
    current: list[list[int | None]] = []
    for line in lines:
        row = _numeric_row(line)
        if row is None:
            if len(current) > len(best):
                best = current
            current = []
        elif row:
            current.append(row)
    return current if len(current) > len(best) else best


# --- readers ------------------------------------------------------------------------------------


def _read_array(text: str, board: Board | None) -> Submission:
    rows = _numeric_block(text.splitlines())
    if not rows:
        raise Unreadable("no numbered array found; hand in the array the program prints, one board row a line")
    width = len(rows[0])
    for i, row in enumerate(rows, start=1):
        if len(row) != width:
            raise Unreadable(
                f"ragged array: row {i} has {len(row)} entries, row 1 has {width}; "
                "give every row of the board the same number of entries"
            )
    n, m = len(rows), width
    board = _board(n, m)
    size = n * m
    values = [value for row in rows for value in row]
    numbers = [value for value in values if value is not None]
    dots = len(values) - len(numbers)
    notes: list[str] = []
    for index, value in enumerate(values):
        if value is not None and not (0 <= value <= size):
            r, c = divmod(index, m)
            raise Unreadable(
                f"number {value} in row {r + 1}, column {c + 1} is out of range for a {board} "
                f"board (1..{size}, 0 or . for unvisited); fix that number"
            )
    zero_based = False
    if 0 in numbers and sorted(numbers) == list(range(size)):
        place = {value: index for index, value in enumerate(values)}  # one pass: values.index(k) is quadratic
        path = [divmod(place[k], m) for k in range(size)]
        if _legal(path):
            zero_based = True
            notes.append("0-based counters (0…nm−1): read as a full tour")
        else:
            notes.append("0…nm−1 is not a legal 0-based tour: read as a 1-based partial tour, 0 = unvisited")
    elif dots and numbers.count(0) == 1 and size not in numbers:
        zero_based = True
        notes.append("0-based counters with dots for unvisited squares")
    by_counter: dict[int, list[Square]] = {}
    for index, value in enumerate(values):
        if value is None or (value == 0 and not zero_based):
            continue
        by_counter.setdefault(value + 1 if zero_based else value, []).append(divmod(index, m))
    if not by_counter:
        raise Unreadable("the array holds no visited square (all 0); hand in the array with the tour's numbers")
    squares: list[Square] = []
    labels: list[int] = []
    problems: list[tuple[int, str]] = []
    expected = 1
    for counter in sorted(by_counter):
        if counter != expected:
            what = (
                _shown(expected, zero_based)
                if counter == expected + 1
                else _shown_range(expected, counter - 1, zero_based)
            )
            problems.append((max(expected - 1, 1), f"number {what} is missing"))
        places = by_counter[counter]
        if len(places) > 1:
            names = " and ".join(square_name(board, square) for square in places)
            problems.append((max(counter - 1, 1), f"number {_shown(counter, zero_based)} is written twice, at {names}"))
        if len(places) > 1 and squares:  # of two squares holding one number, take the one a knight reaches
            places = sorted(places, key=lambda sq: not _legal([squares[-1], sq]))
        squares.append(places[0])
        labels.append(counter)
        expected = counter + 1
    return Submission("array", board, squares, labels, problems, notes)


def _shown(counter: int, zero_based: bool) -> int:
    return counter - 1 if zero_based else counter


def _shown_range(first: int, last: int, zero_based: bool) -> str:
    return f"{_shown(first, zero_based)}…{_shown(last, zero_based)}"


def _legal(path: list[Square]) -> bool:
    return all(is_knight_move(a, b) for a, b in zip(path, path[1:]))


def _read_pairs(text: str, board: Board | None) -> Submission:
    pairs = [(_number(a), _number(b)) for a, b in _PAIR.findall(text)]
    if len(pairs) < 2:
        rows = _numeric_block(text.splitlines())
        if not rows or any(len(row) != 2 or None in row for row in rows):
            raise Unreadable("no list of (row, col) pairs found; give one square a line as 'row col', or as (row, col)")
        pairs = [(row[0], row[1]) for row in rows]  # type: ignore[misc]
    return _from_coordinates("pairs", pairs, board)


def _read_csv(text: str, board: Board | None) -> Submission:
    lines = [line for line in text.splitlines() if line.strip()]
    header_at = next((i for i, line in enumerate(lines) if _is_csv_header(line)), None)
    if header_at is None:
        raise Unreadable("no CSV header naming row and col; start the table with 'step,row,col'")
    header = [part.strip().strip('"').translate(_LOWER) for part in lines[header_at].split(",")]
    r_at = header.index("row")
    c_at = header.index("col") if "col" in header else header.index("column")
    s_at = next((header.index(name) for name in ("step", "k", "move", "number", "n") if name in header), None)
    records: list[tuple[int, int, int]] = []
    for number, line in enumerate(lines[header_at + 1 :], start=header_at + 2):
        fields = [part.strip().strip('"') for part in line.split(",")]
        try:
            step = _integer(fields[s_at]) if s_at is not None else len(records)
            records.append((step, _integer(fields[r_at]), _integer(fields[c_at])))
        except Unreadable:  # a number of too many digits: said as such (Unreadable is a ValueError too)
            raise
        except (ValueError, IndexError):
            raise Unreadable(
                f"CSV line {number} is not 'step,row,col' numbers: {line.strip()[:40]!r}; fix or remove it"
            ) from None
    if not records:
        raise Unreadable("the CSV table has a header but no squares; give one square a line")
    records.sort(key=lambda record: record[0])
    return _from_coordinates("csv", [(r, c) for _, r, c in records], board)


def _integer(field: str) -> int:
    """A CSV field as an int (ValueError when it is not one; :data:`MAX_DIGITS` at most)."""
    if not _INT.fullmatch(field.strip()):
        raise ValueError(field)
    return _number(field.strip())


def _read_chess(text: str, board: Board | None) -> Submission:
    tokens = _chess_tokens(text.splitlines())
    if not tokens:
        raise Unreadable("no chess squares found; give the squares in order as a1 c2 …")
    files = [ord(letter) - ord("a") for letter, _ in tokens]
    ranks = [rank for _, rank in tokens]
    if board is None:
        side = math.isqrt(len(tokens))
        if side * side == len(tokens) and max(ranks) <= side and max(files) < side:
            board = _board(side, side)
        else:
            board = _board(max(ranks), max(files) + 1)
    squares = [(board.n - rank, file) for file, rank in zip(files, ranks)]
    return Submission("chess", board, squares, list(range(1, len(squares) + 1)))


# A string runs to its closing quote or, unterminated, to the end of the text: every match from a quote
# succeeds, so none is tried again from each quote inside it (10,000 \" took 1.2 s with '"(?:[^"\\]|\\.)*"',
# growing as the square of the length).
_JSON_STRING = re.compile(r'"(?:[^"\\]++|\\.?)*+(?:"|\Z)', re.S)
_JSON_NOT_BRACKET = re.compile(r"[^\[\]{}]++")
_JSON_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def _no_constant(name: str) -> NoReturn:
    raise Unreadable(f"the JSON holds {name}, not a number; hand in knight tour --json's output unchanged")


def _no_fraction(text: str) -> NoReturn:
    raise Unreadable(f"the JSON holds the fraction {text[:20]}; rows, columns and the board are whole numbers")


def _json_depth(text: str) -> None:
    """Refuse JSON nested deeper than :data:`MAX_JSON_DEPTH` before parsing it (the parser recurses)."""
    brackets = _JSON_NOT_BRACKET.sub("", _JSON_STRING.sub("", text))
    if max(accumulate(map(_JSON_STEP.__getitem__, brackets)), default=0) > MAX_JSON_DEPTH:
        raise Unreadable(
            f"the JSON nests more than {MAX_JSON_DEPTH} deep; hand in knight tour --json's output unchanged"
        )


def _is_integer(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _read_json(text: str, board: Board | None) -> Submission:
    _json_depth(text)
    try:
        data = json.loads(text, parse_int=_number, parse_float=_no_fraction, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise Unreadable(
            f"invalid JSON ({error.msg}, line {error.lineno}); hand in knight tour --json's output unchanged"
        ) from None
    if not isinstance(data, dict) or "squares" not in data or "board" not in data:
        raise Unreadable("the JSON has no 'board' and 'squares'; hand in knight tour --json's output unchanged")
    size, squares = data["board"], data["squares"]
    if not (
        isinstance(size, list)
        and len(size) == 2
        and all(map(_is_integer, size))
        and isinstance(squares, list)
        and all(isinstance(sq, list) and len(sq) == 2 and all(map(_is_integer, sq)) for sq in squares)
    ):
        raise Unreadable("the JSON's 'board' or 'squares' is not numbers: board [n, m], squares [[row, col], …]")
    own = _board(size[0], size[1])  # the declared size is checked before any Board is made
    squares = [(r, c) for r, c in squares]
    if not squares:
        raise Unreadable("the JSON's 'squares' is empty; hand in a tour")
    return Submission("json", own, squares, list(range(1, len(squares) + 1)), notes=["0-based squares"])


def _from_coordinates(fmt: str, pairs: list[tuple[int, int]], board: Board | None) -> Submission:
    """Squares from (row, col) numbers: 0-based when some coordinate is 0 (or the board says so), else 1-based."""
    rows = [r for r, _ in pairs]
    cols = [c for _, c in pairs]
    if board is not None:
        one_based = 0 not in rows and 0 not in cols and (max(rows) >= board.n or max(cols) >= board.m)
    else:
        one_based = 0 not in rows and 0 not in cols
    shift = 1 if one_based else 0
    squares = [(r - shift, c - shift) for r, c in pairs]
    notes = ["1-based (row, col): no coordinate is 0" if one_based else "0-based (row, col)"]
    if board is None:
        side = math.isqrt(len(squares))
        if side * side == len(squares) and all(0 <= r < side and 0 <= c < side for r, c in squares):
            board = _board(side, side)
        else:
            board = _board(max(r for r, _ in squares) + 1, max(c for _, c in squares) + 1)
            notes.append(f"board {board} inferred from the largest row and column (give --board to be sure)")
    return Submission(fmt, board, squares, list(range(1, len(squares) + 1)), notes=notes)


def _board(n: int, m: int) -> Board:
    """The board a submission declares or implies, refused over :data:`MAX_BOARD_SQUARES` before it is made."""
    if n > 0 and m > 0 and n * m > MAX_BOARD_SQUARES:
        raise Unreadable(
            f"the board {n}x{m} has {n * m:,} squares; submissions are read on boards of at most "
            f"{MAX_BOARD_SQUARES:,} (a full tour of more does not fit in {MAX_BYTES // 1_000_000} MB)"
        )
    try:
        return Board(n, m)
    except InvalidInput as error:
        raise Unreadable(f"{error}; give --board N or NxM") from None


_READERS = {"array": _read_array, "pairs": _read_pairs, "chess": _read_chess, "csv": _read_csv, "json": _read_json}


# --- names --------------------------------------------------------------------------------------


def square_name(board: Board, square: Square) -> str:
    """A square as the handout writes it: ``(row, col)``, 0-based from the top-left, on every board (the board
    diagrams are labelled the same way; chess names are read, never written)."""
    row, col = square
    return f"({row}, {col})"


def parse_board(text: str) -> Board:
    """A board given as ``N`` or ``NxM`` (the value of --board), of at most :data:`MAX_BOARD_SQUARES` squares."""
    match = _BOARD.fullmatch(text.strip())
    if not match:
        raise InvalidInput(f"--board takes N or NxM (e.g. 8 or 6x8), got {text[:40]!r}")
    n = int(match.group(1))
    m = int(match.group(2)) if match.group(2) else n
    if n * m > MAX_BOARD_SQUARES:
        raise InvalidInput(
            f"--board {n}x{m} has {n * m:,} squares; submissions are graded on boards of at most {MAX_BOARD_SQUARES:,}"
        )
    return Board(n, m)
