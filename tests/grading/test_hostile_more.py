"""Issue 26's audit, grading: what the first round of hostile-input fixes missed.

A submission built to make a regular expression backtrack (each reads in linear time); a stamp, a lock file or
a leftover's name planted in OUT; a sub-directory swapped for a link while a class is graded; a rubric of huge
integers or with a byte-order mark; a board too large to draw; a path holding a newline in a one-line error;
UTF-16 text; links that loop or lead to the folder itself; identical non-tours; an interrupted gradebook.
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from knight.cli import main
from knight.engine import Board, find_tour
from knight.errors import Unreadable
from knight.grading import gradebook
from knight.grading.files import entries
from knight.grading.formats import MAX_BYTES, parse_board, parse_bytes, parse_text
from knight.grading.gradebook import grade_directory
from knight.grading.output import LOCK_NAME
from knight.report.render import write_pdf

REPO = Path(__file__).resolve().parents[2]


@contextlib.contextmanager
def within(seconds: int) -> Iterator[None]:
    """Fail instead of hanging (a FIFO read, a pattern that backtracks): SIGALRM after ``seconds``."""

    def expire(signum: int, frame: object) -> None:
        raise TimeoutError(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


EXAMPLES = REPO / "examples" / "submissions"


def run(capsys, *argv):
    """`knight ARGV` in this process: exit status, stdout, stderr."""
    capsys.readouterr()
    with pytest.raises(SystemExit) as stop:
        main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return stop.value.code, out, err


def one_line(status, out, err, *words):
    """A refusal: exit 2, nothing on stdout, one line on stderr holding ``words``, no traceback."""
    assert status == 2 and out == "", (status, out, err)
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    for word in words:
        assert word in err, (word, err)


def test_a_pdf_stamp_planted_as_a_fifo_or_a_link_is_not_read(tmp_path):
    page = "<p>a page</p>"
    pdf = tmp_path / "alice.pdf"
    stamp = tmp_path / ".alice.pdf.source"
    with within(30):
        assert write_pdf(page, pdf) and write_pdf(page, pdf) is False  # the stamp kept the second one from work
        good = stamp.read_text()
        stamp.unlink()
        os.mkfifo(stamp)  # open() waited for a writer forever
        assert write_pdf(page, pdf)
        stamp.unlink()
        stamp.symlink_to("/dev/zero")  # read_text() read without end
        assert write_pdf(page, pdf)
        stamp.unlink()
        (tmp_path / "elsewhere").write_text(good)
        stamp.symlink_to(tmp_path / "elsewhere")  # a link is not followed, even to the right digest
        assert write_pdf(page, pdf)
    assert not stamp.is_symlink() and stamp.read_text() == good


def fill(head: str, run: str, tail: str = "x\n") -> str:
    """``head``, ``run`` repeated to make the text just under :data:`MAX_BYTES`, and ``tail``."""
    return head + run * ((MAX_BYTES - len(head) - len(tail) - 8) // len(run)) + tail


# Each would make one of formats.py's patterns backtrack: (1 and spaces took 5 s at 20 kB and grew as the square
# of the length (days at 2 MB); {"\"\"… 1.2 s at 20 kB, as the square too; a line of dashes, with -+>, the same.
ADVERSARIAL = {
    "pair, spaces after the first number": fill("(1", " "),
    "pair, a comma then spaces": fill("(1,", " "),
    "pair, spaces then a comma-less end": fill("[12", "\t "),
    "pair, a long number": fill("(", "7"),
    "pairs, many opened": fill("", "(1 "),
    "JSON, escaped quotes in an unterminated string": fill('{"', '\\"'),
    "JSON, backslashes in an unterminated string": fill('{"a": "', "\\"),
    "JSON, quotes and brackets": fill("{", '"[', ""),
    "JSON, brackets closed at once": fill('{"a": ', "[],", ""),
    "chess, a line of dashes": fill("a1 ", "-"),
    "chess, dashes before an arrow": fill("a1 ", "-", ">b3\n"),
    "array, separators": fill("1", " ,;"),
    "array, a border": fill("1 |", "=+-"),
    "csv, a header then a long field": fill("row,col\n", "1"),
}


@pytest.mark.parametrize("text", ADVERSARIAL.values(), ids=ADVERSARIAL.keys())
def test_text_made_to_backtrack_reads_in_linear_time(text):
    assert len(text) <= MAX_BYTES
    began = time.perf_counter()
    with within(20):
        try:
            parse_bytes(text.encode())
        except Unreadable:
            pass
    assert time.perf_counter() - began < 3  # about 0.2 to 1 s on one idle core; the patterns took hours


def test_board_option_with_a_long_run_of_spaces_is_refused_at_once():
    began = time.perf_counter()
    with pytest.raises(ValueError, match="N or NxM"):
        parse_board("8" + " " * 100_000 + "y")
    assert time.perf_counter() - began < 1
    assert parse_board(" 6 x 8 ").m == 8 and parse_board("5").n == 5


def test_pairs_and_chess_still_read_after_the_patterns_were_made_linear():
    tour = find_tour(Board(5, 5), (0, 0), "warnsdorff")
    for text in (
        " ".join(f"({r}, {c})" for r, c in tour.squares),
        " ".join(f"[{r};{c}]" for r, c in tour.squares),
        "\n".join(f"({r}\t{c})" for r, c in tour.squares),
        " -> ".join(f"{chr(97 + c)}{5 - r}" for r, c in tour.squares),
        " --> ".join(f"{chr(97 + c)}{5 - r}" for r, c in tour.squares),
    ):
        submission = parse_text(text, board=Board(5, 5))
        assert submission.squares == list(tour.squares), text[:40]
    nested = json.dumps({"board": [5, 5], "squares": [list(sq) for sq in tour.squares], "s": '[[[{{\\"[['})
    assert parse_text(nested).squares == list(tour.squares)
    with pytest.raises(Unreadable, match="nests"):
        parse_text('{"board": [5, 5], "squares": [], "s": "\\"]", "t": ' + "[" * 20 + "]" * 20 + "}")


def test_a_sub_directory_swapped_for_a_link_after_listing_is_not_read_through(tmp_path):
    folder, outside = tmp_path / "class", tmp_path / "outside"
    (folder / "sub").mkdir(parents=True)
    outside.mkdir()
    eight = find_tour(Board(8, 8), (0, 0), "warnsdorff")
    six = find_tour(Board(6, 6), (0, 0), "warnsdorff")  # the file outside: a tour another class must not see
    (folder / "sub" / "x.txt").write_text(" ".join(f"({r}, {c})" for r, c in eight.squares))
    (outside / "x.txt").write_text(" ".join(f"({r}, {c})" for r, c in six.squares))
    (folder / "b_link.txt").symlink_to("sub/x.txt")
    listing = entries(folder)
    assert [not entry.skipped for entry in listing] == [True, False]  # b_link.txt to be graded; sub skipped
    (folder / "sub").rename(folder / "sub.old")  # the swap, between the listing and the read
    (folder / "sub").symlink_to(outside)
    batch = grade_directory(folder, tmp_path / "out", listing=listing)
    row = next(row for row in batch.rows if row.file == "b_link.txt")
    assert row.result is None and "replaced by a link" in row.note, (row.note, row.result and row.result.board)
    assert "6x6" not in (tmp_path / "out" / "b_link.html").read_text()


def test_a_fifo_or_a_directory_planted_as_the_lock_is_refused_in_one_line(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    os.mkfifo(out / LOCK_NAME)  # the pid was never written, and a second grader's read of it waited forever
    with within(20):
        one_line(*run(capsys, "grade", EXAMPLES, "--out", out), LOCK_NAME, "FIFO", "not a lock file", "remove it")
    (out / LOCK_NAME).unlink()
    (out / LOCK_NAME).mkdir()
    one_line(*run(capsys, "grade", EXAMPLES, "--out", out), LOCK_NAME, "directory", "remove it")
    assert sorted(path.name for path in out.iterdir()) == [LOCK_NAME]  # nothing graded into a folder not held


@pytest.mark.parametrize(
    ("rubric", "word"),
    [
        ("legal = " + "9" * 4301, "thousands of digits"),  # tomllib's int(): a ValueError traceback
        ("legal = 0x" + "F" * 4000, "from 0 to 1000"),  # math.isfinite(): an OverflowError traceback
        ("legal = -" + "9" * 40, "from 0 to 1000"),
        ("legal = 1001", "is 1001"),
    ],
)
def test_a_rubric_of_huge_integers_is_one_line(tmp_path, capsys, rubric, word):
    (tmp_path / "rubric.toml").write_text(rubric)
    one_line(*run(capsys, "grade", EXAMPLES, "--out", tmp_path / "o", "--rubric", tmp_path / "rubric.toml"), word)
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16"])
def test_a_rubric_with_a_byte_order_mark_is_read(tmp_path, capsys, encoding):
    (tmp_path / "rubric.toml").write_bytes("[rubric]\nlegal = 10\n".encode(encoding))
    one = tmp_path / "one"
    one.mkdir()
    (one / "alice.txt").write_bytes((EXAMPLES / "alice.txt").read_bytes())
    status, _, err = run(capsys, "grade", one, "--out", tmp_path / "o", "--rubric", tmp_path / "rubric.toml")
    rows = list(csv.DictReader(open(tmp_path / "o" / "gradebook.csv")))
    assert status == 0 and rows[0]["score"] == "80", (err, rows)  # full 50 + legal 10 + rule 20


def test_only_knights_own_leftovers_are_removed_from_out(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / ".a.999999.b.partial").mkdir()  # a directory named like a leftover: was IsADirectoryError
    (out / ".alice.html.999999999.abcdefgh.partial").mkdir()
    (out / ".notes.777777.x.partial").write_text("a user's notes")  # not knight's: was deleted
    (out / ".gradebook.csv.1.k3x_9q0a.partial").write_text("a killed run's")  # pid 1 is alive: was kept
    (out / ".bob.html.2.abcdefgh.partial").symlink_to(tmp_path / "victim")
    status, _, err = run(capsys, "grade", EXAMPLES, "--out", out)
    assert status == 1 and "Traceback" not in err, err
    left = {path.name for path in out.iterdir() if path.name.startswith(".")}
    assert left == {
        LOCK_NAME,
        ".a.999999.b.partial",
        ".alice.html.999999999.abcdefgh.partial",
        ".notes.777777.x.partial",
        ".bob.html.2.abcdefgh.partial",  # a link, not a file knight wrote: left alone
    }
    assert (out / ".notes.777777.x.partial").read_text() == "a user's notes"


def test_a_board_too_large_to_draw_makes_a_small_page(tmp_path, capsys, monkeypatch):
    folder = tmp_path / "class"
    folder.mkdir()
    # 180,000 squares on 547 x 547, not a tour, made a page of 20 MB (276 MB, 3.2 s) and its PDF took 57 s and
    # 1.37 GB; a smaller one of the kind: 40,000 squares on 200 x 200, every square twice (20,000 to list)
    side = 200
    squares = [[k // side, k % side] for k in range(40_000)]
    squares[1::2] = squares[0:-1:2]
    (folder / "big.json").write_text(json.dumps({"board": [side, side], "squares": squares}, separators=(",", ":")))
    drawn = find_tour(Board(12, 12), (0, 0), "warnsdorff")
    (folder / "small.txt").write_text(" ".join(f"({r}, {c})" for r, c in drawn.squares))
    pages = {}
    monkeypatch.setattr(gradebook.Output, "write_pdf", lambda self, name, page: pages.__setitem__(name, page))
    status, _, err = run(capsys, "grade", folder, "--out", tmp_path / "out", "--pdf")
    assert status == 0, err
    big = (tmp_path / "out" / "big.html").read_text()
    assert len(big) < 50_000 and "<svg" not in big and "200x200 board is not drawn" in big
    assert "20,000 squares in all" in big and "<svg" not in pages["big.pdf"]
    assert "<svg" in (tmp_path / "out" / "small.html").read_text() and "<svg" in pages["small.pdf"]
    (folder / "big.json").unlink()
    monkeypatch.setattr(gradebook, "PDF_PAGE_CHARS", 1000)  # a page over the bound: its PDF leaves the board out
    run(capsys, "grade", folder, "--out", tmp_path / "out2", "--pdf")
    assert "<svg" not in pages["small.pdf"] and "board is not drawn" in pages["small.pdf"]
    assert "<svg" in (tmp_path / "out2" / "small.html").read_text()  # the page itself still has it


def test_a_path_holding_a_newline_is_shown_escaped_in_one_line(tmp_path, capsys, monkeypatch):
    (tmp_path / "file").write_text("x")
    bad = {
        "DIR": ("grade", tmp_path / "no\nsuch", "--out", tmp_path / "o"),
        "--rubric": ("grade", EXAMPLES, "--out", tmp_path / "o", "--rubric", tmp_path / "r\nx.toml"),
        "--out": ("grade", EXAMPLES, "--out", tmp_path / "file" / "a\nb"),
        "FILE": ("check", tmp_path / "no\nfile"),
    }
    for what, argv in bad.items():
        status, out, err = run(capsys, *argv)
        one_line(status, out, err, "\\n")
        assert what and "\n" not in err.rstrip("\n")
    monkeypatch.setenv("KNIGHT_STORE", str(tmp_path / "no\nsuch" / "knight.sqlite"))
    one_line(*run(capsys, "results"), "no\\nsuch")


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32", "utf-8-sig"])
def test_text_with_a_byte_order_mark_is_read(tmp_path, capsys, encoding):
    text = (EXAMPLES / "alice.txt").read_text()
    data = text.encode(encoding)
    if encoding == "utf-16-be":
        data = b"\xfe\xff" + data  # Notepad's "Unicode big endian": the codec writes no mark itself
    (tmp_path / "alice.txt").write_bytes(data)
    status, out, err = run(capsys, "check", tmp_path / "alice.txt")
    assert status == 0 and "Verdict: full tour" in out, err  # was "the file is binary"


def test_text_its_byte_order_mark_does_not_fit_is_one_line(tmp_path, capsys):
    (tmp_path / "odd.txt").write_bytes(b"\xff\xfe" + "1 2".encode("utf-16-le") + b"\x00")  # an odd byte left over
    one_line(*run(capsys, "check", tmp_path / "odd.txt"), "UTF-16", "save it as plain text")


def test_links_that_loop_or_lead_to_a_folder_are_named_for_what_they_are(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "loop1").symlink_to("loop2")
    (folder / "loop2").symlink_to("loop1")
    (folder / "self").symlink_to("self")
    (folder / "dot").symlink_to(".")
    (folder / "dotdot").symlink_to("..")
    (folder / "gone").symlink_to("nowhere")
    (folder / "etc").symlink_to("/etc")
    reasons = {entry.name: entry.skipped for entry in entries(folder)}
    assert reasons["loop1"].startswith("a link loop") and reasons["self"].startswith("a link loop")
    assert reasons["dot"].startswith("a link to the class's folder itself")
    assert reasons["dotdot"].startswith("a link to a folder that holds the class's folder")
    assert reasons["gone"] == "a link to nothing (dangling)"
    assert reasons["etc"].startswith("a link to a directory outside the folder")


def test_equal_non_tours_are_not_flagged_as_copied(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("ann", "ben"):
        (folder / f"{name}.txt").write_text("1 2\n3 4\n")  # not a tour: two students' equal mistakes
        (folder / f"{name}-short.txt").write_text("(0, 0) (1, 2) (2, 0)\n")  # legal, but 3 squares: chance
    tour = find_tour(Board(6, 6), (2, 3), "warnsdorff")
    copied = " ".join(f"({r}, {c})" for r, c in tour.squares[::-1])  # a reversed tour: no method makes it
    for name in ("cat", "dan"):
        (folder / f"{name}.txt").write_text(copied)
    rows = {row.student: row for row in grade_directory(folder, tmp_path / "out").rows}
    assert [name for name, row in rows.items() if row.copied_from] == ["cat", "dan"]
    assert rows["cat"].copied_from == ["dan"] and rows["ann"].result.verdict == "not a tour"


def test_an_interrupted_grade_says_the_gradebook_is_not_whole(tmp_path, capsys, monkeypatch):
    written = []
    write_feedback = gradebook.write_feedback

    def interrupted_at_the_third(row, out, *, pdf=False):
        if len(written) == 2:
            raise KeyboardInterrupt
        written.append(row.student)
        write_feedback(row, out, pdf=pdf)

    monkeypatch.setattr(gradebook, "write_feedback", interrupted_at_the_third)
    status, _, err = run(capsys, "grade", EXAMPLES, "--out", tmp_path / "out")
    total = len(list(EXAMPLES.iterdir()))
    assert status == 130 and f"interrupted after 2 of {total} entries" in err and "grade again" in err, err
    rows = list(csv.DictReader(open(tmp_path / "out" / "gradebook.csv")))
    assert [row["student"] for row in rows[:-1]] == written and rows[-1]["verdict"] == "interrupted"
    assert f"after 2 of {total} entries" in rows[-1]["note"]
