"""The command line's conventions of issue 38, item 5, and where results live (item 4): ``-h`` is ``--help``, a flag
is shown as a flag, a chess square off the board is echoed as typed, ``knight check --json`` is JSON for an
unreadable file, no INFO line reaches a terminal without ``-v``, and the default store is the clone's ``var/``
inside a clone and the user's data folder anywhere else."""

from __future__ import annotations

import io
import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from knight.cli import main
from knight.cli.squares import parse_square
from knight.errors import InvalidInput
from knight.runner.bar import BarReporter
from knight.runner.progress import reporter_for
from knight.store.location import DEFAULT_STORE, STORE_FILE, clone_root, default_store, store_path

CLONE = Path(__file__).resolve().parents[2]
COMMANDS = ["run", "census", "check", "grade", "report", "results", "site", "starts", "tour", "verify"]


def knight_cli(capsys, *argv: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as stop:
        main(list(argv))
    out, err = capsys.readouterr()
    return stop.value.code, out, err


@pytest.mark.parametrize("command", [[], *([name] for name in COMMANDS)])
def test_dash_h_is_the_help_and_a_flag_is_shown_without_a_value(capsys, command):
    short = knight_cli(capsys, *command, "-h")
    long = knight_cli(capsys, *command, "--help")
    assert short[0] == long[0] == 0
    assert short[1] == long[1] and "Usage: knight" in short[1]
    assert "<bool>" not in short[1]  # --json, --quiet, --closed, --pdf/--no-pdf: flags, not values


def test_the_top_level_help_says_where_the_results_go(capsys):
    help_text = " ".join(knight_cli(capsys, "--help")[1].split())
    assert "$KNIGHT_STORE" in help_text and "var/knight.sqlite in a clone" in help_text
    assert "user's data folder" in help_text


@pytest.mark.parametrize(("square", "words"), [("z9", "--start z9 is off"), ("a0", "--start a0 is off")])
def test_a_chess_square_off_the_board_is_echoed_as_typed(capsys, square, words):
    status, out, err = knight_cli(capsys, "tour", "8", "--start", square)
    assert status == 2 and out == ""
    assert err.startswith(f"knight: error: {words}") and "(-1, 25)" not in err and len(err.splitlines()) == 1


def test_a_chess_square_beyond_the_files_is_echoed_when_the_columns_are_known():
    with pytest.raises(InvalidInput, match=r"--start z1 is off the 8x8 board: files a to h, ranks 1 to 8"):
        parse_square("z1", "--start", 8, 8)
    assert parse_square("h1", "--start", 8, 8) == (7, 7)


def test_check_json_is_json_for_an_unreadable_file(capsys, tmp_path):
    status, out, _ = knight_cli(capsys, "check", str(tmp_path / "missing.txt"), "--json")
    document = json.loads(out)
    assert status == 2 and document["verdict"] == "unreadable" and list(document)[0] == "version"


def _record(level: int) -> logging.LogRecord:
    return logging.LogRecord("knight.runner", level, __file__, 1, "run 1: 3 tasks", None, None)


@pytest.mark.parametrize("verbose", [False, True])
def test_no_info_line_reaches_a_terminal_without_verbose(verbose):
    terminal = io.StringIO()
    bar = BarReporter(Console(file=terminal, force_terminal=True, width=120), verbose=verbose)
    handler = bar.log_handler()
    handler.handle(_record(logging.INFO))
    handler.handle(_record(logging.WARNING))
    shown = terminal.getvalue()
    assert shown.count("knight.runner") == (2 if verbose else 1)
    assert ("INFO" in shown) == verbose and "WARNING" in shown


def test_the_terminal_reporter_is_told_verbose():
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert reporter_for(Terminal(), verbose=True).verbose is True  # type: ignore[union-attr]
    assert reporter_for(Terminal()).verbose is False  # type: ignore[union-attr]


def test_inside_a_clone_the_store_is_the_clones_var(monkeypatch):
    monkeypatch.delenv("KNIGHT_STORE", raising=False)
    assert clone_root(CLONE / "docs") == CLONE
    monkeypatch.chdir(CLONE)
    assert store_path() == DEFAULT_STORE  # relative, as before, at the clone's top
    monkeypatch.chdir(CLONE / "docs")
    assert store_path() == CLONE / DEFAULT_STORE  # never a docs/var/


def test_outside_a_clone_the_store_is_in_the_users_data_folder(monkeypatch, tmp_path):
    monkeypatch.delenv("KNIGHT_STORE", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "deep").mkdir(parents=True)
    (elsewhere / "pyproject.toml").write_text('[project]\nname = "another"\n')  # another project: not a clone
    monkeypatch.chdir(elsewhere / "deep")
    if sys.platform.startswith("linux"):
        assert default_store() == tmp_path / "data" / "knight" / STORE_FILE
    assert store_path() == default_store() and clone_root() is None
    monkeypatch.setenv("KNIGHT_STORE", str(tmp_path / "named.sqlite"))
    assert store_path() == tmp_path / "named.sqlite"


def test_knight_census_outside_a_clone_writes_no_var_where_it_runs(tmp_path):
    data = tmp_path / "data"
    env = {key: value for key, value in os.environ.items() if key != "KNIGHT_STORE"}
    done = subprocess.run(
        [sys.executable, "-m", "knight", "census", "3", "4", "-q", "--json"],
        cwd=tmp_path,
        env={**env, "XDG_DATA_HOME": str(data)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "var").exists()
    if sys.platform.startswith("linux"):
        assert (data / "knight" / STORE_FILE).is_file()


def test_make_clean_keeps_the_store_and_distclean_removes_it():
    makefile = (CLONE / "Makefile").read_text(encoding="utf-8")
    clean = makefile.split("\nclean:", 1)[1].split("\n\n", 1)[0]
    distclean = makefile.split("\ndistclean:", 1)[1].split("\n\n", 1)[0]
    assert " var" not in clean and "rm -rf var" in distclean
