"""The two front ends of one checker, side by side: `knight check` (its Python functions, or the command itself)
and the site's self-check page (check.html in Chromium), each given the same bytes and the same assignment and
each giving the same report (the fields of ``knight check --json``). Used by tests/conformance/ and
tests/report/test_self_check.py."""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from pathlib import Path

from knight.errors import InvalidInput, Unreadable

#: The fields of ``knight check --json`` the page gives too (not the methods that reproduce a tour: the page
#: does not search).
FIELDS = (
    "verdict",
    "format",
    "board",
    "notes",
    "summary",
    "length",
    "closed",
    "first_error_step",
    "errors",
    "repeated",
    "off_board",
    "unvisited",
    "rule_followed",
    "rule_broken_at",
    "rule_allowed",
    "assigned",
    "assigned_note",
    "closed_assigned",
    "passed",
    "advice",
)


@dataclass(frozen=True)
class Given:
    """One input: its bytes and the assignment (``--board``, ``--start``, ``--closed``, ``--format``)."""

    data: bytes
    board: str | None = None
    start: str | None = None
    closed: bool = False
    fmt: str | None = None

    def args(self) -> list[str]:
        """The options of ``knight check`` for this assignment."""
        args = []
        if self.board:
            args += ["--board", self.board]
        if self.start:
            args += ["--start", self.start]
        if self.closed:
            args.append("--closed")
        if self.fmt:
            args += ["--format", self.fmt]
        return args


def compared(report: dict) -> dict:
    """What both front ends must agree on: every field of :data:`FIELDS`; of an unreadable input the verdict and
    the reason, except where the reason is the JSON parser's own words (Python's and the browser's differ)."""
    if report["verdict"] == "unreadable":
        error = report["errors"][0]
        return {"verdict": "unreadable", "error": "invalid JSON" if error.startswith("invalid JSON") else error}
    return {name: report[name] for name in FIELDS}


def python_report(given: Given) -> dict:
    """What `knight check --json` reports, from its functions in this process (no reproduction search)."""
    from knight.cli.squares import parse_square
    from knight.grading.check import assigned_start, check, unreadable_report
    from knight.grading.formats import MAX_BYTES, parse_board, parse_bytes, too_large

    board = parse_board(given.board) if given.board else None
    square = None
    if given.start:
        square = assigned_start(parse_square(given.start, "--start", board.n if board else None), board)
    try:
        if len(given.data) > MAX_BYTES:
            raise Unreadable(too_large())
        submission = parse_bytes(given.data, board=board, fmt=given.fmt)
    except Unreadable as error:
        return dict(unreadable_report(str(error), given.fmt))
    return dict(check(submission, board=board, start=square, closed=given.closed, reproduce=False).to_dict())


#: One input through the page's own controls: the assignment into its fields, then the text pasted into #tour
#: and Check pressed, or the bytes picked as a file (#file); the report the page then shows (its data).
PAGE_RUN = """async ([text, encoded, board, start, closed, fmt]) => {
  const $ = (id) => document.getElementById(id);
  $("board-size").value = board; $("start").value = start; $("closed").checked = closed; $("format").value = fmt;
  const box = $("verdict"), before = Number(box.dataset.runs || 0);
  if (encoded === null) {
    $("tour").value = text;
    $("tour").dispatchEvent(new Event("input"));
    $("check").click();
  } else {
    const raw = atob(encoded), bytes = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    const picked = new DataTransfer();
    picked.items.add(new File([bytes], "tour.txt", {type: "text/plain"}));
    $("file").files = picked.files;
    $("file").dispatchEvent(new Event("change"));
  }
  for (let wait = 0; Number(box.dataset.runs || 0) === before; wait++) {
    if (wait > 500) throw new Error("the page gave no verdict");
    await new Promise((done) => setTimeout(done, 10));
  }
  return {report: window.knightCheckReport, text: box.textContent};
}"""


def page_report(page, given: Given, *, paste: bool) -> dict:
    """What the page reports on ``given``: pasted as text (its UTF-8 decoding) or picked as a file (its bytes)."""
    text = given.data.decode("utf-8") if paste else None
    encoded = None if paste else base64.b64encode(given.data).decode("ascii")
    shown = page.evaluate(
        PAGE_RUN, [text, encoded, given.board or "", given.start or "", given.closed, given.fmt or ""]
    )
    assert shown["text"].strip(), "the page shows no verdict"
    return shown["report"]


def open_check(browser, site: Path, width: int = 1024):
    """check.html offline in a new context: the page, the errors it reports and every request it makes."""
    context = browser.new_context(viewport={"width": width, "height": 800}, offline=True)
    page = context.new_page()
    errors: list[str] = []
    requests: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(f"uncaught: {error}"))
    page.on("request", lambda request: requests.append(request.url))
    page.goto((site / "check.html").as_uri())
    return page, errors, requests


def pastable(data: bytes) -> bool:
    """Whether pasting ``data``'s text is the same input as the file: UTF-8 (a paste is read as its UTF-8 bytes)."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


__all__ = [
    "FIELDS",
    "Given",
    "InvalidInput",
    "PAGE_RUN",
    "compared",
    "dumps",
    "open_check",
    "page_report",
    "pastable",
    "python_report",
]
