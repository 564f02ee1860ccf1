"""Layout measurements of a rendered PDF, read back with PyMuPDF: how full each page is, how small its text.

Both look only inside the page's content box (the page less the @page margins of style.css), so the
running header and footer, which WeasyPrint draws in the margin boxes, are ignored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pymupdf

STYLE = Path(__file__).resolve().parents[1] / "reports" / "templates" / "style.css"
MM = 72 / 25.4


def page_margins(css: Path = STYLE) -> tuple[float, float, float, float]:
    """The @page margins (top, right, bottom, left) in points, read from the stylesheet."""
    rule = re.search(r"@page\s*{[^}]*?margin:\s*([^;]+);", css.read_text()).group(1)
    values = [float(v.removesuffix("mm")) * MM for v in rule.split()]
    top, right, bottom, left = (values * 4)[:4] if len(values) == 1 else (values + values[:2])[:4] \
        if len(values) == 2 else values
    return top, right, bottom, left


@dataclass(frozen=True)
class PageLayout:
    number: int  # 1-based
    fill: float  # (lowest content - top of the content box) / height of the content box
    smallest_text: float  # points; inf on a page without text
    texts: tuple[tuple[float, str], ...]  # (size, text) of every span, for messages


def layout(pdf: Path, css: Path = STYLE) -> list[PageLayout]:
    """Each page's fill and text sizes (spans of whitespace ignored)."""
    top, _, bottom, _ = page_margins(css)
    pages = []
    with pymupdf.open(pdf) as document:
        for number, page in enumerate(document, start=1):
            box_top, box_bottom = top, page.rect.height - bottom
            lowest = box_top
            texts = []
            for block in page.get_text("dict")["blocks"]:
                y0, y1 = block["bbox"][1], block["bbox"][3]
                if y0 >= box_top - 1 and y1 <= box_bottom + 1:
                    lowest = max(lowest, y1)
                    for line in block.get("lines", ()):
                        texts.extend((span["size"], span["text"]) for span in line["spans"] if span["text"].strip())
            for drawing in page.get_drawings():
                rect = drawing["rect"]
                if rect.y0 >= box_top - 1 and rect.y1 <= box_bottom + 1 and rect.height < box_bottom - box_top:
                    lowest = max(lowest, rect.y1)
            pages.append(PageLayout(number=number, fill=(lowest - box_top) / (box_bottom - box_top),
                                    smallest_text=min((size for size, _ in texts), default=float("inf")),
                                    texts=tuple(texts)))
    return pages


def page_fill(pdf: Path) -> list[float]:
    """For each page, how much of its content box is used, top to the lowest text or drawing (0–1)."""
    return [page.fill for page in layout(pdf)]


def font_sizes(pdf: Path) -> list[float]:
    """For each page, the size in points of its smallest text."""
    return [page.smallest_text for page in layout(pdf)]


def small_texts(pdf: Path, below: float) -> list[str]:
    """Every text span set smaller than ``below`` points, as 'page N: SIZE pt "text"' (for messages)."""
    return [f'page {page.number}: {size:.1f} pt "{text.strip()[:40]}"'
            for page in layout(pdf) for size, text in page.texts if size < below - 0.05]
