"""Write the conformance corpus: the inputs (tests/conformance/inputs/) and what `knight check --json` says of
each (expected.json). Run it after a change to the checker, then read the diff of expected.json: it pins
behaviour, of the command and of the self-check page alike (tests/conformance/test_conformance.py).

    .venv/bin/python tests/conformance/regenerate.py

Each input is one file of bytes and the assignment it is checked against (``--board``, ``--start``,
``--closed``, ``--format``); its class (the first word of its name) says what it exercises: a format, a
separator, a digit, a byte-order mark, a NUL, an assignment. expected.json holds, for each file, the options,
the exit status and the fields both front ends give (tests/conformance/check_page.py's FIELDS).
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
INPUTS = HERE / "inputs"
EXPECTED = HERE / "expected.json"


def _tours() -> dict[str, tuple[tuple[int, int], list[tuple[int, int]], str]]:
    """The tours the inputs are written from: (board, squares, `knight tour --json`)."""
    from knight.engine import Board, find_tour

    specs: dict[str, tuple[int, int, tuple[int, int], str, dict]] = {
        "t8": (8, 8, (0, 0), "warnsdorff", {}),
        "t5": (5, 5, (0, 0), "warnsdorff", {}),
        "c6": (6, 6, (0, 0), "parberry", {}),  # closed
        "n8": (8, 8, (0, 0), "naive", {}),  # partial
        "t34": (3, 4, (0, 0), "backtrack", {}),
        "t10": (10, 10, (0, 0), "warnsdorff", {}),
    }
    found = {}
    for key, (n, m, start, method, params) in specs.items():
        tour = find_tour(Board(n, m), start, method, **params)
        found[key] = ((n, m), [(r, c) for r, c in tour.squares], json.dumps(tour.to_dict()))
    return found


def _array(size: tuple[int, int], squares: list, *, zero: bool = False, sep: str = " ", rows: str = "\n") -> str:
    n, m = size
    cells = [["." if zero else "0"] * m for _ in range(n)]
    for k, (r, c) in enumerate(squares, start=1):
        if 0 <= r < n and 0 <= c < m:
            cells[r][c] = str(k - 1 if zero else k)
    width = max(len(cell) for row in cells for cell in row)
    return rows.join(sep.join(cell.rjust(width) if sep == " " else cell for cell in row) for row in cells) + "\n"


def _bordered(size: tuple[int, int], squares: list, *, box: bool = False) -> str:
    lines = _array(size, squares).splitlines()
    cells = [line.split() for line in lines]
    width = max(len(cell) for row in cells for cell in row)
    v, h, x = ("│", "─", "┼") if box else ("|", "-", "+")
    rule = x + x.join(h * (width + 2) for _ in cells[0]) + x
    out = [rule]
    for row in cells:
        out += [v + " " + f" {v} ".join(cell.rjust(width) for cell in row) + " " + v, rule]
    return "\n".join(out) + "\n"


def _pairs(squares: list, *, one: bool = False, style: str = "parens") -> str:
    s = 1 if one else 0
    if style == "lines":
        return "\n".join(f"{r + s} {c + s}" for r, c in squares) + "\n"
    if style == "brackets":
        return " ".join(f"[{r + s}, {c + s}]" for r, c in squares) + "\n"
    if style == "arrows":
        return "Path: " + " -> ".join(f"({r + s}, {c + s})" for r, c in squares) + "\n"
    if style == "semicolons":
        return " ".join(f"({r + s};{c + s})" for r, c in squares) + "\n"
    return " ".join(f"({r + s}, {c + s})" for r, c in squares) + "\n"


def _chess(n: int, squares: list, sep: str = " ", upper: bool = False) -> str:
    names = [f"{chr((65 if upper else 97) + c)}{n - r}" for r, c in squares]
    return "\n".join(sep.join(names[i : i + 8]) for i in range(0, len(names), 8)) + "\n"


def _csv(squares: list, header: str = "step,row,col", order: list[int] | None = None) -> str:
    rows = [(k, r, c) for k, (r, c) in enumerate(squares, start=1)]
    if order is not None:
        rows = [rows[i] for i in order]
    if header.count(",") == 1:
        return header + "\n" + "\n".join(f"{r},{c}" for _, r, c in rows) + "\n"
    return header + "\n" + "\n".join(f"{k},{r},{c}" for k, r, c in rows) + "\n"


def inputs() -> dict[str, tuple[bytes, list[str]]]:
    """Every input of the corpus: file name -> (bytes, knight check's options)."""
    t = _tours()
    (s8, t8, j8), (s5, t5, j5), (s6, c6, _), (_, n8, _), (s34, t34, _), (s10, t10, _) = (
        t["t8"],
        t["t5"],
        t["c6"],
        t["n8"],
        t["t34"],
        t["t10"],
    )
    a8, a5 = _array(s8, t8), _array(s5, t5)
    swapped = list(t8)
    swapped[10], swapped[20] = swapped[20], swapped[10]
    repeated = list(t8)
    repeated[30] = repeated[12]
    off = list(t8)
    off[5] = (8, 3)
    a8_rows = a8.splitlines()
    twice = "\n".join([a8_rows[0].replace(" 1 ", " 2 ", 1) if " 1 " in a8_rows[0] else a8_rows[0], *a8_rows[1:]])
    assigned = ["--board", "8", "--start", "0,0"]
    found: dict[str, tuple[bytes, list[str]]] = {}

    def add(name: str, text: str | bytes, args: list[str] | None = None) -> None:
        assert name not in found, name
        found[name] = (text.encode("utf-8") if isinstance(text, str) else text, args or [])

    # --- the array -------------------------------------------------------------------------------
    add("array-full-open.txt", a8)
    add("array-full-closed.txt", _array(s6, c6))
    add("array-zero-based.txt", _array(s8, t8, zero=True))
    add("array-bordered.txt", _bordered(s8, t8))
    add("array-box-drawing.txt", _bordered(s5, t5, box=True))
    add("array-commas.txt", _array(s5, t5, sep=", "))
    add("array-semicolons.txt", _array(s5, t5, sep=";"))
    add("array-prose-around.txt", "Knight's tour from (0, 0):\n" + a8 + "Done: 64 moves.\n")
    # (row, col) pairs in the words about an array are words: fewer than its numbers, they are not the tour
    add("array-prose-pairs.txt", "Knight's tour from (0, 0) to (7, 7):\n" + a8 + "removed [[0, 0]], last [2, 1]\n")
    add("array-partial-naive.txt", _array(s8, n8))
    add("array-partial-dots.txt", _array(s8, n8, zero=True))
    add("array-swapped-steps.txt", _array(s8, swapped))
    add("array-repeated-square.txt", _array(s8, repeated[:40]))
    add("array-number-twice.txt", twice)
    add(
        "array-number-missing.txt", "\n".join(" ".join("0" if v == "30" else v for v in row.split()) for row in a8_rows)
    )
    add("array-out-of-range.txt", "\n".join(" ".join("65" if v == "64" else v for v in row.split()) for row in a8_rows))
    add("array-negative.txt", "\n".join(" ".join("-3" if v == "3" else v for v in row.split()) for row in a8_rows))
    add("array-ragged.txt", "\n".join([" ".join(a8_rows[0].split()[:-1]), *a8_rows[1:]]))
    add("array-long-digits.txt", "\n".join([a8_rows[0] + " 1234567890123", *a8_rows[1:]]))
    add("array-all-zero.txt", "0 0 0\n0 0 0\n0 0 0\n")
    add("array-crlf.txt", a5.replace("\n", "\r\n"))
    add("array-tabs.txt", _array(s5, t5, sep="\t"))
    add("array-3x4.txt", _array(s34, t34))
    add("array-10x10.txt", _array(s10, t10))
    add("array-one-square.txt", "1\n")
    add("array-zero-based-not-legal.txt", "0 1 2\n3 4 5\n6 7 8\n")
    # --- the assignment ----------------------------------------------------------------------------
    add("assigned-ok.txt", a8, assigned)
    add("assigned-wrong-board.txt", a5, assigned)
    add("assigned-wrong-start.txt", a8, ["--board", "8", "--start", "2,2"])
    add("assigned-chess-start.txt", a8, ["--board", "8", "--start", "a8"])
    add("assigned-closed-but-open.txt", a8, [*assigned, "--closed"])
    add("assigned-closed-ok.txt", _array(s6, c6), ["--board", "6", "--closed"])
    add("assigned-partial.txt", _array(s8, n8), assigned)
    add("assigned-not-a-tour.txt", _array(s8, swapped), assigned)
    add("assigned-json-other-board.txt", j5, ["--board", "6x6"])
    add("assigned-board-only.txt", a5, ["--board", "5"])
    # --- line breaks and blanks: Python's splitlines and isspace, explicit on both sides -------------
    for label, ch in [
        ("u2028", "\u2028"),
        ("u2029", "\u2029"),
        ("formfeed", "\f"),
        ("vtab", "\v"),
        ("nel", "\x85"),
        ("fs", "\x1c"),
        ("gs", "\x1d"),
        ("rs", "\x1e"),
        ("cr", "\r"),
    ]:
        add(f"separator-rows-{label}.txt", a5.replace("\n", ch))
    for label, ch in [
        ("nbsp", "\xa0"),
        ("ideographic", "\u3000"),
        ("figure", "\u2007"),
        ("us", "\x1f"),
        ("mmsp", "\u205f"),
    ]:
        add(f"separator-fields-{label}.txt", _array(s5, t5, sep=ch))
    add("separator-pairs-nbsp.txt", _pairs(t5).replace(" ", "\xa0"))
    add("separator-chess-u2028.txt", _chess(8, t8).replace("\n", "\u2028"))
    add("separator-unit-sep-not-a-line.txt", a5.replace("\n", "\x1f"))  # a blank, not a line end: one row
    add("separator-zero-width-space.txt", _array(s5, t5, sep="\u200b"))  # not a blank: prose
    add("separator-only-blanks.txt", "\u3000\u2028\xa0\n")
    # --- digits: 0-9 only ---------------------------------------------------------------------------
    add("digits-arabic-indic-one.txt", a5.replace("25", "\u0662\u0665", 1))
    add("digits-fullwidth-all.txt", a5.translate({ord(d): 0xFF10 + int(d) for d in "0123456789"}))
    add("digits-devanagari-pairs.txt", _pairs(t5).replace("(2,", "(\u0968,"))
    add("digits-arabic-csv.txt", _csv(t5).replace("\n3,", "\n\u0663,", 1))
    add("digits-superscript.txt", a5.replace("1", "\u00b9", 1))
    add("digits-chess-fullwidth-rank.txt", _chess(8, t8).replace("a8", "a\uff18", 1))
    # --- byte-order marks -----------------------------------------------------------------------
    add("bom-utf8.txt", b"\xef\xbb\xbf" + a5.encode())
    add("bom-utf16le.txt", b"\xff\xfe" + a5.encode("utf-16-le"))
    add("bom-utf16be.txt", b"\xfe\xff" + a5.encode("utf-16-be"))
    add("bom-utf32le.txt", b"\xff\xfe\x00\x00" + a5.encode("utf-32-le"))
    add("bom-utf32be.txt", b"\x00\x00\xfe\xff" + a5.encode("utf-32-be"))
    add("bom-twice.txt", b"\xef\xbb\xbf\xef\xbb\xbf" + a5.encode())
    rows5 = a5.splitlines()
    add("bom-mid-text-row.txt", "\n".join([*rows5[:2], "\ufeff" + rows5[2], *rows5[3:]]) + "\n")
    add("bom-mid-line.txt", "\n".join([*rows5[:2], rows5[2].replace(" ", " \ufeff", 1), *rows5[3:]]) + "\n")
    add("bom-between-pairs.txt", _pairs(t5).replace(") (", ")\ufeff(", 3))
    add("bom-utf16-odd-length.txt", b"\xff\xfe" + a5.encode("utf-16-le") + b"\x00\x31\x00")
    add("bom-utf8-invalid.txt", b"\xef\xbb\xbf" + a5.encode() + b"\xff")
    add("bom-utf32-surrogate.txt", b"\xff\xfe\x00\x00" + a5.encode("utf-32-le") + b"\x00\xd8\x00\x00")
    add("bom-utf16-lone-surrogate.txt", b"\xfe\xff" + a5.encode("utf-16-be") + b"\xd8\x00")
    # --- NUL and binary ---------------------------------------------------------------------------
    add("nul-in-array.txt", a5[:20] + "\x00" + a5[20:])
    add("nul-at-end.txt", a5 + "\x00")
    add("nul-after-64k.txt", "note: " + "x" * 70_000 + "\n" + a5 + "\x00\n")  # past the window: a character
    add("nul-in-utf16.txt", b"\xff\xfe" + (a5 + "\x00").encode("utf-16-le"))  # text by its mark: a character
    add("nul-with-bom-utf8.txt", b"\xef\xbb\xbf" + (a5[:20] + "\x00" + a5[20:]).encode())
    add("binary-controls.txt", bytes(range(1, 32)) * 20 + b"\xff\xfe\xfd")
    add("latin1-prose.txt", "Tour by Ren\xe9e:\n".encode("latin-1") + a5.encode())
    # --- pairs -------------------------------------------------------------------------------------
    add("pairs-full.txt", _pairs(t8))
    # a table of other numbers beside the pairs (the accessibility table, a step row col listing): still pairs
    degrees = "\n".join(" ".join(str(2 + (r * 7 + c * 3) % 7) for c in range(8)) for r in range(8))
    add("pairs-after-degree-table.txt", "Accessibility:\n" + degrees + "\nThe tour:\n" + _pairs(n8))
    listing = "\n".join(f"{k} {r} {c}" for k, (r, c) in enumerate(t5, start=1))
    add("pairs-and-step-listing.txt", _pairs(t5) + "\nstep row col\n" + listing + "\n")
    add("pairs-brackets.txt", _pairs(t5, style="brackets"))
    add("pairs-lines.txt", _pairs(t5, style="lines"))
    add("pairs-one-based.txt", _pairs(t5, one=True))
    add("pairs-arrows.txt", _pairs(t8, style="arrows"))
    add("pairs-semicolons.txt", _pairs(t5, style="semicolons"))
    add("pairs-partial-board-given.txt", _pairs(t8[:40]), ["--board", "8"])
    add("pairs-partial-inferred.txt", _pairs(t8[:40]))
    add("pairs-one-based-board-given.txt", _pairs(t8[:20], one=True), ["--board", "8"])
    add("pairs-off-board.txt", _pairs(off), ["--board", "8"])
    add("pairs-not-knight-move.txt", _pairs(swapped))
    add("pairs-repeated.txt", _pairs(repeated[:40]), ["--board", "8"])
    add("pairs-closed.txt", _pairs(c6))
    add("pairs-one-pair.txt", "(0, 0)\n")
    add("pairs-forced-on-array.txt", a5, ["--format", "pairs"])
    # --- chess names --------------------------------------------------------------------------------
    add("chess-full.txt", _chess(8, t8))
    add("chess-arrows.txt", _chess(8, t8, sep=" -> "))
    add("chess-dashes.txt", _chess(8, t8, sep="-"))
    add("chess-en-dashes.txt", _chess(5, t5, sep="\u2013"))
    add("chess-uppercase.txt", _chess(5, t5, upper=True))
    add("chess-partial-board.txt", _chess(8, t8[:30]), ["--board", "8"])
    add("chess-partial-inferred.txt", _chess(8, t8[:30]))
    add("chess-illegal.txt", _chess(8, swapped))
    add("chess-10x10.txt", _chess(10, t10))
    add("chess-double-dash.txt", "a8--b6 c8 d6\n")
    # --- CSV -----------------------------------------------------------------------------------------
    add("csv-full.txt", _csv(t8))
    add("csv-row-col.txt", _csv(t5, header="row,col"))
    add("csv-not-a-tour.txt", _csv(swapped))
    add("csv-shuffled.txt", _csv(t5, order=[(i * 7) % 25 for i in range(25)]))
    add("csv-quoted-header.txt", _csv(t5, header='"step","row","col"'))
    add("csv-column-word.txt", _csv(t5, header="k,row,column"))
    add("csv-partial-board.txt", _csv(t8[:20]), ["--board", "8"])
    add("csv-bad-line.txt", _csv(t5).replace("\n4,", "\nfour,", 1))
    add("csv-header-only.txt", "step,row,col\n")
    add("csv-short-line.txt", _csv(t5) + "26,1\n")
    add("csv-uppercase-header.txt", _csv(t5, header="STEP,ROW,COL"))
    add("csv-kelvin-header.txt", _csv(t5, header="\u212a,row,col"))
    # --- knight tour --json ---------------------------------------------------------------------------
    add("json-full.json", j8)
    add("json-5x5.json", j5)
    doc = json.loads(j8)
    add("json-partial.json", json.dumps({"board": [8, 8], "squares": doc["squares"][:50]}))
    add("json-not-a-tour.json", json.dumps({"board": [8, 8], "squares": [list(sq) for sq in swapped]}))
    add("json-fraction.json", '{"board": [5, 5], "squares": [[0, 0], [2, 1.5]]}')
    add("json-exponent.json", '{"board": [5e0, 5], "squares": [[0, 0], [2, 1]]}')
    add("json-deep.json", '{"board": [5, 5], "squares": [[0, 0]], "x": ' + "[" * 20 + "]" * 20 + "}")
    add("json-long-number.json", '{"board": [5, 5], "squares": [[0, 1234567890123]]}')
    add("json-invalid.json", '{"board": [5, 5], "squares": [[0, 0], [2, 1]')
    add("json-no-squares.json", '{"board": [5, 5]}')
    add("json-bool.json", '{"board": [true, 5], "squares": [[0, 0], [2, 1]]}')
    add("json-nan.json", '{"board": [5, 5], "squares": [[0, NaN]]}')
    add("json-empty-squares.json", '{"board": [5, 5], "squares": []}')
    add("json-huge-board.json", '{"board": [1000, 1000], "squares": [[0, 0], [2, 1]]}')
    add("json-bracket-in-string.json", '{"note": "[[[[[[[[[[[[[[[[[[[[", "board": [5, 5], "squares": [[0, 0], [2, 1]]}')
    # --- nothing to read -----------------------------------------------------------------------------
    add("empty.txt", "")
    add("blank-lines.txt", "\n  \n\t\n")
    add("prose-only.txt", "My program crashed before it printed the board.\n")
    add("mixed-pairs-and-chess.txt", "(0, 0) (2, 1)\na8 b6 c8\n")
    add("format-unknown-board.txt", "0 0\n0 0\n")
    return found


def run_command(path: Path, args: list[str]) -> tuple[int, dict]:
    """`knight check PATH --json ARGS` in this process: its exit status and the JSON it printed."""
    from knight.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(["check", str(path), "--json", *args])
            status = 0
        except SystemExit as stop:
            status = stop.code if isinstance(stop.code, int) else 0
    text = out.getvalue().strip()
    if not text:  # an older command printed no JSON for an unreadable file
        return status, {"verdict": "unreadable", "errors": [err.getvalue().split(": ", 1)[-1].strip()]}
    return status, json.loads(text)


def main() -> None:
    sys.path.insert(0, str(HERE))
    from check_page import compared

    INPUTS.mkdir(exist_ok=True)
    corpus = inputs()
    for stale in INPUTS.iterdir():
        if stale.name not in corpus:
            stale.unlink()
    expected = {}
    for name, (data, args) in sorted(corpus.items()):
        path = INPUTS / name
        path.write_bytes(data)
        status, report = run_command(path, args)
        expected[name] = {"args": args, "status": status, **compared(report)}
    EXPECTED.write_text(json.dumps(expected, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(expected)} inputs written to {INPUTS} and their verdicts to {EXPECTED}")


if __name__ == "__main__":
    main()
