"""The HTML report in a browser, measured: what overflows a screen, tables that do not fit a phone, boards of one
figure drawn at different sizes. The browser itself is the `browser` fixture (conftest.py)."""

from __future__ import annotations

from pathlib import Path

from knight.engine.diagrams import SQUARE

#: The issue's phone (390 CSS px) and the PDF's measure in CSS px (A4 less 16 mm margins each side: 178 mm).
NARROW_PHONE, PRINTED_MEASURE = 390, round(178 / 25.4 * 96)
#: No table row taller than this on a phone (fifteen lines of text and more were seen before it was set).
TALLEST_ROW = 600

#: The outermost elements that reach past the screen's right edge, not counting what a box scrolls or clips.
OVERFLOWING = """(width) => {
  const scrolled = (element) => {
    for (let box = element.parentElement; box && box !== document.body; box = box.parentElement) {
      if (getComputedStyle(box).overflowX !== "visible") return true;
    }
    return false;
  };
  const wide = new Set([...document.body.querySelectorAll("*")].filter(
    (e) => e.getBoundingClientRect().right > width + 0.5 && !scrolled(e)));
  return [...wide].filter((e) => !wide.has(e.parentElement)).slice(0, 20).map(
    (e) => `<${e.tagName.toLowerCase()} class="${e.getAttribute("class") || ""}"> reaches `
           + `${Math.round(e.getBoundingClientRect().right)} px: `
           + e.textContent.replace(/\\s+/g, " ").trim().slice(0, 60));
}"""


def open_page(browser, path: Path, width: int, *, javascript: bool = True):
    """The page at ``width`` CSS pixels, with every console error and uncaught exception it reports."""
    context = browser.new_context(viewport={"width": width, "height": 900}, java_script_enabled=javascript)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(f"uncaught: {error}"))
    page.goto(path.as_uri())
    return page, errors


#: Every table: its width and the room its container gives it, and its tallest row.
TABLES = """() => [...document.querySelectorAll("table")].map((table) => ({
  where: (table.closest("section[id], article[id]") || document.body).id + " " + table.className,
  width: Math.max(table.scrollWidth, Math.ceil(table.getBoundingClientRect().width)),
  room: table.parentElement.clientWidth,
  tallest: Math.round(Math.max(0, ...[...table.rows].map((row) => row.getBoundingClientRect().height)))}))"""

#: Every board drawn in a figure, grouped by the figure (a row or group of boards) it stands in: the width one
#: square is drawn at (the drawing's width times its square's share of the view box's width).
BOARD_SQUARES = """(square) => {
  const groups = new Map();
  for (const svg of document.querySelectorAll("figure svg.board")) {
    if (svg.closest(".numbers-layer")) continue;  // a numbered board's numbers, drawn over its board
    const group = svg.closest(".figures, .pairs, .numbered-row, .side, section[id]");
    const drawn = svg.getBoundingClientRect().width * square / svg.viewBox.baseVal.width;
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group).push(Math.round(drawn * 10) / 10);
  }
  return [...groups].map(([group, squares]) => ({where: group.closest("section[id]").id + " " + group.className,
                                                 squares}));
}"""


def badly_fitting_tables(browser, html: Path) -> list[str]:
    """The tables of ``html`` at 390 px wider than the column they stand in (scrolled or cut off), or with a row
    taller than :data:`TALLEST_ROW`; an empty list when all fit."""
    page, errors = open_page(browser, html, NARROW_PHONE)
    try:
        tables = page.evaluate(TABLES)
        assert tables and errors == []
        wide = [f"{t['where']}: {t['width']} px in {t['room']} px" for t in tables if t["width"] > t["room"]]
        tall = [f"{t['where']}: a row {t['tallest']} px tall" for t in tables if t["tallest"] > TALLEST_ROW]
        return wide + tall
    finally:
        page.context.close()


def uneven_board_figures(browser, html: Path) -> tuple[int, list[dict]]:
    """The key as printed (print styles, the PDF's measure): how many figures show two boards or more, and those whose
    squares are not all drawn at one width (within 2 %)."""
    page, _ = open_page(browser, html, PRINTED_MEASURE)
    try:
        page.emulate_media(media="print")
        groups = page.evaluate(BOARD_SQUARES, SQUARE)
        uneven = [g for g in groups if max(g["squares"]) > 1.02 * min(g["squares"])]
        return sum(len(g["squares"]) > 1 for g in groups), uneven
    finally:
        page.context.close()
