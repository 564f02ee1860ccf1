"""The Python API: what `import knight` offers, and how its results show themselves in a notebook."""

from __future__ import annotations

import doctest
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import knight
from knight.engine import api

SVG = "{http://www.w3.org/2000/svg}"

#: The public API, pinned: a name added or dropped here is a decision, written in the README's "Python API".
PUBLIC = {
    "__version__",
    "Board",
    "Tour",
    "tour",
    "find_tour",
    "census",
    "open_tour_verdict",
    "closed_tour_verdict",
    "METHODS",
    "TIE_BREAKS",
    "HORIZONTAL",
    "VERTICAL",
    "KnightError",
    "InvalidInput",
    "InvalidTour",
    "JobError",
    "Unreadable",
    "StoreError",
    "StoreVersionError",
    "MissingData",
    "PathNotKept",
    "RenderError",
    "MissingExtra",
}


def test_the_public_api_is_pinned():
    assert set(knight.__all__) == PUBLIC
    assert len(knight.__all__) == len(PUBLIC)  # each name once


def test_the_examples_in_the_api_docstrings_hold():
    assert doctest.testmod(api).failed == 0


def test_tour_takes_sizes_as_numbers_and_checks_its_input():
    square = knight.tour(8)
    assert square.full and square.board == knight.Board(8, 8) and square.start == (0, 0)
    rectangle = knight.tour(5, 6, start=(2, 3), tie="roth")
    assert rectangle.board == knight.Board(5, 6) and rectangle.start == (2, 3) and rectangle.params["tie"] == "roth"
    assert knight.tour(knight.Board(6, 6), method="parberry").closed
    with pytest.raises(knight.InvalidInput):
        knight.tour(8, start=(8, 0))
    with pytest.raises(knight.InvalidInput):
        knight.tour(8, method="no-such-method")


def test_census_takes_sizes_as_numbers():
    counted = knight.census(5)
    assert counted.total == 1728 and counted.board == knight.Board(5, 5)
    assert knight.census(knight.Board(3, 4)).total == knight.census(3, 4).total > 0
    assert knight.census(6, closed=True).cycles == 9862


def _svg(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg"
    return root


def test_a_tour_shows_itself_as_its_board_in_a_notebook():
    tour = knight.tour(8)
    root = _svg(tour._repr_svg_())
    numbers = [int(t.text) for t in root.iter(f"{SVG}text") if t.text and t.text.isdigit() and int(t.text) > 7]
    assert set(range(8, 65)) <= set(numbers)  # every visit number past the labels 0..7 is drawn
    path = next(e for e in root.iter(f"{SVG}polyline") if "path" in e.get("class", ""))
    assert len(path.get("points").split()) == 64
    assert "64 of 64 squares" in repr(tour) and "open" in repr(tour)
    assert "partial" in repr(knight.tour(5, start=(0, 1)))


def test_a_board_too_big_to_draw_falls_back_to_text():
    big = knight.tour(102, tie="roth")
    assert big._repr_svg_() is None
    assert "102x102" in repr(big)


def test_a_census_shows_its_counts_per_start_square():
    counted = knight.census(5)
    root = _svg(counted._repr_svg_())
    shown = {int(t.text) for t in root.iter(f"{SVG}text") if t.text and t.text.isdigit()}
    assert {int(v) for v in np.unique(counted.counts)} <= shown  # 304, 56, 64 and 0 are all printed


def test_import_knight_stays_light():
    code = "import sys, knight; print(sorted(m for m in ('numpy', 'numba', 'typer', 'jinja2') if m in sys.modules))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]"
