"""How a square is written on the command line, the same for every option that takes one (``--start``,
``--remove``): ``ROW,COL``, 0-based from the top-left, or a chess name such as ``b7`` (the file letter is the
column, the rank counts rows from the bottom, as ``knight check`` reads chess squares).

The first form of ``--start`` was two numbers, ``--start 3 4``; it is documented in older notes and scripts,
so :class:`~knight.cli.options.KnightCommand` still reads it, as ``--start 3,4``.
"""

from __future__ import annotations

import re
from typing import Any

import typer

from knight.errors import InvalidInput

__all__ = ["SQUARE_FORMS", "square_option", "parse_square", "parse_squares", "join_old_start"]

#: What the help of every square option says about the value.
SQUARE_FORMS = "ROW,COL 0-based from the top-left, or a chess name like b7 (a1 is the bottom-left square)"

_PAIR = re.compile(r"\(?\s*(-?[0-9]{1,9})\s*[,\s]\s*(-?[0-9]{1,9})\s*\)?")
_CHESS = re.compile(r"([a-zA-Z])([0-9]{1,9})")
_NUMBER = re.compile(r"-?[0-9]+")  # any length: a long number is then refused as a square, in one line


def square_option(help: str, *names: str) -> Any:  # noqa: A002 - typer's own name
    """A ``typer.Option`` that takes a square (see the module's docstring), shown as ``SQUARE`` by --help."""
    return typer.Option(*names, help=f"{help}: {SQUARE_FORMS}.", metavar="SQUARE")


def parse_square(text: str, option: str, rows: int | None, cols: int | None = None) -> tuple[int, int]:
    """``text`` as ``(row, col)``. A chess name needs the board's ``rows`` (its rank counts from the bottom);
    ``None`` when the board is not known, and then a chess name is refused with what to give instead. A chess
    name off the board (its rank beyond ``rows``, its file beyond ``cols`` when given) is refused as typed
    (``--start z9 is off the 8x8 board``), never as the numbers it would make."""
    pair = _PAIR.fullmatch(text.strip())
    if pair:
        return int(pair.group(1)), int(pair.group(2))
    chess = _CHESS.fullmatch(text.strip())
    if chess and rows is not None:
        rank, col = int(chess.group(2)), ord(chess.group(1).lower()) - ord("a")
        if not 1 <= rank <= rows or (cols is not None and col >= cols):
            size = f"{rows}x{cols}" if cols is not None else f"{rows}-row"
            files = f"files a to {chr(ord('a') + min(cols, 26) - 1)}, " if cols is not None else ""
            raise InvalidInput(f"{option} {text.strip()} is off the {size} board: {files}ranks 1 to {rows}")
        return rows - rank, col
    if chess:
        raise InvalidInput(f"{option} {text}: a chess name needs the board's size; give --board, or write ROW,COL")
    hint = f" (the row and column are one value: {option} {text},COL)" if _NUMBER.fullmatch(text.strip()) else ""
    raise InvalidInput(f"{option} takes a square as {SQUARE_FORMS}; got {text[:40]!r}{hint}")


def parse_squares(
    texts: list[str] | None, option: str, rows: int | None, cols: int | None = None
) -> list[tuple[int, int]]:
    """Every value of a repeatable square option, in order, each once (``--remove 0,0 --remove a8`` is one)."""
    return list(dict.fromkeys(parse_square(text, option, rows, cols) for text in texts or []))


def join_old_start(args: list[str]) -> list[str]:
    """``args`` with ``--start ROW COL`` (the first form, two numbers) written ``--start ROW,COL``.

    A single number is never a square, so two numbers after ``--start`` can only be that form."""
    joined: list[str] = []
    i = 0
    while i < len(args):
        if (
            args[i] == "--start"
            and i + 2 < len(args)
            and _NUMBER.fullmatch(args[i + 1])
            and _NUMBER.fullmatch(args[i + 2])
        ):
            joined += ["--start", f"{args[i + 1]},{args[i + 2]}"]
            i += 3
        else:
            joined.append(args[i])
            i += 1
    return joined
