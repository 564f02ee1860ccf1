"""The characters a submission is read by, said explicitly in formats.py (and ported to the self-check page):
the line breaks are those str.splitlines splits on, the blanks those str.isspace takes, a digit is 0-9 only."""

from __future__ import annotations

import sys

import pytest

from knight.errors import Unreadable
from knight.grading import formats
from knight.grading.formats import LINE_BREAKS, SPACES, parse_bytes, parse_text, too_large

EVERY = [chr(code) for code in range(sys.maxunicode + 1) if not 0xD800 <= code <= 0xDFFF]


def test_the_line_breaks_are_what_splitlines_splits_on():
    assert {ch for ch in EVERY if len(f"a{ch}b".splitlines()) == 2} == set(LINE_BREAKS)
    assert len(LINE_BREAKS) == len(set(LINE_BREAKS))


def test_the_blanks_are_what_isspace_takes_and_not_the_byte_order_mark():
    assert {ch for ch in EVERY if ch.isspace()} == set(SPACES)
    assert "\ufeff" not in SPACES and set(LINE_BREAKS) <= set(SPACES)


TOUR_5 = [
    [1, 14, 9, 20, 3],
    [24, 19, 2, 15, 10],
    [13, 8, 25, 4, 21],
    [18, 23, 6, 11, 16],
    [7, 12, 17, 22, 5],
]


@pytest.mark.parametrize("separator", ["\u2028", "\f", "\x85", "\x1c", "\r", "\r\n", "\u2029", "\v"])
def test_rows_split_at_every_line_break(separator):
    text = separator.join(" ".join(map(str, row)) for row in TOUR_5)
    submission = parse_text(text)
    assert submission.format == "array" and (submission.board.n, submission.board.m) == (5, 5)


@pytest.mark.parametrize("blank", ["\xa0", "\u3000", "\x1f", "\u2007", "\t"])
def test_numbers_split_at_every_blank(blank):
    text = "\n".join(blank.join(map(str, row)) for row in TOUR_5)
    assert len(parse_text(text).squares) == 25


@pytest.mark.parametrize("digit", ["\u0663", "\uff13", "\u0969"])  # Arabic-Indic, fullwidth, Devanagari three
def test_a_number_in_other_digits_is_not_a_number(digit):
    rows = [" ".join(map(str, row)) for row in TOUR_5]
    rows[0] = rows[0].replace("9", digit, 1)  # the row becomes prose: four rows of five are left
    with pytest.raises(Unreadable, match="out of range for a 4x5 board"):
        parse_text("\n".join(rows))
    with pytest.raises(Unreadable, match="no tour found"):
        parse_text(f"({digit}, 0) (2, 1)")


def test_a_byte_order_mark_mid_text_is_a_character_and_nul_is_binary():
    rows = [" ".join(map(str, row)) for row in TOUR_5]
    marked = "\n".join([*rows[:2], "\ufeff" + rows[2], *rows[3:]])
    with pytest.raises(Unreadable, match="out of range for a 2x5 board"):  # the marked row is prose
        parse_text(marked)
    assert len(parse_bytes(("\ufeff" + "\n".join(rows)).encode()).squares) == 25  # a leading mark is the encoding's
    with pytest.raises(Unreadable, match="binary"):
        parse_bytes("\n".join(rows).encode() + b"\x00")


def test_the_size_limit_is_one_line():
    message = too_large()
    assert "\n" not in message and f"{formats.MAX_BYTES // 1_000_000} MB" in message
