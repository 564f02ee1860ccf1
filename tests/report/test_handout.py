"""The student handout: a worksheet rendered from questions.toml alone, checked in its HTML and its PDF.

It is rendered without any store (the handout shows no result), on A4 and on Letter; the give-away
test also builds a small store, renders the answer key from it and checks that no number the key
answers with is printed in the handout.
"""

from __future__ import annotations

import html
import re
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pymupdf
import pytest
from pdf_layout import MM, font_sizes, page_fill, page_margins, smallest_font
from report_helpers import SMALL_JOB, html_text, numbers, pdf_pages
from runner_helpers import knight, write_job

from knight.engine import HORIZONTAL, VERTICAL, Board
from knight.engine.diagrams import MARGIN, SQUARE, WORKSHEET_DARK, WORKSHEET_LIGHT, empty_board_svg
from knight.report.handout import GRID_LEGEND, SCRIPT_AS_PRINTED, script_as_printed
from knight.report.questions import documents, labels, questions

HANDOUT = "knights-tour-handout"
#: The colours of an empty board's light background and of its dark squares (knight.engine.diagrams).
LIGHT, DARK = (tuple(int(colour[k : k + 2], 16) for k in (1, 3, 5)) for colour in (WORKSHEET_LIGHT, WORKSHEET_DARK))


def render_handout(tmp: Path, *args: str) -> Path:
    """`knight report --edition handout` with a store path that does not exist; returns the output directory."""
    store = tmp / "no-store.sqlite"
    out = tmp / "out"
    done = knight(
        ["report", "--edition", "handout", "--store", str(store), "--out", str(out), *args], store, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert not store.exists()  # the handout never opens a store
    return out


@pytest.fixture(scope="module")
def a4(tmp_path_factory) -> Path:
    return render_handout(tmp_path_factory.mktemp("handout-a4"))


@pytest.fixture(scope="module")
def letter(tmp_path_factory) -> Path:
    return render_handout(tmp_path_factory.mktemp("handout-letter"), "--paper", "letter")


def page_html(out: Path) -> str:
    return (out / f"{HANDOUT}.html").read_text(encoding="utf-8")


#: The grey a listing's line numbers are printed in (handout CSS: figure.listing .number).
GREY = 0x888888


def pdf_spans(path: Path) -> list[tuple[str, int]]:
    """Every span of text in the PDF, stripped, with its colour (0xrrggbb)."""
    with pymupdf.open(path) as document:
        return [
            (span["text"].strip(), span["color"])
            for page in document
            for block in page.get_text("dict")["blocks"]
            for line in block.get("lines", ())
            for span in line["spans"]
        ]


def test_renders_without_a_store(a4):
    assert (a4 / f"{HANDOUT}.html").stat().st_size > 0
    with pymupdf.open(a4 / f"{HANDOUT}.pdf") as document:
        assert document.page_count > 1
        assert (round(document[0].rect.width), round(document[0].rect.height)) == (595, 842)  # A4


def test_every_question_has_its_anchor_in_the_documents_order(a4):
    order = list(documents())
    expected = [q.anchor for q in sorted(questions(), key=lambda q: order.index(q.document))]
    assert expected == [q.anchor for q in questions()]  # questions.toml lists them in the documents' order
    anchors = re.findall(r'\bid="(q-[^"]+)"', page_html(a4))
    assert anchors == expected
    headings = re.findall(r'<section class="document" id="([^"]+)"', page_html(a4))
    assert headings == order


def test_every_part_is_asked_as_a_question(a4):
    text = html_text(page_html(a4))
    # a line broken after a word's hyphen ("brute-" / "force") is read whole
    printed = re.sub(r"(\w)- (\w)", r"\1-\2", " ".join(pdf_pages(a4 / f"{HANDOUT}.pdf")))
    for question in questions():
        for part in question.parts:
            assert part.ask.endswith("?"), (question.id, part.ask)
            assert part.ask in text, (question.id, part.ask)
            assert part.ask in printed, (question.id, part.ask)


def test_name_and_date_line_on_the_first_page(a4):
    first = pdf_pages(a4 / f"{HANDOUT}.pdf")[0]
    assert re.search(r"Name: .*Date: .*Class:", first)


def test_one_empty_board_per_board_asked_for(a4):
    """Every board asked for and every outcome grid is printed, in the page's order: a board to number with
    room for a number in each square, a grid to mark with room for a mark (its labels 7 pt, checked below)."""
    markup = page_html(a4)
    asked = sum(len(q.boards) for q in questions())
    assert markup.count('<figure class="empty-board') == asked
    grids = sum(len(part.grids) for q in questions() for part in q.parts)
    assert markup.count('<figure class="outcome-grid') == grids
    figures = re.findall(r'<figure class="(empty-board|outcome-grid) size-(\d+)', markup)
    boards = printed_boards(a4 / f"{HANDOUT}.pdf")
    assert [side for side, _ in boards] == [int(side) for _, side in figures]
    for (kind, _), (side, width) in zip(figures, boards, strict=True):
        if kind == "empty-board":  # room to write a number in every square
            assert width / side >= 9 * MM, (side, width / MM)
        else:  # room for a tick or a number of squares reached
            assert width / side >= 6 * MM, (side, width / MM)  # the squares, without the labels


def test_one_board_per_start_with_the_start_marked(a4):
    markup = page_html(a4)
    with_starts = [q for q in questions() if q.starts]
    assert with_starts, "questions.toml names the four starts of Homework #8"
    for question in with_starts:
        assert len(question.starts) == len(question.boards)
        block = article(markup, question)
        captions = [caption.replace("\u00a0", " ") for caption in re.findall(r"<figcaption>(.*?)</figcaption>", block)]
        assert captions == [f"from ({r}, {c})" for r, c in question.starts]
        assert block.count('class="start"') == len(question.starts)


def article(markup: str, question) -> str:
    """The HTML of one question of the handout."""
    return re.search(rf'<article [^>]*id="{question.anchor}".*?</article>', markup, flags=re.S).group(0)


def part_blocks(block: str) -> list[str]:
    """The HTML of each part of a question, in order."""
    return re.split(r'(?=<div class="part )', block.split('<div class="parts">', 1)[1])[1:]


def test_extension_tag_beside_the_marked_questions_and_parts(a4):
    markup = page_html(a4)
    marked = [q for q in questions() if q.extension or any(part.extension for part in q.parts)]
    assert marked, "questions.toml marks no extension"
    tag = '<span class="extension">Extension</span>'
    for question in questions():
        block = article(markup, question)
        label = re.search(r'<p class="quote">.*?</p>', block, flags=re.S).group(0)
        assert (tag in label) == question.extension, question.id
        asks = [re.search(r'<p class="ask">.*?</p>', part, flags=re.S).group(0) for part in part_blocks(block)]
        assert [tag in ask for ask in asks] == [part.extension for part in question.parts], question.id
    # the sheet says what the tag means, and the PDF prints every tag
    marks = sum(q.extension for q in questions()) + sum(p.extension for q in questions() for p in q.parts)
    assert markup.count(tag) == marks + 1
    assert " ".join(pdf_pages(a4 / f"{HANDOUT}.pdf")).upper().count("EXTENSION") == marks + 1


def test_questions_that_need_more_than_the_course_say_so(a4):
    """The teacher's review: the searches and the papers the students do not have are extensions, and the
    terms the blog's questions use are defined where they are asked."""
    by_id = {q.id: q for q in questions()}
    assert by_id["eiffel-closed"].parts[1].extension  # the closed tours of 6 x 6: a full search
    assert by_id["eiffel-all"].parts[1].extension  # every tour of 6 x 6: a full search
    assert by_id["blog-w-plus"].extension  # W+ needs Squirrel & Cull's paper
    assert any(part.extension for part in by_id["blog-wozniak"].parts)  # Knuth's estimator is a program
    for needed, question in [
        ("Knuth's estimator", "blog-wozniak"),
        ("W+", "blog-w-plus"),
        ("W2", "blog-w-plus"),
        ("join property", "eiffel-parberry"),
        ("lookahead-min", "blog-ties"),
        ("Roth", "blog-ties"),
    ]:
        assert needed in by_id[question].handout_note, (question, needed)
    for question in questions():
        if question.handout_note:
            block = article(page_html(a4), question)
            note = re.search(r'<p class="note">(.*?)</p>', block, flags=re.S).group(1)
            assert "<em>" in note  # *words* emphasised
            assert re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", note))) == re.sub(
                r"\s+", " ", question.handout_note.replace("*", "")
            )
    # "different tours" and "tie-break" are defined before the first question
    markup = page_html(a4)
    conventions = html_text(re.search(r'<section class="conventions">.*?</section>', markup, flags=re.S).group(0))
    for term in ("as sequences", "up to reversal", "up to symmetry", "tie-break"):
        assert term in conventions, term
    assert "as sequences" in html_text(part_blocks(article(markup, by_id["eiffel-all"]))[2])  # C2c: how to count


def test_a_single_part_has_no_letter(a4):
    markup = page_html(a4)
    printed = " ".join(pdf_pages(a4 / f"{HANDOUT}.pdf"))
    single = [q for q in questions() if len(q.parts) == 1]
    assert single, "no question with a single part: the test would check nothing"
    for question in questions():
        letters = re.findall(r'<span class="letter">([a-z])\)</span>', article(markup, question))
        if len(question.parts) == 1:
            assert letters == [], question.id
            assert not re.search(r"\ba\) " + re.escape(question.parts[0].ask[:30]), printed), question.id
        else:
            assert letters == list("abcdefgh"[: len(question.parts)]), question.id


def test_a_number_box_per_number_asked(a4):
    markup = page_html(a4)
    for question in questions():
        for part, block in zip(question.parts, part_blocks(article(markup, question)), strict=True):
            boxes = block.count('class="number-box"')
            captions = [html_text(c) for c in re.findall(r'<span class="box-caption">(.*?)</span>', block)]
            if part.space == "number":
                assert boxes == max(1, len(part.boxes)), (question.id, part.ask)
                assert captions == list(part.boxes), (question.id, captions)
            else:
                assert boxes == 0 and not captions, (question.id, part.ask)
    by_id = {q.id: q for q in questions()}
    assert by_id["eiffel-first"].parts[0].boxes == ("5 × 5", "6 × 6", "8 × 8")  # three counts, three boxes
    for id_ in ("homework-5x5", "homework-6x6", "homework-8x8"):  # "how many different tours": all three counts
        assert by_id[id_].parts[-1].boxes == ("as sequences", "up to reversal", "up to symmetry"), id_
    printed = " ".join(pdf_pages(a4 / f"{HANDOUT}.pdf"))
    for caption in ("as sequences", "up to reversal", "up to symmetry", "8 × 8", "lookahead-sum"):
        assert caption in printed, caption


def test_room_for_explanations(a4):
    """A part that asks why, or to explain, gets at least three ruled lines, and a "line" part at least one."""
    markup = page_html(a4)
    for question in questions():
        for part, block in zip(question.parts, part_blocks(article(markup, question)), strict=True):
            rules = block.count('class="rule"')
            if re.search(r"\b(why|explain)\b", part.ask, flags=re.I) or part.space == "lines":
                assert rules >= 3, (question.id, part.ask, rules)
            if part.space == "line":
                assert rules >= 1, (question.id, part.ask)


def test_board_sizes_never_break_across_lines(a4, letter):
    markup = page_html(a4)
    text = html.unescape(re.sub(r"<[^>]+>", "", re.sub(r"<(style|title)\b.*?</\1>", " ", markup, flags=re.S)))
    assert "\u00a0×\u00a0" in text
    assert not re.search(r"\s×|×\s", text.replace("\u00a0×\u00a0", "")), "a × without no-break spaces"
    for out in (a4, letter):
        with pymupdf.open(out / f"{HANDOUT}.pdf") as document:
            for page in document:
                for block in page.get_text("dict")["blocks"]:
                    for line in block.get("lines", ()):
                        printed = "".join(span["text"] for span in line["spans"]).strip()
                        assert not printed.endswith("×") and not printed.startswith("×"), printed


def test_no_appendix_no_hashes_no_commit(a4):
    markup = page_html(a4)
    text = html_text(markup)
    for word in ("Appendix", "commit", "generated", "sha256", "Contents"):
        assert word.lower() not in text.lower(), word
    assert not re.search(r"\b[0-9a-f]{7,64}\b", text)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_no_small_text_and_pages_well_filled(paper, a4, letter):
    pdf = (a4 if paper == "a4" else letter) / f"{HANDOUT}.pdf"
    assert smallest_font(pdf) >= 7
    assert all(size < float("inf") for size in font_sizes(pdf))  # text on every page
    fills = page_fill(pdf)
    assert len(fills) > 1
    assert all(fill >= 0.6 for fill in fills[:-1]), [round(fill, 2) for fill in fills]
    assert all(fill <= 1.0 for fill in fills)


def test_empty_board_marks_its_start():
    svg = empty_board_svg(Board(6, 6), start=(1, 2))
    assert svg.count('class="start"') == 1 and ">1</text>" in svg
    assert 'class="start"' not in empty_board_svg(Board(6, 6))
    with pytest.raises(ValueError):
        empty_board_svg(Board(6, 6), start=(6, 0))


def test_handout_gives_no_answer_away(a4, tmp_path):
    """No number of two or more digits that the key gives as an answer is printed in the handout, except
    numbers the documents print (the questions' quotes and asks) and board coordinates and sizes."""
    job = write_job(tmp_path, "report-test", SMALL_JOB)
    store = tmp_path / "knight.sqlite"
    assert knight(["run", str(job), "--workers", "2"], store, timeout=300).returncode == 0
    out = tmp_path / "out"
    done = knight(
        ["report", "--edition", "key", "--edition", "handout", "--no-pdf", "--store", str(store), "--out", str(out)],
        store,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert page_html(out) == page_html(a4)  # the handout is the same whatever the store holds

    key = (out / "knights-tour.html").read_text(encoding="utf-8")
    cells = re.findall(r'<td\b[^>]*class="[^"]*\bglance-answer\b[^"]*"[^>]*>(.*?)</td>', key, flags=re.S)
    answers = {number for cell in cells for number in numbers(html_text(cell)) if len(number.replace(".", "")) >= 2}
    assert answers, "the key gives no numbers: the test would check nothing"

    allowed = numbers(" ".join(documents().values()))  # the documents' titles: "exercise 7.24"
    for question in questions():
        allowed |= numbers(" ".join([question.quote, *(part.ask for part in question.parts)]))
        for n, m in question.boards:
            allowed |= {str(k) for k in range(max(n, m) + 1)} | {str(n * m)}
    # a listing's line numbers are no answer: left out where they are printed (grey digits), and nowhere else
    pdf = [text for text, colour in pdf_spans(a4 / f"{HANDOUT}.pdf") if not (text.isdigit() and colour == GREY)]
    printed = numbers(re.sub(r"page \d+ of \d+", " ", " ".join(pdf)))
    printed |= numbers(html_text(re.sub(r'<span class="number">\d+</span>', " ", page_html(a4))))
    given_away = (printed & answers) - allowed
    assert not given_away, f"the handout prints answers of the key: {sorted(given_away)}"


def printed_boards(pdf: Path) -> list[tuple[int, float]]:
    """The empty boards drawn in ``pdf``: (side, width in points) of each, its side told by its dark squares
    (an n x n board has n*n // 2 of them)."""
    sides = {n * n // 2: n for n in range(3, 17)}
    found = []
    with pymupdf.open(pdf) as document:
        for page in document:
            drawings = page.get_drawings()
            backgrounds = [d["rect"] for d in drawings if _colour(d.get("fill")) == LIGHT]
            darks = [d["rect"] for d in drawings if _colour(d.get("fill")) == DARK]
            for background in backgrounds:
                inside = sum(
                    background.contains(pymupdf.Point((dark.x0 + dark.x1) / 2, (dark.y0 + dark.y1) / 2))
                    for dark in darks
                )
                found.append((sides[inside], background.width))
    return found


def _colour(rgb) -> tuple[int, int, int] | None:
    return None if not rgb else tuple(round(255 * channel) for channel in rgb)


def test_layout_helpers_measure_what_they_say(tmp_path):
    """tests/pdf_layout.py on a PDF made by hand: the margins of style.css, a page filled to a known depth
    (the header and footer in the margins ignored), and the font sizes."""
    top, right, bottom, left = page_margins()
    assert [round(value / MM, 3) for value in (top, right, bottom, left)] == [18, 16, 20, 16]
    pdf = tmp_path / "made.pdf"
    with pymupdf.open() as document:
        height = 842
        for depth in (0.75, 0.3):
            page = document.new_page(width=595, height=height)
            page.insert_text((300, top - 20), "running header", fontsize=8)  # in the top margin
            page.insert_text((300, height - bottom / 2), "page 1 of 2", fontsize=6)  # in the bottom margin
            page.insert_text((left, top + 20), "a question", fontsize=10)
            box_height = height - top - bottom
            page.draw_line((left, top + depth * box_height), (left + 100, top + depth * box_height))  # a rule
        document.save(pdf)
    assert [round(fill, 2) for fill in page_fill(pdf)] == [0.75, 0.3]
    assert font_sizes(pdf) == [6, 6]  # font sizes count all text, the margins' too


# --- Issue 27, item 6: what the exercises need, pencil-light squares, true references, no answer stated ---


def figures_by_question(markup: str) -> list[tuple[str, str, str]]:
    """(question id, figure kind, its SVG) of every empty board and outcome grid, in the page's order."""
    found = []
    for question in questions():
        block = article(markup, question)
        for kind, svg in re.findall(
            r'<figure class="(empty-board|outcome-grid)[^"]*">(<svg.*?</svg>)', block, flags=re.S
        ):
            found.append((question.id, kind, svg))
    return found


def degrees(n: int, m: int) -> list[list[int]]:
    """How many squares of the empty n x m board reach each square, counted here from the move tables."""
    return [
        [
            sum(0 <= r + dr < n and 0 <= c + dc < m for dr, dc in zip(VERTICAL, HORIZONTAL, strict=True))
            for c in range(m)
        ]
        for r in range(n)
    ]


def test_deitels_accessibility_table_computed_from_the_board(a4):
    """The heuristic questions need Deitel's table: it is printed in A3, the board's degrees, not typed in."""
    markup = page_html(a4)
    by_id = {q.id: q for q in questions()}
    holders = [q.id for q in questions() if '<table class="accessibility">' in article(markup, q)]
    assert holders == ["deitel-heuristic"]
    table = re.search(r'<table class="accessibility">.*?</table>', article(markup, by_id["deitel-heuristic"]), re.S)
    rows = [[int(v) for v in re.findall(r"<td>(\d+)</td>", row)] for row in re.findall(r"<tr>.*?</tr>", table.group(0))]
    assert [row for row in rows if row] == degrees(8, 8)
    assert html_text(table.group(0)).startswith("Deitel's accessibility table")
    printed = " ".join(pdf_pages(a4 / f"{HANDOUT}.pdf"))
    for row in degrees(8, 8):  # row label, then the eight degrees
        assert " ".join(map(str, row)) in printed, row


def test_blog_script_printed_as_the_blog_prints_it(a4):
    """D6 shows the blog's script exactly as printed (package data, a .txt the linters never parse), its lines
    numbered; every line reaches the PDF. The reference programs are the key's, not the worksheet's."""
    lines = script_as_printed()
    assert SCRIPT_AS_PRINTED.endswith(".txt") and len(lines) > 30
    assert not any(line.startswith((" ", "\t")) for line in lines)  # its indentation lost, as in the blog
    assert any("xrange" in line for line in lines) and any("heappush" in line for line in lines)
    markup = page_html(a4)
    holders = [q.id for q in questions() if 'class="listing as-printed"' in article(markup, q)]
    assert holders == ["blog-script"]
    shown = re.findall(r'<span class="number">(\d+)</span><span class="text">(.*?)</span>', markup, flags=re.S)
    assert [int(number) for number, _ in shown] == list(range(1, len(lines) + 1))
    assert [html.unescape(text) for _, text in shown] == lines
    flat = re.sub(r"\s+", "", " ".join(pdf_pages(a4 / f"{HANDOUT}.pdf")))
    assert [line for line in lines if re.sub(r"\s+", "", line) not in flat] == []
    programs = resources.files("knight").joinpath("programs")
    for program in programs.iterdir():
        if program.name.endswith(".py"):
            for line in program.read_text(encoding="utf-8").splitlines():
                if line.startswith("def "):
                    assert line not in html.unescape(markup), (program.name, line)


#: What an ask says when it runs from every start square, and the board side each count of starts is on.
ALL_STARTS = re.compile(r"how many of the (25|36|64)\b|one from each square|any start square", re.I)
SIDES = {"25": 5, "36": 6, "64": 8}


def test_an_outcome_grid_for_every_all_starts_question(a4):
    """Every part run from all start squares has a small board of that size to mark each start's outcome on,
    with what to mark printed beside it: Homework's 25 starts on 5 x 5 and Deitel's 64 on 8 x 8 among them."""
    markup = page_html(a4)
    figures = figures_by_question(markup)
    checked = 0
    for question in questions():
        needed: list[int] = []
        for part in question.parts:
            for found in ALL_STARTS.finditer(part.ask):
                needed.append(SIDES.get(found.group(1) or "", 8))  # "each square", "any start": the chessboard
        grids = sorted(
            int(re.search(r'viewBox="[-\d.]+ [-\d.]+ ([\d.]+)', svg).group(1))
            for q, kind, svg in figures
            if q == question.id and kind == "outcome-grid"
        )
        sides = sorted(round((width - 2 * MARGIN) / SQUARE) for width in grids)
        for side in set(needed):
            assert sides.count(side) >= needed.count(side), (question.id, needed, sides)
            checked += 1
        block = article(markup, question)
        legend = [html_text(text) for text in re.findall(r'<p class="grid-legend">(.*?)</p>', block, flags=re.S)]
        assert len(legend) == (1 if sides else 0), question.id
    assert checked >= 6, "the all-starts asks were not recognised: the test would check little"
    by_id = {q.id: q for q in questions()}
    assert (5, 5) in [grid for part in by_id["homework-5x5"].parts for grid in part.grids]
    assert [grid for part in by_id["deitel-64-tours"].parts for grid in part.grids].count((8, 8)) == 2
    printed = re.sub(r"\s+", " ", " ".join(pdf_pages(a4 / f"{HANDOUT}.pdf")))
    for question in questions():
        for part in question.parts:
            if part.grids:
                assert (part.grid_legend or GRID_LEGEND).replace("\u00a0", " ") in printed.replace("\u00a0", " ")


def luminance(colour: str) -> float:
    """WCAG 2 relative luminance of an sRGB colour #rrggbb."""
    channels = [int(colour[k : k + 2], 16) / 255 for k in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def test_squares_light_enough_to_write_on_in_pencil(a4):
    """Every square of every board and grid of the handout, as its SVG fills it and as the PDF prints it, has a
    WCAG relative luminance of at least 0.75 (#d2b48c, the key's dark square, has 0.48), and the two colours
    of a board still differ."""
    figures = figures_by_question(page_html(a4))
    assert figures
    darks, lights = set(), set()
    for _, _, svg in figures:
        squares = re.findall(
            rf'<rect x="[\d.]+" y="[\d.]+" width="{SQUARE}" height="{SQUARE}" fill="(#[0-9a-f]{{6}})"', svg
        )
        background = re.search(r'<rect x="0" y="0" width="\d+" height="\d+" fill="(#[0-9a-f]{6})"', svg).group(1)
        assert squares, "no dark square found: the test would check nothing"
        darks |= set(squares)
        lights.add(background)
    assert min(luminance(colour) for colour in darks | lights) >= 0.75, sorted(darks | lights)
    assert min(luminance(light) for light in lights) > max(luminance(dark) for dark in darks) + 0.1
    # as printed: the fills of the PDF's square cells
    with pymupdf.open(a4 / f"{HANDOUT}.pdf") as document:
        fills = {
            "#{:02x}{:02x}{:02x}".format(*_colour(drawing["fill"]))
            for page in document
            for drawing in page.get_drawings()
            if drawing.get("fill")
            and abs(drawing["rect"].width - drawing["rect"].height) < 0.5
            and 5 * MM < drawing["rect"].width < 12 * MM
        }
    assert "#" + "".join(f"{c:02x}" for c in DARK) in fills
    assert min(luminance(colour) for colour in fills) >= 0.75, sorted(fills)


#: Where a prompt may place a board: "below" (it follows in the page's flow); never beside, above, left or
#: right (a phone stacks side-by-side blocks, and a page break moves them).
PLACES = re.compile(r"\b(below|beside|above|left of|right of|shown|drawn|overleaf)\b", re.I)


def prompts(question) -> list[tuple[str, str]]:
    """Every text the handout prints for a question besides the document's words: (where, text)."""
    texts = [("note", question.handout_note)] + [("caption", c) for c in question.board_captions]
    for k, part in enumerate(question.parts):
        texts += [(f"ask {k}", part.ask), (f"legend {k}", part.grid_legend)] + [
            (f"grid {k}", c) for c in part.grid_captions
        ]
    return [(where, text) for where, text in texts if text]


def test_every_reference_to_a_board_is_true(a4):
    """A prompt that says "below" has the question's boards after it, in the HTML and on the printed page; one that
    says a thing is drawn has it drawn: C6's corner moves, at the squares its note names."""
    markup = page_html(a4)
    figures = figures_by_question(markup)
    with pymupdf.open(a4 / f"{HANDOUT}.pdf") as document:
        boards = [
            (k, d["rect"].y0)
            for k, page in enumerate(document)
            for d in page.get_drawings()
            if _colour(d.get("fill")) == LIGHT
        ]
        assert len(boards) == len(figures)
        seen: dict[str, int] = {}
        references = 0
        for question in questions():
            for where, text in prompts(question):
                for word in PLACES.findall(text):
                    references += 1
                    word = word.lower()
                    assert word in ("below", "drawn"), (question.id, where, word)
                    mine = [k for k, (q, _, _) in enumerate(figures) if q == question.id]
                    assert mine, (question.id, where, "no board")
                    if word == "below":
                        assert where.startswith("ask")
                        block = article(markup, question)
                        assert block.index(
                            html.escape(text, quote=False).replace(" × ", "\u00a0×\u00a0")[:40]
                        ) < block.index("<svg")
                        snippet = text[:30]
                        hits = [(k, rect.y0) for k, page in enumerate(document) for rect in page.search_for(snippet)]
                        k = seen.get(snippet, 0)
                        seen[snippet] = k + 1
                        at = hits[k]
                        assert all(boards[j] > at for j in mine), (question.id, at, [boards[j] for j in mine])
                    else:
                        moves = re.findall(r"\((\d), (\d)\)–\((\d), (\d)\)", question.handout_note)
                        assert len(moves) == 2, question.handout_note
                        svg = figures[mine[0]][2]
                        lines = re.findall(
                            r'<line x1="([\d.]+)" y1="([\d.]+)" x2="([\d.]+)" y2="([\d.]+)"[^>]*class="move"', svg
                        )
                        centre = lambda r, c: (f"{(int(c) + 0.5) * SQUARE:g}", f"{(int(r) + 0.5) * SQUARE:g}")  # noqa: E731
                        assert sorted(lines) == sorted((*centre(r1, c1), *centre(r2, c2)) for r1, c1, r2, c2 in moves)
    assert references >= 3, "no reference to a board found: the test would check nothing"


#: A prompt that takes its own answer for granted, and the words that would make it ask instead.
PRESUPPOSING = [
    # a tour to number that may not exist (numbering the squares a walk visits, full or not, asks nothing)
    (re.compile(r"\bnumber (it|its squares)\b", re.I), re.compile(r"\bif\b", re.I)),
    (re.compile(r"\bwhy (not|can no|can't)\b|\bthe others\b", re.I), re.compile(r"\bif (not|some)\b", re.I)),
    (re.compile(r"\bthe smallest \w+ on which\b.*\bfails\b", re.I), re.compile(r"\bif any\b", re.I)),
    (
        re.compile(r"\b(before|up to) (it finds )?its first tour\b", re.I),
        re.compile(r"\bor does it stop\b|\bif\b", re.I),
    ),
]


def test_no_prompt_states_the_answer_it_asks_for():
    """A prompt asks; it never presupposes its answer: no "number it" before asking whether a tour exists, no "why
    not from the others" before asking whether every square starts one, no smallest failing size that assumes a
    failure, no count up to a first tour that assumes one is found. C6b and C4a did; B5b, C1a and D3a presumed."""
    found = 0
    for question in questions():
        for where, text in prompts(question):
            for claim, hedge in PRESUPPOSING:
                if claim.search(text):
                    found += 1
                    assert hedge.search(text), (question.id, where, text)
    assert found >= 5, "no presupposing phrase found: the test would check nothing"
    by_id = {q.id: q for q in questions()}
    c6b, c4a = by_id["eiffel-parberry"].parts[1].ask, by_id["eiffel-colours"].parts[0].ask
    assert c6b.index("if you find one") < c6b.index("number it") and c6b.endswith("Does one exist?")
    assert "can a knight's tour start from every square?" in c4a and "if not" in c4a


# --- Issue 37, item 6: no question split from its boards; unvisited squares as the programs print them; the
# course's due date and self-check page ---


def test_each_question_on_one_page_with_its_boards(a4, letter):
    """A question's label (A4, B2, …) and every board and outcome grid it asks for print on one page: the question
    block is never split from its boards (B2 and A4 were), on A4 and on Letter."""
    from pdf_layout import heading_positions

    markup = page_html(a4)
    owners = [question for question, _, _ in figures_by_question(markup)]
    with_boards = sorted(set(owners), key=owners.index)
    assert {"deitel-64-tours", "homework-5x5"} <= set(with_boards)
    for out in (a4, letter):
        pdf = out / f"{HANDOUT}.pdf"
        found = heading_positions(pdf, list(labels().values()), size=10.5)  # the labels are 11 pt bold
        label_pages = {label: page for label, (page, _) in found.items()}
        assert sorted(label_pages) == sorted(labels().values()), out
        with pymupdf.open(pdf) as document:
            board_pages = [
                number
                for number, page in enumerate(document, start=1)
                for drawing in page.get_drawings()
                if _colour(drawing.get("fill")) == LIGHT
            ]
        assert len(board_pages) == len(owners)
        split = {
            labels()[question]: (
                label_pages[labels()[question]],
                sorted({p for p, q in zip(board_pages, owners) if q == question}),
            )
            for question in with_boards
            if {p for p, q in zip(board_pages, owners) if q == question} != {label_pages[labels()[question]]}
        }
        assert not split, f"{out.name}: questions split from their boards (label page, board pages): {split}"


def test_unvisited_squares_as_the_programs_print_them(a4):
    """The worksheet says what a square never visited holds as each kind of program prints it, and the reference
    programs print just that: '.' in Homework #8's array, 0 on Deitel's board and the blog's."""
    hand_in = html_text(re.search(r'<p class="hand-in">.*?</p>', page_html(a4), flags=re.S).group(0))
    assert "never visited" in hand_in and ". in Homework #8's" in hand_in and "0 on Deitel's and the blog's" in hand_in
    programs = resources.files("knight").joinpath("programs")
    homework = subprocess.run(
        [sys.executable, str(programs / "homework8.py"), "5", "5", "1", "1"], capture_output=True, text=True, timeout=60
    ).stdout
    board = [line.split() for line in homework.splitlines() if re.fullmatch(r"[\d. ]+", line.strip())]
    assert len(board) == 5 and any("." in row for row in board) and not any("0" in row for row in board)
    deitel = subprocess.run(
        [sys.executable, str(programs / "deitel_first_knight.py")], capture_output=True, text=True, timeout=120
    ).stdout
    rows = [line.split() for line in deitel.splitlines()[:8]]
    assert all(len(row) == 8 for row in rows) and any("0" in row for row in rows)  # the knight stops short of 64
    blog = programs.joinpath("warnsdorff_blog.py").read_text(encoding="utf-8")
    assert re.search(r"cb = \[\[0 for", blog) and "print(str(cb[cy][cx])" in blog  # its board starts 0, printed as is


def test_due_date_and_self_check_address_from_the_course_file(tmp_path):
    """The handout's heading gives the course's due date, but never one already past (a note on stderr says why it is
    left out); the self-check page's address is the course file's site_url + check.html. Without --course: neither."""
    from report_helpers import COURSE

    def handout(course_text: str | None) -> tuple[str, str]:
        args = []
        if course_text is not None:
            course = tmp_path / "course.toml"
            course.write_text(course_text, encoding="utf-8")
            args = ["--course", str(course)]
        out = tmp_path / "out"
        store = tmp_path / "no-store.sqlite"
        done = knight(["report", "--edition", "handout", "--no-pdf", "--out", str(out), *args], store, timeout=120)
        assert done.returncode == 0, done.stderr
        return html_text(page_html(out)), done.stderr

    site = 'site_url = "https://example.org/knights"\n'
    future, note = handout(COURSE + site)  # due 2030-03-01
    assert "Knight's tours · CS 1, spring · due 2030-03-01" in future and not note
    assert re.search(r"self-check page, https://example\.org/knights/check\.html ?, or with knight check", future)
    past, note = handout(COURSE.replace("2030-03-01", "2020-03-01").replace("2030-03-04", "2020-03-04"))
    assert "Knight's tours · CS 1, spring" in past and "due" not in past.split("Before you start")[0]
    assert "2020-03-01" in note and "before today" in note
    assert "self-check page or with knight check" in past  # no site_url: no address
    none, note = handout(None)
    assert "due" not in none.split("Before you start")[0] and not note
