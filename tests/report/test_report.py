"""The report, end to end: a small store made by `knight run`, the report rendered from it, the PDF read back.

Each expected value is computed here, independently, with the engine; a second store with
altered results proves that the numbers come from the store and not from anywhere else.
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
from pathlib import Path

import pypdf
import pytest
from report_helpers import SMALL_JOB, canonical
from runner_helpers import knight, write_job

from knight.engine import Board, find_tour
from knight.store import integrity


def pdf_text(path: Path) -> str:
    reader = pypdf.PdfReader(path)
    return re.sub(r"\s+", " ", " ".join(page.extract_text() for page in reader.pages))


def all_starts(n: int) -> list[tuple[int, int]]:
    return [(r, c) for r in range(n) for c in range(n)]


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Path:
    directory = tmp_path_factory.mktemp("report-store")
    job = write_job(directory, "report-test", SMALL_JOB)
    store = directory / "knight.sqlite"
    done = knight(["run", str(job), "--workers", "2"], store, timeout=300)
    assert done.returncode == 0, done.stderr
    return store


def render(store: Path, out: Path, *args: str, env_epoch: str | None = "1700000000"):
    import os

    previous = os.environ.get("SOURCE_DATE_EPOCH")
    if env_epoch:
        os.environ["SOURCE_DATE_EPOCH"] = env_epoch
    try:
        return knight(["report", "--store", str(store), "--out", str(out), *args], store, timeout=300)
    finally:
        if previous is None:
            os.environ.pop("SOURCE_DATE_EPOCH", None)
        else:
            os.environ["SOURCE_DATE_EPOCH"] = previous


@pytest.fixture(scope="module")
def key_pdf(store, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("report")
    done = render(store, out, "--edition", "key", "--edition", "handout")
    assert done.returncode == 0, done.stderr
    return out


def test_answers_equal_values_computed_independently(key_pdf):
    text = pdf_text(key_pdf / "knights-tour.pdf")
    board = Board(8, 8)
    naive = find_tour(board, (0, 0), "naive")
    assert f"makes {naive.length - 1} moves ({naive.length} squares)" in text
    warnsdorff_full = sum(find_tour(board, s, "warnsdorff").full for s in all_starts(8))
    static_full = sum(find_tour(board, s, "static").full for s in all_starts(8))
    lookahead_full = sum(find_tour(board, s, "warnsdorff", tie="lookahead-min").full for s in all_starts(8))
    assert f"{warnsdorff_full} of the 64 tours are full" in text
    assert f"only {static_full} of 64 are" in text
    assert (
        f"lookahead-min {lookahead_full / 64:.0%}" in text or f"lookahead-min ({lookahead_full / 64:.0%} full)" in text
    )

    for n, starts in ((5, all_starts(5)), (6, [(0, 0), (0, 1), (1, 2), (2, 2)]), (8, [(0, 0), (0, 1), (1, 2), (3, 3)])):
        tours = [find_tour(Board(n, n), s, "warnsdorff", tie="homework") for s in starts]  # the homework's own order
        full = [t for t in tours if t.full]
        symmetric = len({canonical(t.squares, n) for t in full})
        closed = sum(t.closed for t in full)
        found = f"all {len(starts)} starts" if len(full) == len(starts) else f"{len(full)} of the {len(starts)} starts"
        assert (
            f"the heuristic in the homework's own move order (ties to the first of its eight moves as it lists them) finds a full tour from {found}"
            in text
        ), n
        assert f"{closed if closed else 'None'} of them {'is' if closed == 1 else 'are'} closed" in text, n
        assert f"{symmetric} up to reversal and the board's 8 symmetries" in text, n
        if len(starts) < n * n:
            everywhere = [
                t for t in (find_tour(Board(n, n), s, "warnsdorff", tie="homework") for s in all_starts(n)) if t.full
            ]
            assert (
                f"From all {n * n} starts: {len(everywhere)} full, {sum(t.closed for t in everywhere)} closed, "
                f"{len({canonical(t.squares, n) for t in everywhere})} different up to symmetry" in text
            ), n

    found = [s for s in all_starts(5) if find_tour(Board(5, 5), s, "backtrack").full]
    assert f"finds a tour from {len(found)} of 25 squares" in text
    assert f"none exists from the other {25 - len(found)}" in text

    failing = [m for m in range(5, 71) if not find_tour(Board(m, m), (0, 0), "warnsdorff").full]
    assert f"the plain rule first fails at m = {failing[0]}" in text

    from knight.engine.census import census

    total = census(Board(5, 5)).total
    # what the small job ran on 5 x 5: warnsdorff homework, first and lookahead-min from every start, roth from the
    # corner
    ties = ("homework", "first", "lookahead-min")
    runs = [find_tour(Board(5, 5), s, "warnsdorff", tie=tie) for s in all_starts(5) for tie in ties]
    runs.append(find_tour(Board(5, 5), (0, 0), "warnsdorff", tie="roth"))
    heuristic_tours = {tuple(t.squares) for t in runs if t.full}
    assert f"On 5 × 5 Try_All finds {total:,} directed open tours" in text
    assert f"all the heuristics' runs together found {len(heuristic_tours)}" in text
    homework = {tuple(t.squares) for t in runs[:75:3] if t.full}  # the homework's own order, once from each start
    deitel = {tuple(t.squares) for t in runs[1:75:3] if t.full}  # Deitel's move order
    assert (
        "Homework #8's program (in its own move order, ties to the first move it lists; once from each start) finds "
        f"{len(homework)} of them ({len(deitel)} in Deitel's move order)" in text
    )

    parberry = find_tour(Board(8, 8), (0, 0), "parberry")
    steps = {frozenset(p) for p in zip(parberry.squares, parberry.squares[1:] + parberry.squares[:1])}
    corners = [
        ((1, 0), (0, 2)),
        ((2, 0), (0, 1)),
        ((1, 7), (0, 5)),
        ((2, 7), (0, 6)),
        ((6, 0), (7, 2)),
        ((5, 0), (7, 1)),
        ((6, 7), (7, 5)),
        ((5, 7), (7, 6)),
    ]
    used = sum(frozenset(c) in steps for c in corners)
    assert (
        f"the 8 × 8 tour shown is {'closed' if parberry.closed else 'NOT closed'}, with {used} of 8 corner moves"
        in text
    )


def test_numbers_come_from_the_store(store, tmp_path):
    """Alter two stored results; the report must show the altered numbers."""
    altered = tmp_path / "altered.sqlite"
    shutil.copy(store, altered)
    with sqlite3.connect(altered) as db:
        keys = [
            row[0]
            for row in db.execute(
                "SELECT key FROM tasks WHERE method = 'warnsdorff' AND n = 8 AND m = 8 "
                "AND json_extract(params, '$.tie') = 'first' AND start_row = 7"
            )
        ]
        assert len(keys) == 8
        db.executemany("UPDATE tours SET full = 0, success = 0, closed = 0 WHERE task_key = ?", [(k,) for k in keys])
        naive = db.execute(
            "SELECT key FROM tasks WHERE method = 'naive' AND n = 8 AND start_row = 0 AND start_col = 0"
        ).fetchone()[0]
        db.execute("UPDATE tours SET length = 57 WHERE task_key = ?", (naive,))
        # seal the altered rows as the runner would have (else the report rightly refuses a tampered store)
        integrity.register(db)
        db.execute(
            f"UPDATE results SET checksum = (SELECT {integrity.outcome_checksum_sql(db, 'tours')} FROM tours o "
            "WHERE o.task_key = results.task_key) WHERE task_key IN (SELECT task_key FROM tours)"
        )
    out = tmp_path / "out"
    assert render(altered, out).returncode == 0
    text = pdf_text(out / "knights-tour.pdf")
    truth = sum(find_tour(Board(8, 8), s, "warnsdorff").full for s in all_starts(8))
    lost = sum(find_tour(Board(8, 8), (7, c), "warnsdorff").full for c in range(8))
    assert f"{truth - lost} of the 64 tours are full" in text
    assert "makes 56 moves (57 squares)" in text


def test_page_numbers_outline_and_paper(key_pdf):
    reader = pypdf.PdfReader(key_pdf / "knights-tour.pdf")
    pages = len(reader.pages)
    assert pages > 4
    for number, page in enumerate(reader.pages, start=1):
        assert f"page {number} of {pages}" in page.extract_text()
    titles = [item.title for item in _flatten(reader.outline)]
    for heading in (
        "Answers at a glance",
        "Conventions",
        "A. Deitel, exercise 7.24",
        "B. Homework #8",
        "C. The Eiffel text",
        "D. The Warnsdorff blog",
        "Appendix: methods",
    ):
        assert any(title.startswith(heading) for title in titles), heading
    width, height = (float(x) for x in reader.pages[0].mediabox.upper_right)
    assert (round(width), round(height)) == (595, 842)  # A4 in points
    fonts = {str(font) for page in reader.pages for font in _fonts(page)}
    assert fonts and all("FontFile" in f for f in fonts)  # embedded


def test_letter_paper(store, tmp_path):
    assert render(store, tmp_path, "--paper", "letter").returncode == 0
    width, height = (float(x) for x in pypdf.PdfReader(tmp_path / "knights-tour.pdf").pages[0].mediabox.upper_right)
    assert (round(width), round(height)) == (612, 792)


def test_handout_has_the_questions_and_no_answers(key_pdf):
    handout = pdf_text(key_pdf / "knights-tour-handout.pdf")
    key = pdf_text(key_pdf / "knights-tour.pdf")
    # both editions quote the documents' questions (tests/report/test_handout.py checks the worksheet in full)
    for question in (
        "How many moves did the knight make?",
        "Does your program always find a tour?",
        "various tie-breaking algorithms",
    ):
        assert question in key and question in handout, question
    for answer in (
        "makes ",
        "of the 64 tours are full",
        "different tours, ",
        "first fails",
        "until its first full tour",
        "by trying every path",
        "Other claims of the literature",
    ):
        assert answer not in handout, answer
        assert answer in key, answer
    assert "Name:" in handout and "Date:" in handout


def test_same_store_gives_byte_identical_html(store, key_pdf, tmp_path):
    assert render(store, tmp_path, "--edition", "key", "--no-pdf").returncode == 0
    first = (key_pdf / "knights-tour.html").read_bytes()
    # the colophon names the checkout's commit, which moves if someone commits between the two renders
    commit = re.compile(rb"\(commit [0-9a-f]+\)")
    assert commit.search(first)
    assert commit.sub(b"", (tmp_path / "knights-tour.html").read_bytes()) == commit.sub(b"", first)
    assert b"on 2023-11-14" in first


def test_missing_store_is_one_line_and_exit_2(tmp_path):
    done = knight(["report", "--store", str(tmp_path / "none.sqlite"), "--out", str(tmp_path)], tmp_path / "x")
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "knight run" in done.stderr


def test_interrupted_render_keeps_the_last_good_file(tmp_path, monkeypatch):
    from knight.report import render as rendering

    target = tmp_path / "report.pdf"
    target.write_bytes(b"%PDF last good")

    class Exploding:
        def render(self):
            return self

        def write_pdf(self, path):
            Path(path).write_bytes(b"%PDF half")
            raise KeyboardInterrupt

    import weasyprint

    monkeypatch.setattr(weasyprint, "HTML", lambda **_: Exploding())
    with pytest.raises(KeyboardInterrupt):
        rendering.write_pdf("<p>x</p>", target)
    assert target.read_bytes() == b"%PDF last good"
    assert [p.name for p in tmp_path.iterdir()] == ["report.pdf"]


def _flatten(outline):
    for item in outline:
        if isinstance(item, list):
            yield from _flatten(item)
        else:
            yield item


def _fonts(page):
    resources = page.get("/Resources") or {}
    fonts = resources.get("/Font") or {}
    for font in fonts.values():
        font = font.get_object()
        descriptor = font.get("/FontDescriptor")
        if descriptor is None and "/DescendantFonts" in font:
            descriptor = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
        if descriptor is not None:
            yield {k for k in descriptor.get_object() if k.startswith("/FontFile")}


def test_a_pdf_made_from_the_same_html_is_kept(tmp_path):
    from knight.report.render import write_pdf

    target = tmp_path / "page.pdf"
    assert write_pdf("<p>one</p>", target) is True
    first = target.stat().st_mtime_ns
    assert write_pdf("<p>one</p>", target) is False and target.stat().st_mtime_ns == first
    assert write_pdf("<p>two</p>", target) is True
    assert pdf_text(target).strip() == "two"
    target.write_bytes(b"%PDF damaged")
    (tmp_path / ".page.pdf.source").unlink()  # without the stamp of its HTML, a PDF is made again
    assert write_pdf("<p>two</p>", target) is True and pdf_text(target).strip() == "two"


def test_a_render_removes_what_a_killed_render_left_and_refuses_a_bad_out_folder(store, tmp_path):
    import subprocess
    import sys

    out = tmp_path / "out"
    out.mkdir()
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead_pid = int(gone.stdout)  # a process that has ended: its half-written files are leftovers
    # named as the atomic writer names them: .NAME.PID.XXXXXXXX.partial (mkstemp's eight random characters)
    leftovers = [
        out / f".knights-tour.html.{dead_pid}.x1abcdef.partial",
        out / f".knights-tour.pdf.{dead_pid}.x2abcdef.partial",
    ]
    kept = out / f".knights-tour.html.{os.getpid()}.x3abcdef.partial"  # a writer still at work: left alone
    for path in [*leftovers, kept]:
        path.write_bytes(b"")
    assert render(store, out, "--no-pdf", "--edition", "handout").returncode == 0  # the handout: no store to read
    assert not any(path.exists() for path in leftovers) and kept.exists()

    a_file = tmp_path / "a-file"
    a_file.write_text("")
    for bad in (a_file, a_file / "below"):
        refused = knight(["report", "--no-pdf", "--out", str(bad)], store)
        assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and "--out" in refused.stderr


def test_a_reports_leftovers_are_its_own_temporary_files_only(tmp_path):
    """A killed render's temporary file is removed; a user's file or folder ending in .partial is not touched,
    and a folder named like a leftover is no traceback."""
    from knight.report.render import remove_leftovers

    dead = tmp_path / ".knights-tour.pdf.999999999.k3x_9q0a.partial"  # no such process
    dead.write_text("a killed render's")
    notes = tmp_path / ".notes.777777.x.partial"  # a user's file with a loose likeness
    notes.write_text("a user's notes")
    folder = tmp_path / ".knights-tour.html.999999999.abcdefgh.partial"  # a folder named like a leftover
    folder.mkdir()
    alive = tmp_path / f".knights-tour.html.{os.getpid()}.abcdefgh.partial"  # its writer is still at work
    alive.write_text("being written")
    assert remove_leftovers(tmp_path) == [dead]
    assert notes.exists() and folder.is_dir() and alive.exists() and not dead.exists()
