"""knight's values converted both ways, with the same result (issue 39, item 5).

Typer 0.29 converts every value through pydantic, about 0.1 s of each command's start; knight replaces that
conversion on its parameters (knight/cli/options.py, ``plain_values``), through a method of typer's that is not
documented. So it does so only on the typer releases it was tested on (``TYPER_RELEASES_TESTED``); on any other,
typer's own conversion runs. Each command here runs both ways, the fallback forced by giving typer a version
outside the list, and must print the same, exit the same and say the same errors.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import typer
import typer.main
from cli_helpers import knight_cli
from runner_helpers import REPO

from knight.cli import app
from knight.cli.options import TYPER_RELEASES_TESTED, PlainValues, typer_shortcut

EXAMPLES = REPO / "examples" / "submissions"
UNTESTED = "0.0.0-untested"  # a typer release the shortcut was never tested on

COMMANDS = [
    ["tour", "5", "--start", "0,0"],
    ["tour", "5", "--start", "0,0", "--json"],
    ["tour", "6", "--start", "b1", "--tie", "random", "--seed", "3", "--json"],
    ["tour", "6", "--start", "b1", "--tie", "roth", "--seed", "3"],  # refused: the seed is the random tie-break's
    ["tour", "5", "4", "--method", "backtrack", "--closed", "--budget", "1000", "--json"],
    ["check", EXAMPLES / "alice.txt"],
    ["check", EXAMPLES / "alice.txt", "--board", "8", "--start", "0,0", "--closed", "--json"],
    ["check", EXAMPLES / "dave.txt", "--board", "8", "--format", "array", "--quiet"],
    ["check", EXAMPLES / "frank.csv", "--board", "8", "--start", "a1", "--json"],
    ["--help"],
    ["tour", "--help"],
    ["check", "--help"],
    ["--version"],
    # the errors: a name not among the choices, a square off the board, a flag given a value that is not one
    ["tour", "5", "--tie", "nope"],
    ["tour", "5", "--start", "9,9"],
    ["check", EXAMPLES / "alice.txt", "--format", "xml"],
    ["check", EXAMPLES / "alice.txt", "--closed=maybe"],
]


def _both_ways(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[object]):
    shortcut = knight_cli(capsys, *argv)
    with monkeypatch.context() as patch:
        patch.setattr(typer, "__version__", UNTESTED)
        assert not typer_shortcut()
        fallback = knight_cli(capsys, *argv)
    return shortcut, fallback


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda argv: " ".join(map(str, argv)).replace(str(EXAMPLES), "…"))
def test_a_command_says_the_same_either_way(capsys, monkeypatch, argv):
    shortcut, fallback = _both_ways(capsys, monkeypatch, argv)
    assert shortcut == fallback


@pytest.mark.parametrize("argv", [["tour", "x"], ["tour", "5", "--seed", "one"], ["census", "5", "--workers", "2.5"]])
def test_a_value_of_the_wrong_kind_is_refused_either_way_in_its_own_words(capsys, monkeypatch, argv):
    """The one difference: typer's conversion says why a value is not an integer in pydantic's words."""
    shortcut, fallback = _both_ways(capsys, monkeypatch, argv)
    assert shortcut[:2] == fallback[:2] == (2, "")
    assert shortcut[2].endswith(" is not a valid integer. (see --help)\n")
    assert fallback[2].endswith(
        ": Input should be a valid integer, unable to parse string as an integer (see --help)\n"
    )
    assert shortcut[2].split(": ")[:3] == fallback[2].split(": ")[:3]  # knight: error: Invalid value for 'n'


def test_the_fallback_is_typers_own_conversion(monkeypatch):
    """On an untested typer no parameter's conversion is replaced; on a tested one the plain ones are."""

    def runtime(version: str) -> dict[str, object]:
        with monkeypatch.context() as patch:
            patch.setattr(typer, "__version__", version)
            group = typer.main.get_command(app)
            command = group.commands["tour"]  # type: ignore[attr-defined]  # a group
            with command.make_context("tour", ["5"]) as ctx:
                return {param.name: param.get_runtime_param() for param in command.get_params(ctx)}

    assert isinstance(runtime(typer.__version__)["n"], PlainValues)
    assert not any(isinstance(each, PlainValues) for each in runtime(UNTESTED).values())


def test_the_installed_typer_is_one_the_shortcut_was_tested_on():
    """Run on another typer, this fails: run this file with it, and once it passes add the release to
    knight.cli.options.TYPER_RELEASES_TESTED (until then knight works, 0.1 s slower to start)."""
    assert typer.__version__ in TYPER_RELEASES_TESTED and typer_shortcut()


def test_pydantic_is_loaded_only_by_the_fallback():
    """The whole process, both ways: the same document, and pydantic imported only where typer converts."""
    code = (
        "import sys, typer\n"
        "if sys.argv[1] != 'shortcut':\n    typer.__version__ = sys.argv[1]\n"
        "from knight.cli import main\n"
        "try:\n    main(['tour', '5', '--start', '0,0', '--tie', 'random', '--seed', '2', '--json'])\nexcept SystemExit:\n    pass\n"
        "print('pydantic' in sys.modules, file=sys.stderr)"
    )
    ran = {
        way: subprocess.run([sys.executable, "-c", code, way], capture_output=True, text=True, check=True)
        for way in ("shortcut", UNTESTED)
    }
    assert json.loads(ran["shortcut"].stdout) == json.loads(ran[UNTESTED].stdout)
    assert (ran["shortcut"].stderr.strip(), ran[UNTESTED].stderr.strip()) == ("False", "True")
