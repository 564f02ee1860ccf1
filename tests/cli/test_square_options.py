"""One way to write a square in every option (issue 29, item 7): ROW,COL or a chess name, the first form of
--start (two numbers) still read, and a bad square refused in one line that says how to write it."""

from __future__ import annotations

import json

import pytest
import typer

from knight.cli import app, main
from knight.cli.options import KnightCommand
from knight.cli.squares import join_old_start, parse_square, parse_squares
from knight.errors import InvalidInput


def knight_cli(capsys, *argv: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as stop:
        main(list(argv))
    out, err = capsys.readouterr()
    return stop.value.code, out, err


@pytest.mark.parametrize(
    ("text", "rows", "square"),
    [("3,4", 8, (3, 4)), (" 3 , 4 ", None, (3, 4)), ("(2, 0)", None, (2, 0)), ("a1", 8, (7, 0)), ("B7", 8, (1, 1))],
)
def test_a_square_reads_as_row_and_column(text, rows, square):
    assert parse_square(text, "--start", rows) == square


@pytest.mark.parametrize(
    ("text", "rows", "words"),
    [("b7", None, "give --board"), ("7", 8, "--start 7,COL"), ("north", 8, "chess name like b7")],
)
def test_a_square_that_cannot_be_read_says_how_to_write_it(text, rows, words):
    with pytest.raises(InvalidInput, match=words):
        parse_square(text, "--start", rows)


def test_the_first_form_of_start_is_joined_and_nothing_else():
    assert join_old_start(["tour", "8", "--start", "3", "4", "5"]) == ["tour", "8", "--start", "3,4", "5"]
    assert join_old_start(["tour", "8", "--start", "3,4", "5"]) == ["tour", "8", "--start", "3,4", "5"]
    assert join_old_start(["tour", "8", "--remove", "3", "4"]) == ["tour", "8", "--remove", "3", "4"]


@pytest.mark.parametrize("start", [["2,3"], ["2", "3"], ["d4"], ["(2, 3)"]])
def test_every_form_of_a_start_gives_the_same_tour(capsys, start):
    status, out, _ = knight_cli(capsys, "tour", "6", "--start", *start, "--json")
    assert status in (0, 1) and json.loads(out)["start"] == [2, 3]


def test_removed_squares_by_chess_name_are_the_same_squares(capsys):
    by_pairs = knight_cli(capsys, "census", "4", "--remove", "0,0", "--remove", "3,3", "--json")
    by_names = knight_cli(capsys, "census", "4", "--remove", "a4", "--remove", "d1", "--json")
    assert by_pairs[0] == by_names[0] == 0
    assert json.loads(by_pairs[1])["removed"] == json.loads(by_names[1])["removed"] == [[0, 0], [3, 3]]


def test_a_chess_start_for_check_needs_the_board(capsys, tmp_path):
    submission = tmp_path / "tour.txt"
    _, out, _ = knight_cli(capsys, "tour", "5", "--json")
    submission.write_text(out)
    status, _, err = knight_cli(capsys, "check", str(submission), "--start", "a5")
    assert status == 2 and err.count("\n") == 1 and "--board" in err
    for name, assigned in (("a5", True), ("e1", False)):  # the tour starts at (0, 0), a5 on 5 x 5
        status, out, _ = knight_cli(capsys, "check", str(submission), "--board", "5", "--start", name, "--json")
        assert status == (0 if assigned else 1) and json.loads(out)["assigned"] is assigned


def test_every_square_option_is_written_the_same_way():
    """Every option named like a square takes one value shown as SQUARE, so its help gives the forms."""
    group = typer.main.get_command(app)
    found = 0
    for name, command in group.commands.items():  # type: ignore[attr-defined]  # a group
        assert isinstance(command, KnightCommand)
        for param in command.params:
            if param.name in ("start", "remove"):
                found += 1
                assert param.metavar == "SQUARE" and param.nargs == 1, f"knight {name} --{param.name}"
                assert "chess name like b7" in (param.help or ""), f"knight {name} --{param.name}"
    assert found >= 6  # tour --start/--remove, census --start/--remove, check and grade --start


def test_a_square_given_twice_is_removed_once():
    """``--remove 0,0 --remove a5`` on 5 x 5 name one square: the census says it once."""
    assert parse_squares(["0,0", "a5", "4,4"], "--remove", 5) == [(0, 0), (4, 4)]
