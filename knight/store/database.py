"""The results store's database: one SQLite file in WAL mode that a sweep can crash, resume and be read from.

:class:`Store` is the one door to it: it holds the connection, takes each write transaction, and names the
work of the modules that each hold one concept of the store:

* :mod:`~knight.store.schema` — the tables (what each holds) and the store's format version;
* :mod:`~knight.store.connection` — opening the file, for writing or for reading only, and a transaction;
* :mod:`~knight.store.runs` and :mod:`~knight.store.claims` — the runs, and how two runs of one job share it;
* :mod:`~knight.store.writes` — a job's tasks and censuses, and each finished task's outcome;
* :mod:`~knight.store.queries` — the reads every kind shares; each kind's own, as its records
  (:mod:`~knight.store.records`), in its module of :mod:`knight.tasks`;
* :mod:`~knight.store.integrity` and :mod:`~knight.store.known` — is the store sound, and what is known of an
  unchanged one.

Every write is one short ``BEGIN IMMEDIATE`` transaction, so a run killed at any moment leaves
every task either finished or not started, and two runs on one store take turns
(``busy_timeout``); a task finished twice keeps its first result, which is the same.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from knight.engine import Tour
from knight.engine.census import CensusUnit
from knight.errors import StoreError
from knight.store import claims, connection, integrity, queries, runs, writes
from knight.store.claims import CLAIM_TIMEOUT, Claimed, Outcome
from knight.store.known import KnownFacts
from knight.store.location import DEFAULT_STORE, STORE_VARIABLE, store_path
from knight.store.records import (
    DRAWN_UP_TO_SQUARES,
    CensusRecord,
    EstimateRecord,
    FailureRecord,
    FrontierRecord,
    TourRecord,
)
from knight.store.runs import HOST
from knight.store.schema import PAGE_SIZE, SCHEMA_VERSION, schema_version, statements
from knight.store.writes import outcome_row, sealed
from knight.tasks import SweepKind, Task, TaskResult
from knight.tasks import census as census_kind
from knight.tasks import estimate as estimate_kind
from knight.tasks import frontier as frontier_kind
from knight.tasks import tour as tour_kind
from knight.tasks.shown import kind_outcomes

__all__ = [
    "CLAIM_TIMEOUT",
    "DEFAULT_STORE",
    "STORE_VARIABLE",
    "SCHEMA_VERSION",
    "Claimed",
    "Outcome",
    "store_path",
    "schema_version",
    "Store",
    # kept importable from here, where they were first defined
    "HOST",
    "PAGE_SIZE",
    "outcome_row",
    "sealed",
]


class Store:
    """The SQLite results store at ``path`` (created, with its folder, on first use).

    ``read_only=True`` opens an existing store for reading only (the report, ``knight results``):
    nothing is created or changed, and a missing or empty store raises :class:`MissingData`; a store
    where SQLite cannot make its -shm file (read-only media, another user's folder) is read as immutable
    when no log is beside it. Either way a store written by another version raises
    :class:`StoreVersionError`, a file that is not a store :class:`StoreError`, and so does a disk that
    is full or read-only (:mod:`knight.store.disk`: one line naming the path, never "delete it").
    """

    def __init__(self, path: str | Path, *, read_only: bool = False) -> None:
        self.path = Path(path)
        self.read_only = read_only
        self._renewals = claims.Renewals()
        self._file: connection.OpenedFile | None = None  # the file opened for writing (to see it moved away)
        #: The tables the store had lost (dropped by hand) that opening it for writing made again, empty.
        self.made_again: list[str] = []
        if read_only:
            self.db = connection.open_readable(self.path)
            return
        self.db, self.made_again = connection.open_writable(self.path)
        self._file = connection.OpenedFile(self.path)

    def close(self) -> None:
        if self._file is None:
            self.db.close()
        else:
            self._file.close(self.db)

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, taken at once (``BEGIN IMMEDIATE``): all of it is kept, or none.

        A disk that is full or read-only raises :class:`StoreError` in one line naming the store (what
        earlier transactions kept stays); so does a store moved away or deleted while this one wrote to it
        (once, after the transaction that found it: :meth:`connection.OpenedFile.check_in_place`)."""
        with connection.transaction(self.db, self.path) as db:
            yield db
        if self._file is not None:
            self._file.check_in_place()

    # --- runs and claims: two runs of one job share its tasks -------------------------------

    def start_run(self, jobs: list[str], executor: str, workers: int) -> int:
        """Record a new run; return its id. Runs left ``running`` by a process that is gone (killed
        outright) are marked ``killed`` first."""
        with self.transaction() as db:
            runs.mark_dead_killed(db)
            claims.release_ended(db)
            return runs.begin(db, jobs, executor, workers)

    def finish_run(self, run_id: int, status: str, tasks_total: int, tasks_run: int) -> None:
        """Record how run ``run_id`` ended, and release its claims (what it had not finished is
        free for another run at once)."""
        with self.transaction() as db:
            runs.end(db, run_id, status, tasks_total, tasks_run)
            claims.release_run(db, run_id)

    def claim(self, run_id: int, keys: Iterable[str]) -> Claimed:
        """Claim for run ``run_id`` the tasks of ``keys`` that it may run now, in one short write
        transaction, and say which (:class:`Claimed`).

        Granted: a task with no outcome recorded since the run started and no claim, or claimed by
        this run already (renewed), or claimed by a run that is over: not ``running``, its process
        gone (on this host; that run is then marked ``killed``), or its claim not renewed for
        :data:`CLAIM_TIMEOUT` seconds. Not granted: a task another live run holds, and one that is
        done or that another run recorded as failed since this run started (its outcome stands for
        this run too: :meth:`outcomes`).
        """
        with self.transaction() as db:
            return claims.claim(db, run_id, keys)

    def outcomes(self, run_id: int, keys: Iterable[str]) -> dict[str, Outcome]:
        """The outcome of each task of ``keys`` that is done, or that failed since run ``run_id``
        started (a failure from before is one the run tries again)."""
        return claims.outcomes(self.db, run_id, keys)

    # --- writes -----------------------------------------------------------------------------

    def register_job(self, job: str, tasks: Iterable[Any], censuses: Iterable[Any] = ()) -> None:
        """Make ``tasks`` (runner Tasks) exactly the tasks of ``job``, adding those the store lacks; and
        ``censuses`` (runner CensusPlans: a :class:`~knight.engine.census.CensusSpec` and its units'
        task keys) exactly the censuses it asks for."""
        rows = writes.task_rows(tasks)
        with self.transaction() as db:
            writes.register_job(db, job, rows, censuses)

    def record(self, run_id: int, results: Iterable[TaskResult], revalidate: bool = False) -> int:
        """Store finished tasks in one transaction; return how many rows changed.

        A done task already stored keeps its first result (the same, as tasks are
        deterministic); a failed one is replaced by a later success. Workers have run
        :func:`validate` on every tour; here each record is checked to be complete, and one
        that is not is stored as a failure with the reason (``revalidate`` runs the full
        :func:`validate` again, for results from elsewhere). The run's claims on them go, and
        the rest are renewed (at most every :data:`~knight.store.claims.RENEW_SECONDS`).
        """
        now = time.time()
        rows = writes.result_rows(run_id, results, now, revalidate=revalidate)
        with self.transaction() as db:
            changed = writes.write_results(db, rows)
            claims.release(db, run_id, rows.finished)
            self._renewals.renew(db, run_id, now)
            return changed

    def record_classes(self, census_id: int, classes: int) -> None:
        """Store the number of closed tours up to symmetry of a complete census."""
        with self.transaction() as db:
            writes.record_classes(db, census_id, classes)

    # --- integrity --------------------------------------------------------------------------

    def problems(self, *, full: bool = False, limit: int | None = None) -> list[integrity.Problem]:
        """What is wrong with the store: the tables it had lost that opening it made again (:attr:`made_again`),
        then the cheap checks (every done task has its result, every result its checksum, every row its task,
        every task its key), and with ``full`` every tour validated from its path too (:mod:`knight.store.integrity`)."""
        made = [integrity.Problem("", "", (), f"table {table} {integrity.MADE_AGAIN}") for table in self.made_again]
        try:
            return made + (integrity.all_problems(self.db) if full else integrity.cheap_problems(self.db, limit))
        except sqlite3.DatabaseError as error:
            return [
                integrity.Problem(
                    "", "", (), f"the file is damaged beyond repair ({error}); delete it, the next run rebuilds it"
                )
            ]

    def refuse_if_damaged(self, *, runs_again: bool = False) -> None:
        """Raise :class:`StoreError` when the cheap checks find anything (readers call this, so
        that no wrong number is ever shown). With ``runs_again`` (a run, before it starts), done tasks
        whose result has gone, and tables made again as it opened, are let by: the run computes what they held
        again (what refers to a lost task or census is not let by), and the store is sound after it.

        The checks are skipped when neither the file nor its write-ahead log has changed since they
        last passed (:mod:`knight.store.known`). Damage that changes neither (a disk flipping a bit
        in place) waits for the next write, or for ``knight verify``, which always checks everything.
        """
        facts = KnownFacts(self.path)
        if facts.get("sound"):
            return
        found = self.problems(limit=1000)  # those a run recomputes come last (integrity.cheap_problems)
        refused = [problem for problem in found if not (runs_again and integrity.recomputed(problem))]
        if refused:
            raise StoreError(
                f"the store {self.path} is damaged ({len(found)}{'+' if len(found) >= 1000 else ''} "
                f"problem(s), first: {refused[0]}); run `knight verify --repair`, then `knight run`"
            )
        if not found:
            facts.note(sound=True)

    def repair(self, problems: list[integrity.Problem]) -> int:
        """Drop what ``problems`` name so that the next run computes it again; return how many tasks.

        A missing table hides the other checks (they read it): once it is made again, they run, and what
        they find is added to ``problems`` and dropped too, so that one repair leaves a sound store."""
        with self.transaction() as db:
            dropped = integrity.repair(db, problems, statements())
            if any(problem.missing_table for problem in problems):
                found = integrity.all_problems(db)
                problems.extend(found)
                dropped += integrity.repair(db, found, statements())
            return dropped

    def integrity(self) -> str:
        """SQLite's own integrity check: ``ok`` when the file is sound."""
        return self.db.execute("PRAGMA integrity_check").fetchone()[0]

    # --- reads ------------------------------------------------------------------------------

    def done_keys(self) -> set[str]:
        """The keys of every task marked done whose result is in the store (these are never run
        again; one marked done whose result has gone is run again)."""
        return queries.done_keys(self.db)

    def tour(self, task_key: str) -> Tour:
        """The stored tour of a done task, decoded and rebuilt (and so validated again).

        Raises :class:`KeyError` when the task has no stored tour, :class:`PathNotKept` when its
        board was too large for the path to be kept."""
        return tour_kind.stored_tour(self.db, task_key)

    def kind_outcomes(self, kind: SweepKind, job: str | None = None) -> list[tuple[Task, Any]]:
        """The done tasks of a registered kind of its own (:class:`knight.tasks.SweepKind`) with their outcomes."""
        return kind_outcomes(self.db, kind, job)

    def facts(self) -> KnownFacts:
        """What is known of the store while its files are as they are now (:mod:`knight.store.known`)."""
        return KnownFacts(self.path)

    def stored_kinds(self) -> list[str]:
        """The kinds other than the built-in four whose outcomes the store holds, loaded here or not."""
        return sorted(integrity.stored_kinds(self.db))

    def failures(self, job: str | None = None) -> list[FailureRecord]:
        """Failed tasks (of ``job``; of every job when None), by key."""
        return queries.failures(self.db, job)

    def jobs(self) -> list[str]:
        """The names of the jobs the store knows."""
        return queries.jobs(self.db)

    def summary(self, job: str | None = None) -> list[dict[str, Any]]:  # rows by column name, kept as JSON too
        """Per job, board, method and parameters (random seeds together): tasks, outcomes and distinct tours.

        Tour tasks only: census units are summed up by :meth:`censuses`, frontier counts listed by
        :meth:`frontier_counts`, estimates by :meth:`estimates`.

        ``starts_full`` counts the start squares from which at least one full tour was found;
        the ``distinct_*`` columns count different full tours: as directed sequences, up to
        reversal, and up to reversal and the board's symmetries.
        """
        return tour_kind.summary(self, job)

    def tours(self, job: str | None = None, *, drawn_up_to: int = DRAWN_UP_TO_SQUARES) -> list[TourRecord]:
        """Every stored tour of ``job`` (of every job by default) as a :class:`TourRecord`, with its
        path (encoded) on boards of at most ``drawn_up_to`` squares; larger ones carry their keys and
        flags only."""
        return tour_kind.records(self.db, job, drawn_up_to)

    def censuses(self, job: str | None = None) -> list[CensusRecord]:
        """Every census of ``job`` (of every job by default), put together from its units' counts."""
        return census_kind.records(self.db, job)

    def unit_shares(self, census_id: int) -> list[tuple[CensusUnit, int | None]]:
        """Each done unit of census ``census_id`` with its share of Burnside's sum (None where none was stored)."""
        return census_kind.unit_shares(self.db, census_id)

    def frontier_counts(self, job: str | None = None) -> list[FrontierRecord]:
        """Every done frontier count of ``job`` (of every job by default), smallest board first."""
        return frontier_kind.records(self.db, job)

    def estimates(self, job: str | None = None) -> list[EstimateRecord]:
        """Every done tree-size estimate of ``job`` (of every job by default), smallest board first."""
        return estimate_kind.records(self.db, job)
