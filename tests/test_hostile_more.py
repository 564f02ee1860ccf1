"""Issue 26's audit, grading: what the first round of hostile-input fixes missed.

A submission built to make a regular expression backtrack (each reads in linear time); a stamp, a lock file or
a leftover's name planted in OUT; a sub-directory swapped for a link while a class is graded; a rubric of huge
integers or with a byte-order mark; a board too large to draw; a path holding a newline in a one-line error;
UTF-16 text; links that loop or lead to the folder itself; identical non-tours; an interrupted gradebook.
"""

from __future__ import annotations

import os
import signal
from contextlib import contextmanager
from pathlib import Path

import pytest

from knight.cli import main
from knight.report.render import write_pdf

REPO = Path(__file__).resolve().parent.parent
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


@contextmanager
def deadline(seconds: int, what: str):
    """Fail instead of hanging: a FIFO read or a runaway regular expression raises after ``seconds``."""

    def hung(signum, frame):
        raise TimeoutError(f"{what} took more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_a_pdf_stamp_planted_as_a_fifo_or_a_link_is_not_read(tmp_path):
    page = "<p>a page</p>"
    pdf = tmp_path / "alice.pdf"
    stamp = tmp_path / ".alice.pdf.source"
    with deadline(30, "write_pdf"):
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
