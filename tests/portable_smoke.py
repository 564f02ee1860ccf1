"""A smoke test of the commands a student or a teacher runs first, on whatever system runs it.

Run by ``tests/test_portable.py`` (on Linux with the POSIX-only names taken away, as a stand-in for Windows), by
the Windows and macOS jobs of ``.github/workflows/test.yml``, and by the release's cibuildwheel on each wheel
it built (``.github/workflows/release.yml``): ``python tests/portable_smoke.py [FOLDER]``. It runs, in FOLDER (a
temporary folder by default) and through ``python -m knight``, the installed or checked-out knight:

* ``knight tour 5``: a full tour, exit 0;
* ``knight check`` of that tour (exit 0) and of a tour cut short (exit 1, its documented status);
* ``knight grade`` of a class of two, twice into the same OUT (the lock of the first is released);
* ``knight census 5``: 1,728 open tours, through the worker pool;
* ``knight census 5 6 --method frontier --shards 2``: 37,568, its states swept in two shards by two workers;
* ``knight run`` of a small job on two workers, and ``knight results``;
* ``knight report --edition handout --no-pdf``: the handout's HTML.

Each command's exit status and output are checked; the first that fails ends the script with status 1 and says
which. Standard library only: it must run where only knight and its dependencies are installed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

TINY_JOB = """\
name = "portable-smoke"
description = "Warnsdorff from two squares of 5x5 and 6x6: the smoke test's sweep"

[[sweep]]
boards = [5, 6]
starts = [[0, 0], [1, 2]]
method = "warnsdorff"
params = { tie = ["first", "roth"] }
"""


class Failed(Exception):
    """A command did not do what it should."""


def knight(folder: Path, *args: str, status: int = 0, stdin: str | None = None) -> str:
    """Run ``python -m knight ARGS`` in ``folder``; its standard output, once its exit status is ``status``."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("KNIGHT_")}
    env["KNIGHT_STORE"] = str(folder / "store.sqlite")
    done = subprocess.run(
        [sys.executable, "-m", "knight", *args],
        cwd=folder,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=600,
    )
    print(f"knight {' '.join(args)}: exit {done.returncode}", flush=True)
    if done.returncode != status:
        raise Failed(
            f"knight {' '.join(args)}: exit status {done.returncode}, not {status}\n"
            f"--- stdout\n{done.stdout[-2000:]}\n--- stderr\n{done.stderr[-4000:]}"
        )
    return done.stdout


def expect(condition: bool, what: str) -> None:
    if not condition:
        raise Failed(what)


def smoke(folder: Path) -> None:
    """Every command of the module's docstring, in ``folder``."""
    tour = knight(folder, "tour", "5")
    expect("Full tour" in tour, f"knight tour 5 found no full tour:\n{tour}")
    numbered = "\n".join(line for line in tour.splitlines() if line.strip() and line.split()[0].isdigit())
    (folder / "tour.txt").write_text(numbered + "\n", encoding="utf-8")
    checked = knight(folder, "check", "tour.txt", "--board", "5", "--start", "0,0")
    expect("full tour" in checked.lower(), f"knight check said:\n{checked}")
    knight(folder, "check", "-", stdin=numbered + "\n")  # standard input, as `python my_tour.py | knight check -`
    short = "\n".join(
        " ".join("0" if cell == "25" else cell for cell in line.split()) for line in numbered.splitlines()
    )
    (folder / "short.txt").write_text(short + "\n", encoding="utf-8")
    knight(folder, "check", "short.txt", status=1)  # a tour cut short: readable, not a full tour

    klass = folder / "class"
    klass.mkdir()
    (klass / "ada.txt").write_text(numbered + "\n", encoding="utf-8")
    (klass / "bob.txt").write_text(short + "\n", encoding="utf-8")
    for _ in range(2):  # the second run finds OUT free again: the first one's lock was released
        knight(folder, "grade", "class", "--out", "graded")
    gradebook = (folder / "graded" / "gradebook.csv").read_text(encoding="utf-8")
    expect("ada" in gradebook and "bob" in gradebook, f"the gradebook lacks a student:\n{gradebook}")
    expect((folder / "graded" / "ada.html").is_file(), "no feedback page for ada")
    left = sorted(path.name for path in (folder / "graded").iterdir() if path.name.endswith(".partial"))
    expect(left == [], f"half-written files left in OUT: {left}")

    census = json.loads(knight(folder, "census", "5", "--json", "--workers", "2"))
    expect(census.get("total") == 1728, f"knight census 5 counted {census.get('total')}, not 1728")

    sharded = json.loads(
        knight(folder, "census", "5", "6", "--method", "frontier", "--shards", "2", "--workers", "2", "--json")
    )
    counted = (sharded.get("total"), sharded.get("shards"))
    expect(counted == (37568, 2), f"knight census 5 6 --method frontier --shards 2 gave {counted}, not (37568, 2)")

    (folder / "smoke.toml").write_text(TINY_JOB, encoding="utf-8")
    knight(folder, "run", "smoke.toml", "--workers", "2", "-q")
    results = knight(folder, "results", "--json")
    expect("portable-smoke" in results, f"knight results does not show the job:\n{results[:2000]}")

    knight(folder, "report", "--edition", "handout", "--no-pdf", "--out", "out", "-q")
    handout = (folder / "out" / "knights-tour-handout.html").read_text(encoding="utf-8")
    expect("<html" in handout.lower() and "Warnsdorff" in handout, "the handout is not the worksheet")


def main(argv: list[str]) -> int:
    try:
        if argv:
            folder = Path(argv[0])
            folder.mkdir(parents=True, exist_ok=True)
            smoke(folder.resolve())
        else:
            with tempfile.TemporaryDirectory(prefix="knight-smoke-") as temporary:
                smoke(Path(temporary).resolve())
    except Failed as failed:
        print(f"portable smoke test failed: {failed}", file=sys.stderr)
        return 1
    print("portable smoke test passed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
