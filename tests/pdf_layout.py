"""Layout measurements of a rendered PDF, for the report's tests (the handout's and the key's).

Two measurements, both with PyMuPDF (``pymupdf``, in the ``dev`` extras):

- :func:`font_sizes` — the smallest font size of each page's text; :func:`smallest_font` — the smallest
  of all (a test asserts ``smallest_font(pdf) >= 7``);
- :func:`page_fill` — how full each page is: for each page, (bottom of the lowest text or drawing
  inside the page's content box − top of the content box) / content box height. 1.0 is a page
  filled to its bottom margin, 0.0 an empty one. The running header and footer live in the
  ``@page`` margin boxes, outside the content box, and are ignored.

The content box is the page less the ``@page`` margins, read from ``knight/report/templates/style.css``
by :func:`page_margins` unless given (``margins=(top, right, bottom, left)`` in points).
Sizes are in PDF points (1 pt = 1/72 in); :data:`MM` converts millimetres.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pymupdf

STYLE = Path(__file__).resolve().parent.parent / "knight" / "report" / "templates" / "style.css"
#: Points per millimetre.
MM = 72 / 25.4
_UNITS = {"mm": MM, "cm": 10 * MM, "in": 72.0, "pt": 1.0, "px": 0.75}


def page_margins(css: Path = STYLE) -> tuple[float, float, float, float]:
    """The ``margin`` of the first ``@page`` rule of ``css`` that sets one, as (top, right, bottom, left) in
    points (CSS shorthand: one to four lengths in mm, cm, in, pt or px)."""
    for rule in re.finditer(r"@page\s*(?::\w+\s*)?\{(.*?)\}", css.read_text(), flags=re.S):
        found = re.search(r"(?<![\w-])margin\s*:\s*([^;}]+)", rule.group(1))
        if found:
            lengths = [_points(value) for value in found.group(1).split()]
            top, right, bottom, left = {1: lengths * 4, 2: lengths * 2, 3: lengths + lengths[1:2], 4: lengths}[
                len(lengths)
            ]
            return top, right, bottom, left
    raise ValueError(f"no @page margin in {css}")


def font_sizes(pdf_path: Path) -> list[float]:
    """The smallest font size (pt) of each page's non-blank text, page by page (``math.inf`` for a page
    without text). Text drawn inside SVGs counts; PyMuPDF reports sizes as drawn, after any scaling."""
    sizes = []
    with pymupdf.open(pdf_path) as document:
        for page in document:
            found = [
                span["size"]
                for block in page.get_text("dict")["blocks"]
                for line in block.get("lines", ())
                for span in line["spans"]
                if span["text"].strip()
            ]
            sizes.append(min(found, default=math.inf))
    return sizes


def smallest_font(pdf_path: Path) -> float:
    """The smallest font size (pt) used anywhere in the PDF."""
    return min(font_sizes(pdf_path))


def page_fill(pdf_path: Path, margins: tuple[float, float, float, float] | None = None) -> list[float]:
    """For each page, the share of the content box's height that is used: (bottom of the lowest text or
    drawing inside the content box − top of the content box) / content box height.

    ``margins`` is (top, right, bottom, left) in points; by default those of ``style.css``'s ``@page``
    rule. Text and drawings that lie in the margins (the running header and footer) are ignored, and so
    are white fills (page backgrounds).
    """
    top, right, bottom, left = margins or page_margins()
    fills = []
    with pymupdf.open(pdf_path) as document:
        for page in document:
            box = pymupdf.Rect(page.rect.x0 + left, page.rect.y0 + top, page.rect.x1 - right, page.rect.y1 - bottom)
            lowest = box.y0
            for rect in _content_rects(page):
                if rect.y1 > box.y0 + 0.5 and rect.y0 < box.y1 - 0.5:  # not in the top or bottom margin
                    lowest = max(lowest, min(rect.y1, box.y1))
            fills.append((lowest - box.y0) / box.height)
    return fills


def _content_rects(page: pymupdf.Page) -> list[pymupdf.Rect]:
    rects = [
        pymupdf.Rect(span["bbox"])
        for block in page.get_text("dict")["blocks"]
        for line in block.get("lines", ())
        for span in line["spans"]
        if span["text"].strip()
    ]
    for drawing in page.get_drawings():
        white_fill_only = drawing.get("fill") == (1.0, 1.0, 1.0) and not drawing.get("color")
        if not white_fill_only:  # a rule is a drawing of zero height: it counts
            rects.append(pymupdf.Rect(drawing["rect"]))
    return rects


def _points(length: str) -> float:
    match = re.fullmatch(r"(-?[\d.]+)([a-z]*)", length.strip())
    if not match:
        raise ValueError(f"cannot read the length {length!r}")
    value, unit = float(match.group(1)), match.group(2) or "px"
    if unit not in _UNITS:
        raise ValueError(f"unknown unit in {length!r}")
    return value * _UNITS[unit]


def small_texts(pdf_path: Path, below: float) -> list[str]:
    """Every text span set smaller than ``below`` points, as 'page N: SIZE pt "text"' (for failure messages)."""
    found = []
    with pymupdf.open(pdf_path) as document:
        for number, page in enumerate(document, start=1):
            found += [
                f'page {number}: {span["size"]:.1f} pt "{span["text"].strip()[:40]}"'
                for block in page.get_text("dict")["blocks"]
                for line in block.get("lines", ())
                for span in line["spans"]
                if span["text"].strip() and span["size"] < below - 0.05
            ]
    return found


def heading_positions(
    pdf_path: Path, labels: list[str], *, size: float = 11.0, margins: tuple[float, float, float, float] | None = None
) -> dict[str, tuple[int, float]]:
    """Where each heading that starts with one of ``labels`` (a question's number, as "A1") stands: label ->
    (page number from 1, the top of its line as a share of the content box's height: 0 at its top, 1 at its foot).
    A heading is a line whose first word is the label, in a bold font at ``size`` pt or more (the key's question
    headings are 11.5 pt; its table of answers at a glance names the questions in 8 pt)."""
    top, _, bottom, _ = margins or page_margins()
    wanted, found = set(labels), dict[str, tuple[int, float]]()
    with pymupdf.open(pdf_path) as document:
        for number, page in enumerate(document, start=1):
            height = page.rect.height - top - bottom
            for block in page.get_text("dict")["blocks"]:
                for line in block.get("lines", ()):
                    first = next((span for span in line["spans"] if span["text"].strip()), None)
                    heading = first is not None and first["size"] >= size and "Bold" in first["font"]
                    label = first["text"].split()[0] if first is not None and heading else ""
                    if label in wanted:
                        found.setdefault(label, (number, (line["bbox"][1] - top) / height))
    return found


#: A program listing's line numbers (style.css: ``.code .linenos``) and the ground of the output printed beside it
#: (``.program figure.run pre``), as the PDF draws them.
LINE_NUMBER_COLOUR = 0x999999
OUTPUT_GROUND = (0xFB, 0xFB, 0xF6)


def listing_lines(pdf_path: Path) -> list[list[tuple[int, int]]]:
    """Each program listing of the PDF, in reading order: its numbered lines as (line number, page number from 1).
    A listing is a run of line numbers (monospace figures in :data:`LINE_NUMBER_COLOUR`) counting up from 1."""
    listings: list[list[tuple[int, int]]] = []
    with pymupdf.open(pdf_path) as document:
        for number, page in enumerate(document, start=1):
            for block in page.get_text("dict")["blocks"]:
                for line in block.get("lines", ()):
                    for span in line["spans"]:
                        text = span["text"].strip()
                        if span["color"] != LINE_NUMBER_COLOUR or not text.isdigit() or "Mono" not in span["font"]:
                            continue
                        if int(text) == 1 or not listings or int(text) <= listings[-1][-1][0]:
                            listings.append([])
                        listings[-1].append((int(text), number))
    return listings


def output_blocks(pdf_path: Path) -> list[tuple[int, float, float]]:
    """Each block of a program's output (its ground in :data:`OUTPUT_GROUND`; a block split by a page break counts
    once on each page), in reading order: (page number from 1, top, bottom) in points from the page's top."""
    found = []
    with pymupdf.open(pdf_path) as document:
        for number, page in enumerate(document, start=1):
            for drawing in page.get_drawings():
                fill = drawing.get("fill")
                if fill and tuple(round(255 * c) for c in fill) == OUTPUT_GROUND:
                    found.append((number, drawing["rect"].y0, drawing["rect"].y1))
    return sorted(found)


def number_sizes(pdf_path: Path, page_number: int, fonts: tuple[str, ...], colours: tuple[int, ...]) -> list[float]:
    """The sizes (pt) of the text spans on one page (from 1) that are numbers alone ("304", "524,486") set in one of
    ``fonts`` (PostScript names, as "DejaVuSans") in one of ``colours`` (0xRRGGBB): the numbers of a drawing."""
    with pymupdf.open(pdf_path) as document:
        page = document[page_number - 1]
        return [
            span["size"]
            for block in page.get_text("dict")["blocks"]
            for line in block.get("lines", ())
            for span in line["spans"]
            if re.fullmatch(r"\d[\d,]*", span["text"].strip())
            and span["font"].split("+")[-1] in fonts
            and span["color"] in colours
        ]
