"""Bad input, fuzzed: every command with random options, numbers at and past their bounds, paths that
are directories, missing, unwritable, not SQLite or cut short, and malformed job files. Whatever comes
in, a command ends with its documented status, and bad input with exactly one line on stderr and
status 2 — never a traceback (issue 16).
"""

from __future__ import annotations

import sqlite3
import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from knight.cli import main

#: The statuses each command documents (0 done, 1 an answer that is not a success, 2 bad input).
STATUSES = {
    "tour": {0, 1, 2},
    "starts": {0, 2},
    "census": {0, 1, 2},
    "run": {0, 1, 2},
    "results": {0, 2},
    "report": {0, 2},
    "check": {0, 1, 2},
    "grade": {0, 1, 2},
    "verify": {0, 1, 2},
}
NUMBERS = ["-1", "0", "1", "2", "3", "4", "5", "4097", "16777217", "99999999999999999999999", "1e9", "x", "", "3.5"]
TEXT = st.text(alphabet=string.printable, max_size=12)


@pytest.fixture(scope="module")
def places(tmp_path_factory) -> dict[str, Path]:
    """Paths of every awkward kind."""
    root = tmp_path_factory.mktemp("fuzz")
    notes = root / "notes.sqlite"
    notes.write_text("not a database\n" * 50)
    empty = root / "empty.sqlite"
    empty.write_bytes(b"")
    cut = root / "cut.sqlite"
    with sqlite3.connect(cut) as db:
        db.execute("CREATE TABLE t (x)")
        db.executemany("INSERT INTO t VALUES (?)", [(i,) for i in range(2000)])
    cut.write_bytes(cut.read_bytes()[:5000])
    locked = root / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    bad_job = root / "bad.toml"
    bad_job.write_text("[[sweep]]\nboards = [5]\n")
    return {
        "dir": root,
        "missing": root / "missing" / "x.sqlite",
        "notes": notes,
        "empty": empty,
        "cut": cut,
        "locked": locked / "x",
        "bad_job": bad_job,
        "file_as_dir": notes / "below",
    }


def _value(kind: str, draw, places: dict[str, Path]) -> str:
    if kind == "number":
        return draw(st.sampled_from(NUMBERS))
    if kind == "path":
        return str(draw(st.sampled_from(sorted(places.values()))))
    return draw(TEXT)


#: Each command's arguments and options, with the kind of value they take.
COMMANDS = {
    "tour": (
        ["number"],
        {
            "--start": 2,
            "--method": "text",
            "--tie": "text",
            "--seed": "number",
            "--budget": "number",
            "--order": "text",
            "--remove": "text",
        },
    ),
    "starts": (["number"], {"--budget": "number"}),
    "census": (
        ["number"],
        {
            "--start": 2,
            "--depth": "number",
            "--remove": "text",
            "--workers": "number",
            "--store": "path",
            "--executor": "text",
        },
    ),
    "run": (["path"], {"--workers": "number", "--store": "path", "--executor": "text", "--scheduler": "text"}),
    "results": ([], {"--store": "path"}),
    "report": ([], {"--store": "path", "--out": "path", "--job": "path", "--paper": "text", "--edition": "text"}),
    "check": (["path"], {"--board": "text", "--format": "text", "--start": 2}),
    "grade": (["path"], {"--out": "path", "--board": "text"}),
    "verify": ([], {"--store": "path"}),
}


@st.composite
def command_lines(draw, places: dict[str, Path]) -> list[str]:
    name = draw(st.sampled_from(sorted(COMMANDS)))
    arguments, options = COMMANDS[name]
    line = [name] + [_value(kind, draw, places) for kind in arguments]
    for option in draw(st.lists(st.sampled_from(sorted(options)), max_size=3, unique=True)):
        kind = options[option]
        values = (
            [_value("number", draw, places) for _ in range(kind)]
            if isinstance(kind, int)
            else [_value(kind, draw, places)]
        )
        line += [option, *values]
    if name == "report":
        line.append("--no-pdf")
    if name in ("results", "verify", "report", "census") and "--store" not in line:
        line += ["--store", str(places["missing"])]  # never the project's own store
    return line


@settings(
    max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_any_command_line_ends_with_its_status_and_bad_input_with_one_line(places, capsys, data):
    line = data.draw(command_lines(places))
    capsys.readouterr()
    try:
        main(line)
        status = 0
    except SystemExit as stop:
        status = stop.code if isinstance(stop.code, int) else 0
    err = capsys.readouterr().err
    assert status in STATUSES[line[0]], (line, status, err)
    assert "Traceback" not in err, (line, err)
    if status == 2:
        assert err.count("\n") == 1 and err.startswith("knight: error:"), (line, err)


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    text=st.one_of(
        TEXT,
        st.text(max_size=200),
        st.builds(lambda body: "[[sweep]]\n" + body, st.text(max_size=120)),
        st.sampled_from(
            [
                '[[sweep]]\nboards = ["5..1000000000"]\nstarts = "all"\nmethod = "naive"\n',
                '[[sweep]]\nboards = [5]\nstarts = "all"\nmethod = "warnsdorff"\n'
                'params = { tie = "random" }\nrepeats = -3\n',
                '[[sweep]]\nboards = [5]\nstarts = [[9, 9]]\nmethod = "naive"\n',
                '[[sweep]]\nboards = [0]\nstarts = "all"\nmethod = "naive"\n',
                '[[sweep]]\nboards = [5]\nstarts = "all"\nmethod = "census"\nparams = { depth = 0 }\n',
            ]
        ),
    )
)
def test_a_malformed_job_file_is_one_line_and_status_2(tmp_path_factory, capsys, text):
    folder = tmp_path_factory.mktemp("job")
    job = folder / "fuzzed.toml"
    job.write_text(text)
    capsys.readouterr()
    with pytest.raises(SystemExit) as stop:
        main(["run", str(job), "--store", str(folder / "s.sqlite"), "--workers", "1"])
    err = capsys.readouterr().err
    assert stop.value.code in (0, 2), (text, err)
    if stop.value.code == 2:
        assert err.count("\n") == 1 and err.startswith("knight: error:"), (text, err)
