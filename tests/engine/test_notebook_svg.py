"""A tour's and a census's picture in a notebook carry a width and a height (issue 29, item 7): a board at its
own size (40 px a square), a large one shrunk to 480 px on its longer side, the aspect kept; the report's
pictures, sized by its CSS, stay without."""

from __future__ import annotations

import re

import pytest

import knight
from knight.engine.diagrams import NOTEBOOK_LARGEST, sized, tour_svg

SIZE = re.compile(r'<svg width="(\d+)" height="(\d+)" [^>]*viewBox="[-\d.]+ [-\d.]+ ([\d.]+) ([\d.]+)"')


def size(svg: str) -> tuple[int, int, float, float]:
    match = SIZE.match(svg)
    assert match, svg[:200]
    width, height, box_width, box_height = match.groups()
    return int(width), int(height), float(box_width), float(box_height)


@pytest.mark.parametrize(("n", "m"), [(5, 5), (8, 8), (6, 10), (30, 30), (40, 60)])
def test_a_tour_shows_at_a_sensible_size(n, m):
    width, height, box_width, box_height = size(knight.tour(n, m, method="find")._repr_svg_())
    assert max(width, height) <= NOTEBOOK_LARGEST
    assert abs(width / height - box_width / box_height) < 0.01
    if max(box_width, box_height) <= NOTEBOOK_LARGEST:
        assert (width, height) == (box_width, box_height)  # one pixel a unit: 40 a square
    else:
        assert max(width, height) == NOTEBOOK_LARGEST


def test_a_census_shows_at_its_own_size():
    width, height, box_width, box_height = size(knight.census(5)._repr_svg_())
    assert (width, height) == (box_width, box_height) == (236, 236)


def test_the_report_keeps_its_pictures_unsized():
    drawn = tour_svg(knight.tour(8))
    assert not drawn.startswith("<svg width") and sized(drawn).startswith('<svg width="356" height="356" ')


def test_sized_refuses_what_it_did_not_draw():
    with pytest.raises(ValueError, match="view box"):
        sized("<svg><rect/></svg>")
