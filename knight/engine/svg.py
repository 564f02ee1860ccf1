"""What every board diagram is drawn with, in its units: a square's corner and centre, a length as the picture
writes it, a line, a centred text, the finished picture's text.

The drawings themselves are in :mod:`knight.engine.diagrams`; these are public for a drawing made elsewhere on
one of its boards (grading marks a broken submission's errors on :func:`~knight.engine.diagrams.board_element`).
A square is :data:`SQUARE` units wide, row 0 at the top.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

__all__ = ["SQUARE", "corner", "centre", "length", "line", "label", "to_string"]

SQUARE = 40


def corner(row: int, col: int) -> tuple[float, float]:
    """The top left corner of a square."""
    return col * SQUARE, row * SQUARE


def centre(row: int, col: int) -> tuple[float, float]:
    """The centre of a square."""
    return (col + 0.5) * SQUARE, (row + 0.5) * SQUARE


def length(value: float) -> str:
    """A coordinate or a length as the picture writes it: at most two decimals, no trailing zeros."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def line(
    svg: ET.Element,
    start: tuple[float, float],
    end: tuple[float, float],
    *,
    stroke: str,
    width: float,
    **attributes: str,
) -> None:
    """A straight line between two points (square centres), drawn ``width`` wide."""
    (x1, y1), (x2, y2) = start, end
    ET.SubElement(
        svg,
        "line",
        {
            "x1": length(x1),
            "y1": length(y1),
            "x2": length(x2),
            "y2": length(y2),
            "stroke": stroke,
            "stroke-width": length(width),
            **attributes,
        },
    )


def label(svg: ET.Element, at: tuple[float, float], text: str, colour: str, size: float, *, bold: bool = False) -> None:
    """``text`` centred on the point ``at``, ``size`` units high."""
    x, y = at
    node = ET.SubElement(
        svg,
        "text",
        {
            "x": length(x),
            "y": length(y),
            "fill": colour,
            "font-size": length(size),
            "font-family": "DejaVu Sans, sans-serif",
            "text-anchor": "middle",
            "dominant-baseline": "central",
            **({"font-weight": "bold"} if bold else {}),
        },
    )
    node.text = text


def to_string(svg: ET.Element) -> str:
    """The finished picture as SVG text."""
    return ET.tostring(svg, encoding="unicode")
