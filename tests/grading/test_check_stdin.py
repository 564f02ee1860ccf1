"""`knight check -` reads the submission from standard input, bounded as a file is (issue 29, item 7)."""

from __future__ import annotations

import json
import subprocess
import sys

from knight.grading.formats import MAX_BYTES

KNIGHT = [sys.executable, "-m", "knight"]


def knight(*argv: str, stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([*KNIGHT, *argv], input=stdin, capture_output=True, timeout=60)


def test_a_tour_piped_in_is_checked_like_the_same_file(tmp_path):
    tour = knight("tour", "6", "--json", stdin=b"").stdout
    (tmp_path / "tour.json").write_bytes(tour)
    piped = knight("check", "-", "--json", stdin=tour)
    from_file = knight("check", str(tmp_path / "tour.json"), "--json", stdin=b"")
    assert piped.returncode == from_file.returncode == 0
    assert json.loads(piped.stdout) == json.loads(from_file.stdout)


def test_standard_input_past_the_bound_is_refused_in_one_line():
    done = knight("check", "-", stdin=b"1 " * (MAX_BYTES // 2 + 1))
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.decode().startswith("knight: error: standard input: more than 2 MB")
    assert done.stderr.count(b"\n") == 1


def test_empty_standard_input_is_one_line():
    done = knight("check", "-", stdin=b"")
    assert done.returncode == 2 and done.stderr.count(b"\n") == 1 and b"standard input" in done.stderr
