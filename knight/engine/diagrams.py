"""Board diagrams as SVG: a tour drawn on its board, a start-square heat map, an empty board.

Drawn by hand (like python-chess's ``chess.svg``) because they are ours: each square is a
``SQUARE``-unit cell, row 0 at the top, with 0-based row and column labels in the margin,
as in the project's conventions.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence

import numpy as np

from knight.engine.board import Board, Square
from knight.engine.svg import SQUARE
from knight.engine.svg import centre as _centre
from knight.engine.svg import corner as _corner
from knight.engine.svg import label as _label
from knight.engine.svg import length as _f
from knight.engine.svg import line as _line
from knight.engine.svg import to_string as _to_string
from knight.engine.tour import Tour

__all__ = [
    "board_element",
    "starts_map_svg",
    "SQUARE",
    "MARGIN",
    "TEXT",
    "LABEL_SIZE",
    "NUMBERED_UP_TO",
    "DETAILED_UP_TO",
    "DRAWN_UP_TO",
    "NOTEBOOK_LARGEST",
    "sized",
    "tour_svg",
    "heat_map_svg",
    "heat_label_size",
    "empty_board_svg",
    "WORKSHEET_LIGHT",
    "WORKSHEET_DARK",
]

MARGIN = 18
LIGHT, DARK = "#f3e7cf", "#d2b48c"
#: The handout's empty boards: squares light enough to write on in pencil (the dark one's WCAG relative
#: luminance about 0.76; #d2b48c's is 0.48), still told apart from the light ones.
WORKSHEET_LIGHT, WORKSHEET_DARK = "#fdfaf4", "#ede2cb"
PATH, START, END, HIGHLIGHT = "#1f4e79", "#2e7d32", "#c62828", "#f2a93b"
TEXT = "#222"
#: Row and column labels, in the units of a square (SQUARE): large enough to print at 7 pt or more on
#: a board drawn at the report's usual widths.
LABEL_SIZE = 15
#: Boards larger than this per side show the path only, no numbers.
NUMBERED_UP_TO = 16
#: Boards larger than this per side are drawn without square colours or labels.
DETAILED_UP_TO = 40
#: Boards larger than this per side are not drawn for a notebook (a tour's SVG grows with its squares).
DRAWN_UP_TO = 100
#: A notebook's picture, in pixels on its longer side at most: an 8 x 8 board is drawn at its own size (356
#: px, 40 a square), a larger one shrunk to fit beside the text.
NOTEBOOK_LARGEST = 480
#: The move number of a numbered board, in the units of a square: half a square, so that a board printed with
#: 6.5 mm squares shows its numbers at about 9 pt, as large as the text around it.
NUMBER_SIZE = 0.5
#: The colours of the quarters of a join drawing (:func:`join_svg`), one per quarter, told apart in grey too.
QUARTER_COLOURS = ("#1f4e79", "#6a3d9a", "#1b7f5b", "#8c4a12")


def tour_svg(
    tour: Tour,
    *,
    numbers: bool | None = None,
    labels: bool = True,
    title: str | None = None,
    highlight: Sequence[tuple[Square, Square]] = (),
) -> str:
    """A tour on its board: numbered squares, the path as lines, start and end marked,
    and the closing move dashed on a closed tour.

    For the HTML page's player the picture is ``<svg class="board tour">`` whose ``polyline.path`` lists the
    squares' centres in visiting order and whose ``data-step="k"`` elements are what the k-th square adds
    (its disc and number; the end marker and the closing move belong to the last step).

    ``numbers`` shows the visit numbers (default: on boards up to :data:`NUMBERED_UP_TO` per side);
    ``labels=False`` leaves out the row and column labels too (a thumbnail, without any text);
    ``highlight`` draws the given moves (pairs of squares) boldly, e.g. Parberry's corner moves.
    """
    board = tour.board
    numbers = max(board.n, board.m) <= NUMBERED_UP_TO if numbers is None else numbers
    svg = _board(board, title or f"{tour.method} tour on {board}", labels=labels)
    svg.set("class", "board tour")  # a tour the page's player (knight/report/templates/player.js) can step through
    centres = [_centre(r, c) for r, c in tour.squares]
    last = len(centres)
    width = SQUARE / 16 if max(board.n, board.m) <= DETAILED_UP_TO else SQUARE / 4
    if tour.closed:
        _line(
            svg,
            centres[-1],
            centres[0],
            stroke=PATH,
            width=width,
            **{"stroke-dasharray": f"{_f(width * 3)} {_f(width * 2)}", "class": "closing-move", "data-step": str(last)},
        )
    for a, b in highlight:
        _line(
            svg,
            _centre(*a),
            _centre(*b),
            stroke=HIGHLIGHT,
            width=width * 3.5,
            **{"stroke-linecap": "round", "class": "highlight"},
        )
    if len(centres) > 1:
        ET.SubElement(
            svg,
            "polyline",
            {
                "points": " ".join(f"{_f(x)},{_f(y)}" for x, y in centres),
                "fill": "none",
                "stroke": PATH,
                "stroke-width": _f(width),
                "stroke-linejoin": "round",
                "stroke-opacity": "0.75",
                "class": "path",
            },
        )
    radius = SQUARE * (0.3 if numbers else 0.22)
    for k, (x, y) in enumerate(centres, start=1):
        if not numbers and 1 < k < last:
            continue
        step = ET.SubElement(svg, "g", {"data-step": str(k)})  # what the k-th square adds to the picture
        if k == 1:
            _start_mark(step, x, y, radius)
        if k == last:
            _end_mark(step, x, y, radius)
        if 1 < k < last:  # a pale disc under the number, so that the path runs between the numbers, not over them
            ET.SubElement(
                step,
                "circle",
                {
                    "cx": _f(x),
                    "cy": _f(y),
                    "r": _f(radius),
                    "fill": "#fffdf6",
                    "stroke": PATH,
                    "stroke-width": "0.6",
                    "stroke-opacity": "0.5",
                },
            )
        if numbers:
            _label(step, (x, y), str(k), "#fff" if k in (1, last) else TEXT, SQUARE * (0.3 if k > 99 else 0.36))
    return _to_string(svg)


def numbered_tour_svg(tour: Tour, *, labels: bool = True, title: str | None = None, layer: str = "whole") -> str:
    """A tour as the homework's program prints it: the k-th square visited holds k, in figures large enough
    to read on a printed board (:data:`NUMBER_SIZE`), with no path drawn over them.

    The start square is a green disc and the last square a red square, with white figures (the report's
    conventions); the squares a partial tour never reached stay empty. ``labels=False`` leaves out the row and
    column labels (boards drawn side by side, each named in its caption).

    ``layer`` draws it whole (``"whole"``), or in two pictures of one size to lay one over the other: the
    ``"board"`` with its start and end marked, and the ``"numbers"`` alone on a transparent ground (the report
    prints the numbers as a line of text a row instead, which lays out many times faster than SVG text).
    """
    if layer not in ("whole", "board", "numbers"):
        raise ValueError(f"layer is whole, board or numbers, not {layer!r}")
    board = tour.board
    title = title or f"{tour.method} tour on {board}, numbered"
    svg = _frame(board, title, labels=labels) if layer == "numbers" else _board(board, title, labels=labels)
    svg.set("class", "board numbered" + (f" {layer}" if layer != "whole" else ""))
    last = tour.length
    radius = SQUARE * 0.42
    for k, (row, col) in enumerate(tour.squares, start=1):
        x, y = _centre(row, col)
        if layer != "numbers" and k == 1:
            _start_mark(svg, x, y, radius)
        elif layer != "numbers" and k == last:
            _end_mark(svg, x, y, radius)
        if layer != "board":
            size = SQUARE * NUMBER_SIZE * (0.8 if k > 99 else 1.0)  # three figures shrink to stay in the square
            _label(svg, (x, y), str(k), "#fff" if k in (1, last) else TEXT, size, bold=True)
    return _to_string(svg)


def outcome_board_svg(
    board: Board, starts: Sequence[Square], failed: dict[Square, str], *, title: str, labels: bool = False
) -> str:
    """Each start's outcome on a small board, readable in black and white: a disc where the run from that
    square gave a full tour, and on a pale red square the ``failed`` text (say, how many squares it reached)
    where it did not. Squares no run started from stay empty.
    """
    svg = _board(board, title, labels=labels)
    svg.set("class", "board outcomes")
    for square in starts:
        x, y = _centre(*square)
        if square in failed:
            corner_x, corner_y = _corner(*square)
            ET.SubElement(
                svg,
                "rect",
                {
                    "x": _f(corner_x + 1),
                    "y": _f(corner_y + 1),
                    "width": _f(SQUARE - 2),
                    "height": _f(SQUARE - 2),
                    "fill": "#fbe3e1",
                    "stroke": END,
                    "stroke-width": "2",
                    "class": "failed",
                },
            )
            text = failed[square]
            _label(svg, (x, y), text, END, SQUARE * 0.5 * min(1.0, 2.4 / max(len(text), 1)), bold=True)
        else:
            ET.SubElement(
                svg, "circle", {"cx": _f(x), "cy": _f(y), "r": _f(SQUARE * 0.22), "fill": PATH, "class": "full"}
            )
    return _to_string(svg)


def join_svg(
    board: Board,
    quarters: Sequence[Sequence[Square]],
    removed: Sequence[tuple[Square, Square]],
    added: Sequence[tuple[Square, Square]],
    *,
    title: str,
) -> str:
    """Parberry's join drawn: each quarter's closed tour in a colour of its own (:data:`QUARTER_COLOURS`,
    the quarters' borders drawn heavy), the moves the join takes out as dashed red lines crossed out, and the
    moves it puts in as bold orange lines. ``quarters`` are the four closed tours as squares of ``board``.
    """
    svg = _board(board, title)
    svg.set("class", "board join")
    width = SQUARE / 14
    for colour, cycle in zip(QUARTER_COLOURS, quarters):
        rows = [r for r, _ in cycle]
        cols = [c for _, c in cycle]
        x0, y0 = _corner(min(rows), min(cols))
        ET.SubElement(
            svg,
            "rect",
            {
                "x": _f(x0),
                "y": _f(y0),
                "width": _f((max(cols) - min(cols) + 1) * SQUARE),
                "height": _f((max(rows) - min(rows) + 1) * SQUARE),
                "fill": "none",
                "stroke": "#333",
                "stroke-width": "3",
                "class": "quarter",
            },
        )
        points = [_centre(*square) for square in [*cycle, cycle[0]]]
        ET.SubElement(
            svg,
            "polyline",
            {
                "points": " ".join(f"{_f(x)},{_f(y)}" for x, y in points),
                "fill": "none",
                "stroke": colour,
                "stroke-width": _f(width),
                "stroke-linejoin": "round",
                "class": "quarter-tour",
            },
        )
    for a, b in removed:
        (x1, y1), (x2, y2) = _centre(*a), _centre(*b)
        _line(svg, (x1, y1), (x2, y2), stroke="#fff", width=width * 4)  # the quarter's move, wiped out
        _line(svg, (x1, y1), (x2, y2), stroke=END, width=width * 2, **{"stroke-dasharray": "6 5", "class": "removed"})
        mx, my, arm = (x1 + x2) / 2, (y1 + y2) / 2, SQUARE * 0.18
        ET.SubElement(
            svg,
            "path",
            {
                "d": f"M{_f(mx - arm)} {_f(my - arm)}L{_f(mx + arm)} {_f(my + arm)}"
                f"M{_f(mx - arm)} {_f(my + arm)}L{_f(mx + arm)} {_f(my - arm)}",
                "stroke": END,
                "stroke-width": _f(width * 2.5),
            },
        )
    for a, b in added:
        _line(
            svg,
            _centre(*a),
            _centre(*b),
            stroke=HIGHLIGHT,
            width=width * 4,
            **{"stroke-linecap": "round", "class": "added"},
        )
    for a, b in [*removed, *added]:  # the squares the join touches: small discs on the ends of its moves
        for square in (a, b):
            x, y = _centre(*square)
            ET.SubElement(svg, "circle", {"cx": _f(x), "cy": _f(y), "r": _f(SQUARE * 0.1), "fill": "#222"})
    return _to_string(svg)


def heat_map_svg(
    board: Board,
    values: np.ndarray,
    *,
    title: str,
    label_format: str = "{:g}",
    low: float | None = None,
    high: float | None = None,
    label_size: float | None = None,
) -> str:
    """Colour each square by a value (e.g. how far the knight got from that start): pale is low, deep is high.

    ``values`` is an n × m array; NaN squares are left blank. ``low``/``high`` fix the colour scale.
    ``label_size`` (in the units of a square) sets every number's size, so that the maps of one figure print
    theirs alike (:func:`heat_label_size` of the longest); by default each is as large as fits its square.
    """
    values = np.asarray(values, dtype=float)
    finite = values[np.isfinite(values)]
    low = float(finite.min()) if low is None and finite.size else (low or 0.0)
    high = float(finite.max()) if high is None and finite.size else (high if high is not None else 1.0)
    svg = _board(board, title, coloured=False)
    show_labels = max(board.n, board.m) <= NUMBERED_UP_TO
    for r in range(board.n):
        for c in range(board.m):
            value = values[r, c]
            if not np.isfinite(value):
                continue
            share = 0.0 if high == low else (value - low) / (high - low)
            x, y = _corner(r, c)
            ET.SubElement(
                svg,
                "rect",
                {
                    "x": _f(x),
                    "y": _f(y),
                    "width": str(SQUARE),
                    "height": str(SQUARE),
                    "fill": _heat(share),
                    "class": "heat",
                },
            )
            if show_labels:
                text = label_format.format(value)
                size = heat_label_size(text) if label_size is None else label_size
                _label(svg, _centre(r, c), text, "#fff" if share > 0.6 else TEXT, size)
    return _to_string(svg)


def heat_label_size(text: str) -> float:
    """The size of ``text`` in a heat map's square, in the units of a square: as large as fits (long numbers
    shrink)."""
    return SQUARE * 0.36 * min(1.0, 3.6 / max(len(text), 1))


def empty_board_svg(
    board: Board,
    *,
    title: str | None = None,
    start: Square | None = None,
    moves: Sequence[tuple[Square, Square]] = (),
) -> str:
    """An empty board with row and column labels: a worksheet for the student handout, in colours
    light enough to write on in pencil.

    ``start`` marks a given start square with a ring around a "1" (the first square of the
    homework's numbered array), for questions that name the start; ``moves`` draws the given moves
    (pairs of squares) as lines, e.g. the corner moves of Parberry's join property.
    """
    svg = _board(
        board,
        title or f"empty {board} board" + (f", start {start}" if start else ""),
        light=WORKSHEET_LIGHT,
        dark=WORKSHEET_DARK,
    )
    for a, b in moves:
        if not (board.contains(a) and board.contains(b)):
            raise ValueError(f"move {a}-{b} is not on the {board} board")
        _line(
            svg,
            _centre(*a),
            _centre(*b),
            stroke=HIGHLIGHT,
            width=SQUARE / 12,
            **{"class": "move", "stroke-linecap": "round"},
        )
    if start is not None:
        if not board.contains(start):
            raise ValueError(f"start {start} is not on the {board} board")
        x, y = _centre(*start)
        ET.SubElement(
            svg,
            "circle",
            {
                "cx": _f(x),
                "cy": _f(y),
                "r": _f(SQUARE * 0.36),
                "fill": "#fff",
                "stroke": START,
                "stroke-width": "2.5",
                "class": "start",
            },
        )
        _label(svg, (x, y), "1", START, SQUARE * 0.4)
    return _to_string(svg)


def starts_map_svg(board: Board, kinds: dict[Square, str], *, title: str) -> str:
    """The existence map of a board: on its coloured squares, a disc where a tour starts (``found``),
    a cross where none does (``none``) and a question mark where it is not known (``unknown``), so
    that it reads in black and white and shows the colouring argument at a glance.
    """
    svg = _board(board, title, labels=False)  # a picture of the pattern: no coordinates to print small
    svg.set("class", "board starts")
    for (row, col), kind in sorted(kinds.items()):
        x, y = _centre(row, col)
        if kind == "found":
            ET.SubElement(
                svg, "circle", {"cx": _f(x), "cy": _f(y), "r": _f(SQUARE * 0.27), "fill": PATH, "class": "found"}
            )
        elif kind == "none":
            arm = SQUARE * 0.2
            ET.SubElement(
                svg,
                "path",
                {
                    "d": f"M{_f(x - arm)} {_f(y - arm)}L{_f(x + arm)} {_f(y + arm)}"
                    f"M{_f(x - arm)} {_f(y + arm)}L{_f(x + arm)} {_f(y - arm)}",
                    "stroke": END,
                    "stroke-width": _f(SQUARE / 12),
                    "class": "none",
                },
            )
        else:
            _label(svg, (x, y), "?", TEXT, SQUARE * 0.5)
    return _to_string(svg)


def sized(svg: str, largest: int = NOTEBOOK_LARGEST) -> str:
    """``svg`` (a picture drawn here) with a ``width`` and ``height`` in pixels, for a notebook, which shows an
    SVG without them as wide as the page: one pixel a unit of the view box, the longer side ``largest`` at
    most. The report sizes its pictures with CSS and keeps them without."""
    match = re.match(r'<svg [^>]*?viewBox="[-\d.]+ [-\d.]+ ([\d.]+) ([\d.]+)"', svg)
    if match is None:
        raise ValueError("not a picture drawn by knight.engine.diagrams: no view box on its <svg>")
    width, height = float(match.group(1)), float(match.group(2))
    scale = min(1.0, largest / max(width, height))
    return f'<svg width="{round(width * scale)}" height="{round(height * scale)}" {svg[len("<svg ") :]}'


def board_element(board: Board, title: str) -> ET.Element:
    """A board as every drawing here starts (its squares, labels and frame), to draw on with
    :mod:`knight.engine.svg` and write with :func:`knight.engine.svg.to_string`."""
    return _board(board, title)


# --- private helpers ------------------------------------------------------------------------------


def _frame(board: Board, title: str, *, labels: bool = True) -> ET.Element:
    """The picture's root: its view box (the board, and a margin for the labels) and its title, nothing drawn."""
    margin = MARGIN if max(board.n, board.m) <= DETAILED_UP_TO and labels else 0
    width, height = board.m * SQUARE + 2 * margin, board.n * SQUARE + 2 * margin
    svg = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "viewBox": f"{-margin} {-margin} {width} {height}",
            "role": "img",
            "class": "board",
        },
    )
    ET.SubElement(svg, "title").text = title
    return svg


def _board(
    board: Board, title: str, *, coloured: bool = True, labels: bool = True, light: str = LIGHT, dark: str = DARK
) -> ET.Element:
    detailed = max(board.n, board.m) <= DETAILED_UP_TO
    svg = _frame(board, title, labels=labels)
    ET.SubElement(
        svg,
        "rect",
        {
            "x": "0",
            "y": "0",
            "width": str(board.m * SQUARE),
            "height": str(board.n * SQUARE),
            "fill": light if coloured else "#fafafa",
        },
    )
    if coloured and detailed:
        for r in range(board.n):
            for c in range(board.m):
                if board.colour((r, c)):
                    x, y = _corner(r, c)
                    ET.SubElement(
                        svg, "rect", {"x": _f(x), "y": _f(y), "width": str(SQUARE), "height": str(SQUARE), "fill": dark}
                    )
    if not coloured and detailed:
        for k in range(board.n + 1):
            ET.SubElement(
                svg,
                "line",
                {
                    "x1": "0",
                    "y1": str(k * SQUARE),
                    "x2": str(board.m * SQUARE),
                    "y2": str(k * SQUARE),
                    "stroke": "#ccc",
                    "stroke-width": "1",
                },
            )
        for k in range(board.m + 1):
            ET.SubElement(
                svg,
                "line",
                {
                    "x1": str(k * SQUARE),
                    "y1": "0",
                    "x2": str(k * SQUARE),
                    "y2": str(board.n * SQUARE),
                    "stroke": "#ccc",
                    "stroke-width": "1",
                },
            )
    if detailed and labels:
        step = 1 if max(board.n, board.m) <= NUMBERED_UP_TO else 5
        for r in range(0, board.n, step):
            _label(svg, (-MARGIN / 2, (r + 0.5) * SQUARE), str(r), "#555", LABEL_SIZE)
        for c in range(0, board.m, step):
            _label(svg, ((c + 0.5) * SQUARE, -MARGIN / 2), str(c), "#555", LABEL_SIZE)
    ET.SubElement(
        svg,
        "rect",
        {
            "x": "0",
            "y": "0",
            "width": str(board.m * SQUARE),
            "height": str(board.n * SQUARE),
            "fill": "none",
            "stroke": "#333",
            "stroke-width": "1.5",
        },
    )
    return svg


def _start_mark(parent: ET.Element, x: float, y: float, radius: float) -> None:
    """The tour's first square: a disc."""
    ET.SubElement(parent, "circle", {"cx": _f(x), "cy": _f(y), "r": _f(radius), "fill": START, "class": "start"})


def _end_mark(parent: ET.Element, x: float, y: float, radius: float) -> None:
    """The tour's last square: a square mark."""
    side = 2 * radius
    attributes = {"x": _f(x - radius), "y": _f(y - radius), "width": _f(side), "height": _f(side), "fill": END}
    ET.SubElement(parent, "rect", {**attributes, "class": "end"})


def _heat(share: float) -> str:
    """A colour from pale yellow (0) to deep blue (1)."""
    low, high = (255, 247, 188), (37, 52, 148)
    r, g, b = (round(a + (b - a) * min(max(share, 0.0), 1.0)) for a, b in zip(low, high))
    return f"#{r:02x}{g:02x}{b:02x}"
