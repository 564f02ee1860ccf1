"""Check that two revisions of knight give byte-identical outputs on every shipped job (issue 39, item 8).

    .venv/bin/python tools/same_outputs.py BASE [HEAD] [--keep]

BASE and HEAD are git revisions (HEAD: this checkout's working tree, when not given). Each side is a
``git worktree add --detach`` of its revision in a temporary folder (the working tree: the checkout itself), run
with this checkout's .venv Python importing that side's sources (``PYTHONPATH``, checked), on a fresh store, with
``SOURCE_DATE_EPOCH`` set. Each side does what ``make report`` does: ``knight run`` of jobs/*.toml, then ``knight
report`` of the key (with its marking scheme) and the handout, HTML and PDF; its outputs are ``knight results
--json`` for all jobs and for each, every row of the store's result tables (sorted; BLOBs in hex) and the report's
files. One line per item, ``same`` or ``DIFFERS`` with the first differing line (or byte; for a table whose
columns changed, which, and whether the rows agree on the others); exit status 0 when every item is the same, 1
when one differs or a side's command failed, 2 for a usage error.

What varies between two runs of one revision (found by comparing a revision with itself) is the time things took:

* left out of the dumps: ``seconds`` of ``counts`` and ``frontier_counts``, ``rate_seconds`` of ``estimates``
  and ``finished`` of ``results`` (the ``runs`` and ``claims`` tables, which record runs, are not dumped), with
  ``results.checksum``, which covers the ``seconds`` of its outcome row (the other columns it covers are compared);
  and from ``knight results --json``, the frontier counts' ``seconds`` and the estimates' ``rate_seconds`` and
  ``nodes_per_second``;
* printed in the key and its scheme: each count's time and the plain search's nodes a second (with the years a
  search would take at that speed). HEAD's report is written after its store takes BASE's timings (those columns
  and the checksums over them), when the dumps of those tables are the same; no other figure of a report varies.

One thing in the reports differs between two revisions by design: the footer's commit (``git rev-parse --short
HEAD`` in the side's folder). Both sides run with ``GIT_DIR`` naming no repository: both footers say ``commit
unknown`` (knight reads git for nothing else).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHECKOUT = Path(__file__).resolve().parent.parent
PYTHON = CHECKOUT / ".venv" / "bin" / "python"
EPOCH = "1700000000"
#: The store's tables dumped, each with the columns that vary between two runs of one revision (left out).
TABLES: dict[str, tuple[str, ...]] = {
    "tasks": (),
    "job_tasks": (),
    "results": ("finished", "checksum"),
    "tours": (),
    "counts": ("seconds",),
    "frontier_counts": ("seconds",),
    "estimates": ("rate_seconds",),
    "censuses": (),
    "census_tasks": (),
    "census_classes": (),
    "census_shares": (),
    "job_censuses": (),
}
#: The timings a report prints: the outcome tables' columns that HEAD's store takes from BASE's.
TIMINGS = {"counts": "seconds", "frontier_counts": "seconds", "estimates": "rate_seconds"}
#: The keys of ``knight results --json`` left out, per list of the document.
VARYING_JSON = {"frontier_counts": {"seconds"}, "estimates": {"rate_seconds", "nodes_per_second"}}
#: A side's outputs as item name -> bytes: ``results/<job>.json``, ``store/<table>``, ``report/<file>``.
Outputs = dict[str, bytes]


class UsageError(Exception):
    """Bad arguments: exit status 2."""


class SideFailed(Exception):
    """A side's command failed: exit status 1."""


def git(*args: str) -> str:
    """Run git in the checkout; its stdout, stripped. A failure is a usage error (a bad revision, say)."""
    done = subprocess.run(["git", "-C", str(CHECKOUT), *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise UsageError(f"git {' '.join(args)}: {done.stderr.strip() or 'failed'}")
    return done.stdout.strip()


def commit_of(revision: str) -> str:
    """The commit ``revision`` names, or :class:`UsageError`."""
    try:
        return git("rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}")
    except UsageError:
        raise UsageError(f"{revision!r} names no commit in {CHECKOUT}") from None


@contextmanager
def side_folder(revision: str | None, tmp: Path) -> Iterator[Path]:
    """The sources of ``revision``: a detached worktree in ``tmp``, removed after; None: the checkout itself."""
    if revision is None:
        yield CHECKOUT
        return
    folder = tmp / "tree"
    git("worktree", "add", "--quiet", "--detach", str(folder), revision)
    try:
        yield folder
    finally:
        git("worktree", "remove", "--force", str(folder))


def side_env(folder: Path, tmp: Path) -> dict[str, str]:
    """A side's environment: its sources first, a fresh store, a fixed date, no git repository (the footer)."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("KNIGHT_", "GIT_"))}
    env.update(PYTHONPATH=str(folder), KNIGHT_STORE=str(tmp / "knight.sqlite"), SOURCE_DATE_EPOCH=EPOCH)
    env["GIT_DIR"] = str(tmp / "no-repository")
    return env


def python(folder: Path, env: dict[str, str], *args: str) -> bytes:
    """Run this checkout's Python with ``args`` in ``folder``; its stdout, or :class:`SideFailed`."""
    done = subprocess.run([str(PYTHON), *args], cwd=folder, env=env, capture_output=True)
    if done.returncode != 0:
        tail = " | ".join(done.stderr.decode(errors="replace").strip().splitlines()[-5:])
        raise SideFailed(f"python {' '.join(args)} in {folder} exited {done.returncode}: {tail}")
    return done.stdout


def run_side(revision: str | None, tmp: Path, base: tuple[Path, Outputs] | None = None) -> Outputs:
    """Run every shipped job and write the report as ``make report`` does; the outputs. ``base``: BASE's store
    and outputs, whose timings the report takes when the stores agree."""
    tmp.mkdir()
    store = tmp / "knight.sqlite"
    print(f"running {revision or 'the working tree'} in {tmp}", file=sys.stderr)
    with side_folder(revision, tmp) as folder:
        env = side_env(folder, tmp)
        imported = Path(python(folder, env, "-c", "import knight; print(knight.__file__)").decode().strip())
        if not imported.resolve().is_relative_to(folder.resolve() / "knight"):
            raise SideFailed(f"the commands in {folder} import knight from {imported}, not from {folder}")
        built = "from knight.engine.kernel import ahead_of_time_module as m; raise SystemExit(m() is None)"
        try:  # the Makefile's kernels target: the engine compiled ahead of time (else numba's JIT, slower)
            python(folder, env, "-c", built)
        except SideFailed:
            subprocess.run([str(PYTHON), "-m", "knight.aot"], cwd=folder, env=env, capture_output=True)
        jobs = sorted(path.relative_to(folder).as_posix() for path in folder.glob("jobs/*.toml"))
        opt_in = sorted(path.relative_to(folder).as_posix() for path in folder.glob("jobs/opt-in/*.toml"))
        python(folder, env, "-m", "knight", "run", "--quiet", *jobs)
        outputs = dump_store(store)
        for job in [None, *jobs]:
            document = python(folder, env, "-m", "knight", "results", "--json", *([job] if job else []))
            outputs[f"results/{Path(job).stem if job else 'all'}.json"] = results_json(document)
        if base is not None and all(outputs[f"store/{table}"] == base[1][f"store/{table}"] for table in TIMINGS):
            take_timings(store, base[0])
        elif base is not None:
            print("the timed outcomes differ: HEAD's report prints its own timings", file=sys.stderr)
        options = ["--edition", "key", "--edition", "handout", "--out", str(tmp / "report")]
        options += [word for job in jobs + opt_in for word in ("--job", job)]
        options += ["--course", "course.toml"] if (folder / "course.toml").exists() else []
        python(folder, env, "-m", "knight", "report", "--quiet", *options)
    for item, data in outputs.items():  # beside the report, for --keep
        (tmp / item).parent.mkdir(exist_ok=True)
        (tmp / item).write_bytes(data)
    report = sorted(path for path in (tmp / "report").iterdir() if path.is_file())
    return outputs | {f"report/{path.name}": path.read_bytes() for path in report}


def results_json(text: bytes) -> bytes:
    """``knight results --json``'s document without its varying keys, a line a value, keys sorted."""
    document = json.loads(text)
    for key, varying in VARYING_JSON.items():
        document[key] = [{name: value for name, value in row.items() if name not in varying} for row in document[key]]
    return json.dumps(document, indent=1, sort_keys=True).encode() + b"\n"


def dump_store(path: Path) -> Outputs:
    """Each table of :data:`TABLES`: its columns, then every row as a JSON line, sorted (varying columns left out)."""
    dumps: Outputs = {}
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        for table, varying in TABLES.items():
            columns = [row[1] for row in db.execute(f"PRAGMA table_info({table})") if row[1] not in varying]
            rows = db.execute(f"SELECT {', '.join(columns)} FROM {table}") if columns else []
            lines = sorted(
                json.dumps([value.hex() if isinstance(value, bytes) else value for value in row]) for row in rows
            )
            dumps[f"store/{table}"] = "\n".join([json.dumps(columns), *lines, ""]).encode()
    finally:
        db.close()
    return dumps


def take_timings(store: Path, base: Path) -> None:
    """Give ``store`` the timings of ``base`` (a store whose rows are the same but for them), with the checksums
    over them: the reports then print the same times."""
    db = sqlite3.connect(store)
    try:
        db.execute("ATTACH DATABASE ? AS base", (str(base),))
        for table, column in TIMINGS.items():
            db.execute(
                f"UPDATE {table} SET {column} = (SELECT b.{column} FROM base.{table} b "
                f"WHERE b.task_key = {table}.task_key)"
            )
            db.execute(
                "UPDATE results SET checksum = (SELECT b.checksum FROM base.results b "
                f"WHERE b.task_key = results.task_key) WHERE task_key IN (SELECT task_key FROM {table})"
            )
        db.commit()
    finally:
        db.close()


def difference(before: bytes, after: bytes) -> str:
    """Where ``after`` first departs from ``before``: a line for text, a byte offset for a binary file."""
    try:
        old, new = before.decode().splitlines(), after.decode().splitlines()
    except UnicodeDecodeError:
        offset = next((i for i, (a, b) in enumerate(zip(before, after)) if a != b), min(len(before), len(after)))
        return f"{len(before):,} vs {len(after):,} bytes, the first difference at byte {offset:,}"
    for number, (a, b) in enumerate(zip(old, new), 1):
        if a != b:
            return f"line {number}: {a[:160]!r} vs {b[:160]!r}"
    return f"{len(old):,} vs {len(new):,} lines"


def column_difference(before: bytes, after: bytes) -> str | None:
    """For two store dumps of a table whose columns changed (the schema): which columns, and whether the rows
    agree on the columns both have; None when the columns are the same."""
    (old, *old_rows), (new, *new_rows) = ([json.loads(line) for line in dump.splitlines()] for dump in (before, after))
    if old == new:
        return None
    shared = [column for column in old if column in new]

    def on_shared(columns: list[str], rows: list[list[Any]]) -> list[str]:
        return sorted(json.dumps([row[columns.index(column)] for column in shared]) for row in rows)

    added, dropped = [c for c in new if c not in old], [c for c in old if c not in new]
    agree = "are the same" if on_shared(old, old_rows) == on_shared(new, new_rows) else "differ"
    return f"columns only in BASE {dropped}, only in HEAD {added}; on the others the rows {agree}"


def compare(base: Outputs, head: Outputs) -> int:
    """Print one line per item, ``same`` or ``DIFFERS`` and where; the number of items that differ."""
    differing = 0
    for item in sorted(base.keys() | head.keys()):
        if item in base and item in head and base[item] == head[item]:
            print(f"same    {item}")
            continue
        differing += 1
        if item not in base or item not in head:
            print(f"DIFFERS {item}: only in {'HEAD' if item in head else 'BASE'}")
        else:
            columns = column_difference(base[item], head[item]) if item.startswith("store/") else None
            print(f"DIFFERS {item}: {columns or difference(base[item], head[item])}")
    return differing


def main(argv: list[str] | None = None) -> int:
    """Compare BASE with HEAD; the exit status (0 all the same, 1 something differs or failed, 2 a usage error)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("base", metavar="BASE", help="a git revision")
    parser.add_argument("head", metavar="HEAD", nargs="?", help="a git revision (default: the working tree)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (stores, reports, dumps)")
    args = parser.parse_args(argv)
    try:
        if not PYTHON.exists():
            raise UsageError(f"no {PYTHON}: run `make install` first")
        base_revision, head_revision = (
            None if revision is None else commit_of(revision) for revision in (args.base, args.head)
        )
        tmp = Path(tempfile.mkdtemp(prefix="same-outputs-"))
        try:
            base = run_side(base_revision, tmp / "base")
            head = run_side(head_revision, tmp / "head", (tmp / "base" / "knight.sqlite", base))
        finally:
            if args.keep:
                print(f"kept {tmp}", file=sys.stderr)
            else:
                shutil.rmtree(tmp, ignore_errors=True)
    except UsageError as error:
        print(f"same_outputs: {error}", file=sys.stderr)
        return 2
    except SideFailed as error:
        print(f"FAILED {error}", file=sys.stderr)
        return 1
    differing = compare(base, head)
    print(f"{differing} of {len(base.keys() | head.keys())} items differ" if differing else "every item is the same")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
