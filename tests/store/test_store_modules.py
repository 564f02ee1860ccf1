"""The store's modules, one concept each behind the `Store` door: the names other code imports stay where they
were, what is known of an unchanged store is forgotten when it changes, and claims are renewed at most so often."""

from __future__ import annotations

import ast
import os
import sqlite3
from pathlib import Path

import knight.store
from knight.store import claims, database, known, queries, runs, schema, writes

STORE = Path(knight.store.__file__).parent


def test_every_name_imported_from_the_store_is_where_its_importers_look():
    """Every `from knight.store... import name` in the package, its tests, benchmarks and tools still resolves."""
    root = STORE.parent.parent
    looked_up = set()
    for folder in ("knight", "tests", "benchmarks", "tools"):
        for path in (root / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("knight.store"):
                    looked_up.update((node.module, alias.name) for alias in node.names)
    assert ("knight.store.database", "sealed") in looked_up  # the walk found the imports
    for module, name in sorted(looked_up):
        home = __import__(module, fromlist=[name])
        assert hasattr(home, name), f"from {module} import {name}"
    assert database.sealed is writes.sealed and database.HOST == runs.HOST and knight.store.Claimed is claims.Claimed
    assert knight.store.SCHEMA_VERSION == schema.SCHEMA_VERSION == database.SCHEMA_VERSION


def _age(path: Path) -> None:
    """Make ``path`` look written a minute ago (a freshly written file's state is never trusted)."""
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns - 60 * 10**9))


def test_a_fact_noted_about_a_store_holds_until_its_file_changes(tmp_path):
    path = tmp_path / "s.sqlite"
    path.write_bytes(b"a store")
    assert known.KnownFacts(path).state is None  # just written: nothing is noted
    known.KnownFacts(path).note(sound=True)
    assert not Path(f"{path}-known").exists()

    _age(path)
    facts = known.KnownFacts(path)
    facts.note(sound=True)
    facts.note(summary=[1, 2])  # added to what is noted, not in its place
    assert known.KnownFacts(path).get("sound") is True and known.KnownFacts(path).get("summary") == [1, 2]

    path.write_bytes(b"a changed store")
    _age(path)
    assert known.KnownFacts(path).get("sound") is None  # another size and time: worked out again


def test_a_runs_claims_are_renewed_at_most_every_renew_seconds(tmp_path):
    db = sqlite3.connect(tmp_path / "s.sqlite")
    for statement in filter(str.strip, schema.SCHEMA.split(";")):
        db.execute(statement)
    run = runs.begin(db, ["job"], "process", 1)
    db.execute("INSERT INTO claims VALUES ('k', ?, 1, 'here', 0.0)", (run,))
    renewals = claims.Renewals()

    def claimed_at() -> float:
        return float(db.execute("SELECT claimed_at FROM claims").fetchone()[0])

    renewals.renew(db, run, 1000.0)
    assert claimed_at() == 1000.0
    renewals.renew(db, run, 1000.0 + claims.RENEW_SECONDS / 2)  # too soon: left as it is
    assert claimed_at() == 1000.0
    renewals.renew(db, run, 1000.0 + claims.RENEW_SECONDS)
    assert claimed_at() == 1000.0 + claims.RENEW_SECONDS
    claims.release(db, run, ["k"])
    assert queries.jobs(db) == [] and db.execute("SELECT count(*) FROM claims").fetchone()[0] == 0
