"""Issue 26, grading: one student cannot stop a class's grading, and a spreadsheet can open the gradebook safely.

A class folder holding every kind of hostile entry (huge numbers, Infinity, NaN, deep nesting, a declared board
of 16 million squares, a FIFO, a socket, a device, links in, out, dangling and to a FIFO, an unreadable file, a
non-UTF-8 name, names a spreadsheet would run as formulas, empty, binary and oversized files, a sub-directory,
many copies of one tour) is graded in one run: each entry costs its own row, the good students are graded as
``knight check`` grades them alone, nothing is written outside OUT. Then the rubric's bad cases, the output
folder's (a link planted at gradebook.csv, a second grader, ``--out ''``, a read-only or full disk, a killed run)
and --start off the board.
"""

from __future__ import annotations

import csv
import errno
import json
import os
import signal
import socket
import stat
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest

from knight.cli import main
from knight.engine import Board, find_tour
from knight.grading.check import check
from knight.grading.formats import MAX_BYTES, parse_text
from knight.grading.gradebook import COPIED_SHOWN, page_name, spreadsheet_safe
from knight.grading.output import LOCK_NAME, Output

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples" / "submissions"
DANGEROUS = ("=", "+", "-", "@", "\t", "\r")
COPIES = 30


def run(capsys, *argv):
    """`knight ARGV` in this process: exit status, stdout, stderr."""
    capsys.readouterr()
    with pytest.raises(SystemExit) as stop:
        main([os.fsdecode(arg) if isinstance(arg, bytes) else str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return stop.value.code, out, err


def one_line(status, out, err, *words):
    """A refusal: exit 2, nothing on stdout, one line on stderr holding ``words``, no traceback."""
    assert status == 2 and out == "", (status, out, err)
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    for word in words:
        assert word in err, (word, err)


def array_text(squares, board: Board) -> str:
    grid = [[0] * board.m for _ in range(board.n)]
    for k, (r, c) in enumerate(squares, start=1):
        grid[r][c] = k
    return "\n".join(" ".join(f"{v:3}" for v in row) for row in grid) + "\n"


def pairs_text(squares) -> str:
    return " ".join(f"({r}, {c})" for r, c in squares) + "\n"


def expected(text: str) -> dict[str, str]:
    """What `knight check` says of ``text`` on its own: the gradebook's row must say the same."""
    result = check(parse_text(text))
    return {"verdict": result.summary(), "length": str(result.length), "format": result.submission.format}


def snapshot(root: Path, skip: Path) -> dict[str, tuple[int, int, int]]:
    """Every entry under ``root`` but ``skip``, by lstat (links not followed, FIFOs not opened)."""
    seen = {}
    for folder, folders, files in os.walk(root):
        folders[:] = [name for name in folders if Path(folder, name) != skip]
        for name in folders + files:
            info = os.lstat(Path(folder, name))
            seen[os.path.relpath(Path(folder, name), root)] = (info.st_mode, info.st_size, info.st_mtime_ns)
    return seen


def build_class(tmp_path: Path) -> tuple[Path, dict[str, dict[str, str]], dict[str, str], Path]:
    """The hostile class: (its folder, the good students' expected rows by file, the hostile entries' expected
    (verdict, a word of the reason) by file, a file outside the folder that a link points to)."""
    folder = tmp_path / "class"
    folder.mkdir()
    board = Board(8, 8)
    warnsdorff = find_tour(board, (0, 0), "warnsdorff")
    naive = find_tour(board, (0, 0), "naive")
    assert not naive.full  # a partial tour
    broken = list(warnsdorff.squares)
    broken[10], broken[11] = broken[11], broken[10]
    six = find_tour(Board(6, 6), (0, 0), "warnsdorff")
    good = {
        "alice.txt": array_text(warnsdorff.squares, board),
        "partial.txt": array_text(naive.squares, board),
        "broken.txt": pairs_text(broken),
        "=HYPERLINK(evil).txt": array_text(warnsdorff.squares, board),
        "+SUM(1).txt": pairs_text(six.squares),
        "-2+3.txt": pairs_text(six.squares[::-1]),
        "@cmd.txt": json.dumps({"board": [6, 6], "squares": [list(sq) for sq in six.squares]}),
        "\ttab.txt": array_text(warnsdorff.squares, board),
        "long" * 60 + ".txt": array_text(warnsdorff.squares, board),  # 244 bytes: its page's name would be too long
    }
    other = find_tour(board, (3, 4), "warnsdorff")
    copied = pairs_text(other.squares[::-1])  # no method of ours makes it (checked below): flagged as copied
    assert check(parse_text(copied)).reproduced_by is None
    good.update({f"copy{i:02}.txt": copied for i in range(COPIES)})
    rows = {}
    for name, text in good.items():
        (folder / name).write_text(text)
        rows[name.replace("\t", "\\t")] = expected(text)
    os.write(os.open(folder / os.fsdecode(b"caf\xe9.txt"), os.O_WRONLY | os.O_CREAT), good["alice.txt"].encode())
    rows["caf\\xe9.txt"] = expected(good["alice.txt"])
    os.symlink("alice.txt", folder / "link-in.txt")  # inside the folder: graded as its own row
    rows["link-in.txt"] = expected(good["alice.txt"])

    outside = tmp_path / "someone-else.txt"  # a valid tour, but not in the folder: never graded
    outside.write_text(good["alice.txt"])
    hostile = {
        "digits.txt": ("1 " + "9" * 5000 + "\n3 4\n", "unreadable", "digits"),
        "infinity.json": ('{"board": [8, 8], "squares": [[0, Infinity], [1, 2]]}', "unreadable", "Infinity"),
        "nan.json": ('{"board": [8, 8], "squares": [[0, NaN], [1, 2]]}', "unreadable", "NaN"),
        "deep.json": ('{"board": [8, 8], "squares": ' + "[" * 100_000 + "]" * 100_000 + "}", "unreadable", "nests"),
        "huge-board.json": ('{"board": [4096, 4096], "squares": [[0, 0]]}', "unreadable", "16,777,216 squares"),
        "huge-pairs.txt": ("(0, 0) (2, 1) (3999, 3999)\n", "unreadable", "squares"),
        "empty.txt": ("", "unreadable", "empty"),
        "oversized.txt": ("1 2 3 4 5 6 7 8\n" * (MAX_BYTES // 16 + 1), "unreadable", "larger than"),
        "unreadable.txt": (good["alice.txt"], "unreadable", "cannot open"),
    }
    expect = {name: (verdict, word) for name, (_, verdict, word) in hostile.items()}
    for name, (text, _, _) in hostile.items():
        (folder / name).write_text(text)
    (folder / "binary.bin").write_bytes(bytes(range(256)) * 40)
    expect["binary.bin"] = ("unreadable", "binary")
    (folder / "unreadable.txt").chmod(0)

    os.mkfifo(folder / "fifo.txt")
    expect["fifo.txt"] = ("skipped", "FIFO")
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(folder / "socket.txt"))
    server.close()
    expect["socket.txt"] = ("skipped", "socket")
    try:
        os.mknod(folder / "zero.txt", 0o600 | stat.S_IFCHR, os.makedev(1, 5))  # /dev/zero's numbers
        expect["zero.txt"] = ("skipped", "character device")
    except PermissionError:  # no CAP_MKNOD: a link to /dev/zero stands for it (a link out of the folder)
        os.symlink("/dev/zero", folder / "zero.txt")
        expect["zero.txt"] = ("skipped", "outside")
    os.symlink(outside, folder / "link-out.txt")
    expect["link-out.txt"] = ("skipped", "outside the folder")
    os.symlink("/etc/passwd", folder / "passwd.txt")
    expect["passwd.txt"] = ("skipped", "outside the folder")
    os.symlink("nowhere.txt", folder / "dangling.txt")
    expect["dangling.txt"] = ("skipped", "nothing")
    os.symlink("fifo.txt", folder / "link-fifo.txt")
    expect["link-fifo.txt"] = ("skipped", "a link to a FIFO")
    (folder / "late").mkdir()
    (folder / "late" / "bob.txt").write_text(good["alice.txt"])
    expect["late"] = ("skipped", "sub-directory")
    os.symlink("late", folder / "link-dir")
    expect["link-dir"] = ("skipped", "a link to a sub-directory")
    (folder / ".hidden.txt").write_text(good["alice.txt"])  # hidden: left out, no row
    return folder, rows, {name: f"{verdict}|{word}" for name, (verdict, word) in expect.items()}, outside


def test_a_hostile_class_costs_each_entry_its_own_row(tmp_path, capsys, monkeypatch):
    folder, good, hostile, outside = build_class(tmp_path)
    out = tmp_path / "out"
    if os.geteuid() == 0:  # root opens a chmod 000 file: refuse it where the grader opens it, as the kernel would
        real_open = os.open

        def no_permission(path, flags, *args, **kwargs):
            if os.fspath(path).endswith("unreadable.txt"):
                raise PermissionError(errno.EACCES, "Permission denied", path)
            return real_open(path, flags, *args, **kwargs)

        monkeypatch.setattr(os, "open", no_permission)
    before = snapshot(tmp_path, out)
    outside_text = outside.read_text()

    def hung(signum, frame):
        raise TimeoutError("knight grade hung (a FIFO or a device read?)")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(120)
    tracemalloc.start()
    began = time.perf_counter()
    try:
        status, printed, err = run(capsys, "grade", folder, "--out", out)
        took = time.perf_counter() - began
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)

    assert status == 1 and "Traceback" not in err  # some entries were not graded; their rows say why
    assert took < 30 and peak < 200_000_000, (took, peak)  # the 4096 x 4096 board alone took 1.85 GB
    text = (out / "gradebook.csv").read_text(encoding="utf-8")
    table = list(csv.reader(text.splitlines()))
    header, body = table[0], table[1:]
    assert all(not cell.startswith(DANGEROUS) for line in table for cell in line)
    rows = {row["file"]: row for row in (dict(zip(header, line)) for line in body)}
    assert len(body) == len(rows) == len(good) + len(hostile)  # one row per entry, hidden ones left out
    assert set(rows) == {spreadsheet_safe(name) for name in list(good) + list(hostile)}

    for name, want in hostile.items():
        verdict, word = want.split("|")
        row = rows[name]
        assert row["verdict"] == verdict and word in row["note"], (name, row)
        assert row["score"] == ("0" if verdict == "unreadable" else "")
        page = out / f"{Path(name).stem}.html"
        assert page.exists() == (verdict == "unreadable"), name  # a skipped entry gets no page
    for name, want in good.items():
        row = rows[spreadsheet_safe(name)]
        assert {key: row[key] for key in want} == want, (name, row)
        student = row["student"].removeprefix("'")
        assert (out / f"{page_name(student)}.html").exists(), name
    assert rows["alice.txt"]["score"] == "100" and rows["link-in.txt"]["score"] == "100"
    assert rows["'=HYPERLINK(evil).txt"]["student"] == "'=HYPERLINK(evil)"
    assert rows["caf\\xe9.txt"]["student"] == "caf\\xe9"
    copied = rows["copy00.txt"]["copied-from"]
    assert copied.startswith(f"same tour as {COPIES - 1} others: copy01, ") and copied.count(",") == COPIED_SHOWN - 1
    assert rows["alice.txt"]["copied-from"] == ""  # Warnsdorff's own tour, handed in honestly by several
    assert "root:" not in "".join(page.read_text() for page in out.glob("*.html"))  # /etc/passwd never read

    pages = {
        f"{page_name(row['student'].removeprefix(chr(39)))}.html"
        for row in rows.values()
        if row["verdict"] != "skipped"
    }
    assert {path.name for path in out.iterdir()} == pages | {"gradebook.csv", LOCK_NAME}  # no temporary file
    assert snapshot(tmp_path, out) == before and outside.read_text() == outside_text  # nothing written outside OUT
    assert "skipped fifo.txt: a FIFO" in err and "skipped link-out.txt: a link to a file outside" in err


@pytest.mark.parametrize(
    ("content", "word"),
    [
        ("1 " + "9" * 5000 + "\n3 4\n", "5,000 digits"),
        ("(0, 0) (2, " + "1" * 40 + ")\n", "digits"),
        ('{"board": [8, 8], "squares": [[0, 0], [1, Infinity]]}', "Infinity"),
        ('{"board": [8, 8], "squares": [[0, 0], [-Infinity, 2]]}', "-Infinity"),
        ('{"board": [8, 8], "squares": [[NaN, 0]]}', "NaN"),
        ('{"board": [8, 8], "squares": [[0, 0.5]]}', "fraction"),
        ('{"board": [8, 8], "squares": [[0, true]]}', "not numbers"),
        ('{"board": [8, 8], "squares": ' + "[" * 100_000 + "]" * 100_000 + "}", "nests"),
        ('{"board": [4096, 4096], "squares": [[0, 0]]}', "16,777,216 squares"),
        ('{"board": [1, 300001], "squares": [[0, 0]]}', "300,001 squares"),
        ("step,row,col\n1,0,0\n2," + "2" * 30 + ",1\n", "digits"),
    ],
)
def test_check_refuses_what_a_submission_declares_past_the_bounds(tmp_path, capsys, content, word):
    path = tmp_path / "hostile.txt"
    path.write_text(content)
    began = time.perf_counter()
    one_line(*run(capsys, "check", path), word)
    assert time.perf_counter() - began < 2


def test_check_never_blocks_on_a_fifo_or_a_device(tmp_path, capsys):
    os.mkfifo(tmp_path / "fifo")
    one_line(*run(capsys, "check", tmp_path / "fifo"), "FIFO", "not a regular file")  # no writer: was a hang
    one_line(*run(capsys, "check", "/dev/zero"), "character device")  # endless: was 2 MB of zeros read
    os.symlink("/dev/zero", tmp_path / "zero.txt")
    one_line(*run(capsys, "check", tmp_path / "zero.txt"), "character device")


def test_a_zero_based_array_of_300_x_300_reads_in_linear_time(tmp_path, capsys):
    tour = find_tour(Board(300, 300), (0, 0), "warnsdorff", tie="squirrel")
    assert tour.full
    (tmp_path / "big.txt").write_text("\n".join(" ".join(map(str, row)) for row in (tour.array() - 1).tolist()))
    began = time.perf_counter()
    status, out, _ = run(capsys, "check", tmp_path / "big.txt")
    assert status == 0 and "0-based counters" in out
    assert time.perf_counter() - began < 12  # values.index(k) per counter: 26 s here (82 s at 400 x 400)


@pytest.mark.parametrize(
    ("rubric", "word"),
    [
        ("x", "not valid TOML"),
        ("full_tour = nan", "is nan"),
        ("full_tour = inf", "is inf"),
        ("legal = -inf", "is -inf"),
        ("full_tour = -5", "from 0 to 1000"),
        ("copied_penalty = 1e300", "from 0 to 1000"),
        ("full_tour = 'x'", "must be a number"),
        ("partial_credit = 1", "true or false"),
        ('rubric = "x"', "not a table"),
        ("x = " + "[" * 3000 + "]" * 3000, "too deep"),
        ("# " + "x" * 20_000, "larger than"),
    ],
)
def test_a_bad_rubric_is_one_line(tmp_path, capsys, rubric, word):
    (tmp_path / "rubric.toml").write_text(rubric)
    one_line(*run(capsys, "grade", EXAMPLES, "--out", tmp_path / "o", "--rubric", tmp_path / "rubric.toml"), word)
    assert not (tmp_path / "o").exists()  # refused before anything was written


def test_a_rubric_that_is_a_fifo_or_a_device_is_refused_at_once(tmp_path, capsys):
    os.mkfifo(tmp_path / "rubric.toml")
    one_line(*run(capsys, "grade", EXAMPLES, "--out", tmp_path / "o", "--rubric", tmp_path / "rubric.toml"), "FIFO")
    one_line(*run(capsys, "grade", EXAMPLES, "--out", tmp_path / "o", "--rubric", "/dev/zero"), "character device")


def test_a_link_planted_at_the_gradebook_is_replaced_not_followed(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    (out / "gradebook.csv").symlink_to(victim)
    (out / "alice.html").symlink_to(victim)
    status, _, _ = run(capsys, "grade", EXAMPLES, "--out", out)
    assert status == 1 and victim.read_text() == "precious"
    assert not (out / "gradebook.csv").is_symlink() and (out / "gradebook.csv").read_text().startswith("student,")
    assert not (out / "alice.html").is_symlink()


def test_a_second_grader_into_the_same_out_stops_in_one_line(tmp_path, capsys):
    out = tmp_path / "out"
    assert run(capsys, "grade", EXAMPLES, "--out", out)[0] == 1
    first = (out / "gradebook.csv").read_text()
    other = tmp_path / "other"
    other.mkdir()
    (other / "zed.txt").write_bytes((EXAMPLES / "alice.txt").read_bytes())
    with Output(out):  # another grader holds OUT
        one_line(*run(capsys, "grade", other, "--out", out), "being written by another knight grade", str(out))
    assert (out / "gradebook.csv").read_text() == first and not (out / "zed.html").exists()
    assert run(capsys, "grade", other, "--out", out)[0] == 0  # once it is done, the next one runs


def test_an_empty_out_is_refused(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    one_line(*run(capsys, "grade", EXAMPLES, "--out", ""), "--out is empty")
    assert list(tmp_path.iterdir()) == []  # nothing written into the current directory


def test_out_that_is_a_file_is_one_line(tmp_path, capsys):
    (tmp_path / "file").write_text("x")
    one_line(*run(capsys, "grade", EXAMPLES, "--out", tmp_path / "file"), str(tmp_path / "file"), "give a folder")


def test_a_read_only_out_is_one_line(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    if os.geteuid() == 0:  # permissions do not stop root; the immutable flag does
        subprocess.run(["chattr", "+i", str(out)], check=True)
    else:
        out.chmod(0o555)
    try:
        one_line(*run(capsys, "grade", EXAMPLES, "--out", out), f"cannot use {out}", "--out")
        one_line(*run(capsys, "grade", EXAMPLES, "--out", out / "sub"), f"cannot use {out / 'sub'}")
    finally:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(out)], check=True)
        else:
            out.chmod(0o755)
    assert list(out.iterdir()) == []


def test_a_full_disk_is_one_line_and_leaves_no_temporary_file(tmp_path, capsys, monkeypatch):
    out = tmp_path / "out"
    write_text = Path.write_text
    written = []

    def full_disk(self, data, *args, **kwargs):
        if self.name.endswith(".partial") and len(written) == 3:  # the disk fills at the fourth file
            write_text(self, data[: len(data) // 2], *args, **kwargs)  # half of it reaches the disk
            raise OSError(errno.ENOSPC, "No space left on device", str(self))
        written.append(self.name)
        return write_text(self, data, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", full_disk)
    status, out_text, err = run(capsys, "grade", EXAMPLES, "--out", out)
    monkeypatch.undo()
    one_line(status, out_text, err, "cannot write", str(out), "no space left on device")
    left = sorted(path.name for path in out.iterdir())
    assert len(left) == 4 and LOCK_NAME in left and "gradebook.csv" not in left  # 3 pages, the lock; no temp file


def test_a_killed_grade_leaves_nothing_taken_for_output(tmp_path):
    source = tmp_path / "class"
    source.mkdir()
    text = (EXAMPLES / "bob.txt").read_bytes()
    for i in range(3000):
        (source / f"s{i:04}.txt").write_bytes(text)
    out = tmp_path / "out"
    grader = subprocess.Popen(
        [sys.executable, "-m", "knight", "grade", str(source), "--out", str(out), "-q"],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while not (out / "s0010.html").exists() and grader.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert grader.poll() is None, "graded 3000 files before it could be killed"
        grader.kill()  # SIGKILL: nothing runs after it
    finally:
        grader.wait()
    assert not (out / "gradebook.csv").exists()  # never half of one: the rows were to be written whole
    (out / ".gradebook.csv.999999999.k3x_9q0a.partial").write_text("a killed run's")  # as left by a killed writer
    one = tmp_path / "one"
    one.mkdir()
    (one / "ann.txt").write_bytes(text)
    assert (
        subprocess.run(
            [sys.executable, "-m", "knight", "grade", str(one), "--out", str(out), "-q"], cwd=REPO
        ).returncode
        == 0
    )
    assert not list(out.glob(".*.partial"))
    assert [row["student"] for row in csv.DictReader(open(out / "gradebook.csv"))] == ["ann"]


def test_start_off_the_board_is_refused(tmp_path, capsys):
    alice = EXAMPLES / "alice.txt"
    one_line(*run(capsys, "check", alice, "--start", "-1", "-1"), "--start -1 -1", "off the board")
    one_line(*run(capsys, "check", alice, "--start", "8", "0", "--board", "8"), "off the assigned 8x8 board")
    one_line(*run(capsys, "check", alice, "--start", "0", "5000000"), "on no board")
    one_line(*run(capsys, "grade", EXAMPLES, "--out", tmp_path / "o", "--start", "0", "-3"), "off the board")
    one_line(*run(capsys, "grade", EXAMPLES, "--out", tmp_path / "o", "--board", "5", "--start", "5", "0"), "5x5")
    one_line(*run(capsys, "check", alice, "--board", "4096"), "at most 300,000")
    assert not (tmp_path / "o").exists()
    assert run(capsys, "check", alice, "--start", "0", "0", "--board", "8")[0] == 0


def test_spreadsheet_safe_quotes_what_a_spreadsheet_would_run():
    for cell in ("=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx", "-"):
        assert spreadsheet_safe(cell) == "'" + cell
    for cell in ("alice", "100", "0", "", "full tour, open", "'=already"):
        assert spreadsheet_safe(cell) == cell


def test_check_reads_and_names_a_file_whose_name_is_not_utf8(tmp_path, capsys):
    name = os.path.join(os.fsdecode(bytes(tmp_path)), os.fsdecode(b"caf\xe9.txt"))
    with open(name, "wb") as handle:
        handle.write((EXAMPLES / "alice.txt").read_bytes())
    assert run(capsys, "check", name)[0] == 0
    one_line(*run(capsys, "check", name + ".missing"), "caf\\xe9.txt.missing", "cannot open")
