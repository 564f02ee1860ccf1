"""A store holding only some of the runs a question needs (a small job of one's own, run from a few starts): the
report still renders, and each question it cannot answer says what to run instead of stopping with a traceback.

Each store is made by `knight run` on a small job (a second or two); the report is written without PDF.
"""

from __future__ import annotations

import html as html_text
import re

import pytest
from runner_helpers import knight, write_job

from knight.report.questions import labels

#: Warnsdorff's rule from the corner only, with two tie-breaks, on 5 x 5 to 8 x 8: the homework asks for other starts
#: too (B3's 6 x 6 from (0, 1) was a KeyError), Deitel's answers for all 64.
CORNER_ONLY = """
[[sweep]]
boards = ["5..8"]
starts = [[0, 0]]
method = "warnsdorff"
params = { tie = ["first", "roth"] }
"""

#: A backtracking search from one inner square of 5 x 5 and none from (0, 0) (C1 drew the first tour of a list
#: left empty: an IndexError), beside the blog's script run from every start of 8 x 8.
OTHER_STARTS = """
[[sweep]]
boards = [5]
starts = [[2, 2]]
method = "backtrack"
[[sweep]]
boards = [8]
starts = "all"
method = "warnsdorff"
params = { tie = "blog" }
"""


@pytest.mark.parametrize(
    ("job", "census", "unanswered"),
    [(CORNER_ONLY, ["census", "5"], ["B3", "B4"]), (OTHER_STARTS, None, ["C1"])],
    ids=["corner-only", "other-starts"],
)
def test_a_question_without_its_data_says_what_to_run(tmp_path, job, census, unanswered):
    store = tmp_path / "knight.sqlite"
    done = knight(["run", str(write_job(tmp_path, "partial", job))], store, timeout=120)
    assert done.returncode == 0, done.stderr
    if census:
        assert knight(census, store).returncode == 0
    done = knight(["report", "--store", str(store), "--out", str(tmp_path), "--no-pdf"], store, timeout=120)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
    page = html_text.unescape((tmp_path / "knights-tour.html").read_text())
    number = {label: anchor for anchor, label in labels().items()}
    for label in unanswered:
        section = re.search(rf'<section class="question" id="q-{number[label]}">(.*?)</section>', page, re.S)
        assert section, label
        missing = re.search(r'<p class="missing">(.*?)</p>', section.group(1), re.S)
        assert missing and "knight run jobs/" in missing.group(1), f"{label} is not marked missing"
