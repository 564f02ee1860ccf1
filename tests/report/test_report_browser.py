"""The HTML edition in a browser: Debian's Chromium, headless, driven by Playwright.

A small store made by `knight run`, both editions rendered from it without PDF, then opened at a
phone's width (375 px) and a projector's (1280 px): no console errors, nothing wider than the
screen, every element id unique, and each tour playable step by step (and shown whole without
JavaScript). `make test` installs Chromium with apt-get when it is missing (Playwright's own browser
download is not used).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest
from browser_helpers import OVERFLOWING, badly_fitting_tables, open_page, uneven_board_figures
from report_helpers import SMALL_JOB
from runner_helpers import knight, write_job

from knight.engine import Board, find_tour
from knight.engine.diagrams import tour_svg
from knight.report.charts import distributions_svg

PHONE, PROJECTOR = 375, 1280

#: test_report's job (enough for the answer key), and what widens the tables as the shipped jobs do:
#: random ties with ten seeds and every tie-break on 8 x 8, and rectangles for the success maps.
WIDER = """
[[sweep]]
boards = [5, 6, 8]
starts = "all"
method = "warnsdorff"
params = { tie = "lookahead-sum" }
[[sweep]]
boards = [8]
starts = "all"
method = "warnsdorff"
params = { tie = "random" }
repeats = 10
[[sweep]]
boards = [8]
starts = [[0, 0]]
method = "warnsdorff"
params = { tie = ["squirrel", "squirrel-table"] }
[[sweep]]
boards = ["5..8x9..13"]
starts = [[0, 0]]
method = "warnsdorff"
params = { tie = ["first", "roth"] }
"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, Path]:
    """Both editions, as HTML, from a small store."""
    directory = tmp_path_factory.mktemp("browser")
    store = directory / "knight.sqlite"
    job = write_job(directory, "browser-test", SMALL_JOB + WIDER)
    done = knight(["run", str(job), "--workers", "2"], store, timeout=300)
    assert done.returncode == 0, done.stderr
    done = knight(
        [
            "report",
            "--store",
            str(store),
            "--out",
            str(directory),
            "--no-pdf",
            "--edition",
            "key",
            "--edition",
            "handout",
        ],
        store,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return {"key": directory / "knights-tour.html", "handout": directory / "knights-tour-handout.html"}


@pytest.mark.parametrize("edition", ["key", "handout"])
@pytest.mark.parametrize("width", [PHONE, PROJECTOR])
def test_no_console_errors_and_nothing_overflows(browser, pages, edition, width):
    page, errors = open_page(browser, pages[edition], width)
    try:
        assert errors == []
        scroll_width = page.evaluate("document.documentElement.scrollWidth")
        assert scroll_width <= width, "\n".join(
            [f"the page is {scroll_width} px wide at {width} px:", *page.evaluate(OVERFLOWING, width)]
        )
    finally:
        page.context.close()


def test_the_player_steps_through_a_tour(browser, pages):
    page, errors = open_page(browser, pages["key"], PHONE)
    try:
        tours = page.locator("svg.tour")
        # the tours drawn as paths (C1, C3, D2 from this store); the homework's are numbered boards, as a program prints
        assert tours.count() >= 3 and page.locator(".player").count() == tours.count()
        figure = page.locator("figure:has(svg.tour)").first
        counter = figure.locator(".player output")
        last = len(figure.locator("polyline.path").get_attribute("points").split())
        assert counter.text_content() == f"{last} / {last}"  # the whole tour, as without the player

        figure.get_by_role("button", name="first square").click()
        assert counter.text_content() == f"1 / {last}"
        assert figure.locator('[data-step="1"]').is_visible() and not figure.locator('[data-step="2"]').is_visible()
        figure.get_by_role("button", name="step forward").click()
        assert counter.text_content() == f"2 / {last}"
        assert figure.locator('[data-step="2"]').is_visible() and not figure.locator('[data-step="3"]').is_visible()
        assert len(figure.locator("polyline.path").get_attribute("points").split()) == 2

        figure.get_by_role("button", name="play").click()
        page.wait_for_function("(o) => parseInt(o.textContent) > 3", arg=counter.element_handle(), timeout=5000)
        figure.get_by_role("button", name="pause").click()
        assert errors == []
    finally:
        page.context.close()


def test_without_javascript_every_step_shows(browser, pages):
    page, errors = open_page(browser, pages["key"], PHONE, javascript=False)
    assert errors == []
    try:
        assert page.locator(".player").count() == 0
        tours = page.evaluate("""[...document.querySelectorAll("svg.tour")].map((tour) => ({
          squares: tour.querySelector("polyline.path").getAttribute("points").trim().split(/\\s+/).length,
          steps: [...tour.querySelectorAll("[data-step]")].map((e) => +e.getAttribute("data-step")),
          numbered: tour.querySelectorAll("text").length > 0,
          hidden: [...tour.querySelectorAll("[data-step], polyline.path")].filter(
            (e) => !e.checkVisibility({visibilityProperty: true, opacityProperty: true})).length}))""")
        assert len(tours) >= 3
        for tour in tours:  # a numbered tour has every step; a thumbnail (no text) its path, start and end
            expected = set(range(1, tour["squares"] + 1)) if tour["numbered"] else {1, tour["squares"]}
            assert set(tour["steps"]) == expected and tour["hidden"] == 0
    finally:
        page.context.close()


@pytest.mark.parametrize("edition", ["key", "handout"])
def test_element_ids_are_unique(pages, edition):
    ids = ElementIds()
    ids.feed(pages[edition].read_text(encoding="utf-8"))
    assert ids.found, "no ids at all: the page's anchors are missing"
    assert [name for name, count in Counter(ids.found).items() if count > 1] == []


def test_two_charts_share_no_id_and_a_chart_keeps_its_ids():
    first = distributions_svg({"a": [1, 2, 2, 3]}, xlabel="x")
    second = distributions_svg({"b": [5, 5, 6]}, xlabel="x")
    assert not set(_ids(first)) & set(_ids(second))
    assert distributions_svg({"a": [1, 2, 2, 3]}, xlabel="x") == first  # deterministic, for byte-identical HTML
    for svg in (first, second):  # every reference points into the same chart
        ids = set(_ids(svg))
        references = {
            value[1:]
            for element in ET.fromstring(svg).iter()
            for key, value in element.attrib.items()
            if key.endswith("href") and value.startswith("#")
        }
        assert references and references <= ids


def test_a_tour_diagram_marks_each_step_for_the_player():
    tour = find_tour(Board(5, 5), (0, 0), "warnsdorff")
    svg = ET.fromstring(tour_svg(tour))
    assert "tour" in svg.get("class").split()
    ns = "{http://www.w3.org/2000/svg}"
    assert len(svg.find(f"{ns}polyline").get("points").split()) == tour.length
    steps = [int(element.get("data-step")) for element in svg.iter() if element.get("data-step")]
    assert steps == list(range(1, tour.length + 1))
    assert not _ids(tour_svg(tour))


@pytest.mark.parametrize("edition", ["key", "handout"])
def test_every_table_fits_a_phone_and_no_row_is_tall(browser, pages, edition):
    """At 390 px every table fits the column it stands in (nothing scrolled or cut off) and no row is a tower."""
    assert badly_fitting_tables(browser, pages[edition]) == []


def test_the_boards_of_one_figure_are_drawn_at_one_size(browser, pages):
    """Within each row or group of boards every square is drawn at one width, whatever the board's size, so that
    boards side by side compare square for square (the default jobs' key is checked in test_answer_key)."""
    groups, uneven = uneven_board_figures(browser, pages["key"])
    assert groups >= 4 and uneven == []


class ElementIds(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.found += [value for name, value in attrs if name == "id"]

    handle_startendtag = handle_starttag


def _ids(svg: str) -> list[str]:
    return [element.get("id") for element in ET.fromstring(svg).iter() if element.get("id")]
