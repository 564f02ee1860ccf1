"""One checker, two front ends: `knight check` and the site's self-check page give every input of the corpus
(tests/conformance/inputs/) the verdict expected.json holds, with the same first error step, repeated and
unvisited squares, words and verdict on the assignment. regenerate.py wrote expected.json from the command;
these tests hold the command to it and the page to it, the page both picking the file (its bytes) and pasting
its text (read as its UTF-8 bytes, as the command reads a file)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from check_page import FIELDS, Given, compared, open_check, page_report, pastable
from cli_helpers import knight_here
from runner_helpers import knight

HERE = Path(__file__).resolve().parent
EXPECTED = json.loads((HERE / "expected.json").read_text(encoding="utf-8"))
#: What each class of input exercises (the first word of its name).
CLASSES = {"separator", "digits", "bom", "nul", "array", "pairs", "chess", "csv", "json", "assigned"}


def given(name: str) -> Given:
    args = EXPECTED[name]["args"]
    option = {args[i]: args[i + 1] for i in range(len(args)) if args[i] in ("--board", "--start", "--format")}
    return Given(
        (HERE / "inputs" / name).read_bytes(),
        option.get("--board"),
        option.get("--start"),
        "--closed" in args,
        option.get("--format"),
    )


def test_the_corpus_covers_every_format_verdict_and_character_class():
    assert len(EXPECTED) >= 80
    assert sorted(EXPECTED) == sorted(path.name for path in (HERE / "inputs").iterdir())
    assert {name.split("-")[0] for name in EXPECTED} >= CLASSES
    readable = Counter((entry["format"], entry["verdict"]) for entry in EXPECTED.values() if "format" in entry)
    for fmt in ("array", "pairs", "chess", "csv", "json"):
        assert readable[fmt, "full"] and readable[fmt, "partial"] and readable[fmt, "not a tour"], fmt
    unreadable = {name.split("-")[0] for name, entry in EXPECTED.items() if entry["verdict"] == "unreadable"}
    assert {"array", "json", "csv", "bom", "nul", "digits", "separator"} <= unreadable
    assert {entry["status"] for entry in EXPECTED.values()} == {0, 1, 2}
    assert any(entry.get("closed") for entry in EXPECTED.values())
    assert any(entry.get("repeated") for entry in EXPECTED.values())
    assert any(entry.get("assigned") is False for entry in EXPECTED.values())
    for entry in EXPECTED.values():  # the exit status is the verdict on the assignment
        assert entry["status"] == (2 if entry["verdict"] == "unreadable" else 0 if entry["passed"] else 1)
        assert entry["verdict"] == "unreadable" or set(FIELDS) <= set(entry)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_command_gives_the_expected_verdict(name, capsys):
    entry = EXPECTED[name]
    ran = knight_here(capsys, ["check", str(HERE / "inputs" / name), "--json", *entry["args"]])
    assert ran.returncode == entry["status"], ran.stderr
    report = json.loads(ran.stdout) if ran.stdout.strip() else {"verdict": "unreadable", "errors": [ran.stderr]}
    assert {"status": entry["status"], "args": entry["args"], **compared(report)} == entry


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    done = knight(["site", "--out", str(out), "--today", "2000-01-01", "--no-pdf"], out / "no-store.sqlite")
    assert done.returncode == 0, done.stderr
    return out


def test_the_page_gives_the_expected_verdicts(browser, site):  # noqa: F811
    page, errors, requests = open_check(browser, site)
    try:
        disagree, runs = [], 0
        for name in sorted(EXPECTED):
            item = given(name)
            expected = {key: value for key, value in EXPECTED[name].items() if key not in ("args", "status")}
            for paste in (False, True) if pastable(item.data) else (False,):
                shown = compared(page_report(page, item, paste=paste))
                runs += 1
                if shown != expected:
                    diff = {
                        key: (shown.get(key), expected.get(key)) for key in expected if shown.get(key) != expected[key]
                    }
                    disagree.append(f"{name} ({'pasted' if paste else 'picked'}): page vs command {diff}"[:600])
        assert disagree == [], f"{len(disagree)} of {runs} disagree:\n" + "\n".join(disagree[:10])
        assert runs >= len(EXPECTED) + 80
        assert errors == []
        assert requests == [(site / "check.html").as_uri()]  # offline: nothing but the page itself
    finally:
        page.context.close()
