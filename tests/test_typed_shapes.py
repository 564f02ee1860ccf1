"""Values in knight/ have real shapes: `dict[str, Any]` is left only where nothing narrower is true (a JSON or
TOML document read back, a jinja or exec namespace, pydantic's field definitions), each saying why."""

from __future__ import annotations

import io
import tokenize
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "knight"
LOOSE = "dict[str, Any]"
#: At most this many may stay (issue 30: under 15).
MOST = 14


def loose_dicts(source: str) -> list[tuple[int, bool]]:
    """Each line of ``source`` that writes ``dict[str, Any]`` in code (not in a comment or a docstring), and
    whether a comment says why: on that line, or a comment line just above it."""
    comments: dict[int, bool] = {}  # line -> the comment is the whole line
    in_code: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            comments[token.start[0]] = not token.line[: token.start[1]].strip()
        elif token.type == tokenize.OP and token.string == "[":
            in_code.add(token.start[0])
    lines = source.splitlines()
    found = []
    for number, line in enumerate(lines, start=1):
        code = line.split("#", 1)[0]
        if LOOSE in code and number in in_code:
            found.append((number, number in comments or comments.get(number - 1, False)))
    return found


def test_the_check_finds_a_bare_one_and_accepts_a_commented_one():
    source = (
        "from typing import Any\n"
        "def f(a: dict[str, Any]) -> None: ...\n"
        "def g(a: dict[str, Any]) -> None: ...  # a JSON document read back\n"
        "# a jinja namespace\n"
        "def h() -> dict[str, Any]: ...\n"
        '"""dict[str, Any] in a docstring is not code"""\n'
    )
    assert loose_dicts(source) == [(2, False), (3, True), (5, True)]


def test_few_loose_dicts_are_left_and_each_says_why():
    found = {
        f"{path.relative_to(PACKAGE.parent)}:{number}": why
        for path in sorted(PACKAGE.rglob("*.py"))
        for number, why in loose_dicts(path.read_text(encoding="utf-8"))
    }
    assert found, "the check finds none at all: it no longer reads the package"
    assert len(found) <= MOST, f"{len(found)} dict[str, Any] in knight/ (at most {MOST}): {', '.join(found)}"
    unexplained = [place for place, why in found.items() if not why]
    assert not unexplained, f"say why each stays, in a comment on its line or the line above: {unexplained}"
