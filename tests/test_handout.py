"""The student handout: a worksheet rendered from questions.toml alone, checked in its HTML and its PDF.

It is rendered without any store (the handout shows no result), on A4 and on Letter; the give-away
test also builds a small store, renders the answer key from it and checks that no number the key
answers with is printed in the handout.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pymupdf
import pytest
from pdf_layout import MM, font_sizes, page_fill, page_margins, smallest_font
from runner_helpers import knight, write_job
from test_report import SMALL_JOB

from knight.engine import Board
from knight.engine.diagrams import WORKSHEET_DARK, WORKSHEET_LIGHT, empty_board_svg
from knight.report.questions import documents, questions

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


def html_text(markup: str) -> str:
    """The text of an HTML page: tags dropped, entities decoded, white space collapsed."""
    markup = re.sub(r"<(style|title)\b.*?</\1>", " ", markup, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", markup))).strip()


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


def pdf_pages(path: Path) -> list[str]:
    with pymupdf.open(path) as document:
        return [re.sub(r"\s+", " ", page.get_text()) for page in document]


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
    printed = " ".join(pdf_pages(a4 / f"{HANDOUT}.pdf"))
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


def numbers(text: str) -> set[str]:
    """The numbers in ``text``, thousands separators dropped ("1,728" is 1728; "(0, 0)" is two zeros)."""
    return {token.replace(",", "") for token in re.findall(r"\d{1,3}(?:,\d{3})+(?!\d)|\d+(?:\.\d+)?", text)}


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
