"""Job files: parsing, task expansion and stable keys, and every kind of malformed file refused."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from runner_helpers import REPO, write_job

from knight.cli import main
from knight.runner import JobError, load_job
from knight.runner.jobs import MAX_JOB_BYTES, parse_job
from knight.tasks import Task
from knight.tasks.estimate import DEFAULTS as ESTIMATE_DEFAULTS
from knight.tasks.kind import sweep_methods

GOOD = """
name = "small"
[[sweep]]
boards = [5, "4x6", "6..7"]
starts = "corners"
method = "warnsdorff"
params = { tie = ["first", "random"] }
repeats = 3
"""


def test_a_job_expands_into_every_board_start_and_parameter(tmp_path):
    job = load_job(write_job(tmp_path, "small", GOOD))
    tasks = job.tasks()
    boards = {(t.n, t.m) for t in tasks}
    assert boards == {(5, 5), (4, 6), (6, 6), (7, 7)}
    # 4 boards x 4 corners x (first + 3 random seeds)
    assert len(tasks) == 4 * 4 * 4 == len({t.key for t in tasks})
    seeds = sorted({dict(t.params).get("seed") for t in tasks if dict(t.params)["tie"] == "random"})
    assert seeds == [0, 1, 2]
    assert {t.start for t in tasks if (t.n, t.m) == (4, 6)} == {(0, 0), (0, 5), (3, 0), (3, 5)}


def test_task_keys_do_not_depend_on_how_the_job_spells_defaults(tmp_path):
    plain = load_job(write_job(tmp_path, "a", '[[sweep]]\nboards = [5]\nstarts = [[0, 0]]\nmethod = "warnsdorff"'))
    spelled = load_job(
        write_job(
            tmp_path,
            "b",
            '[[sweep]]\nboards = ["5x5"]\nstarts = [[0, 0]]\nmethod = "warnsdorff"\nparams = { tie = "first" }',
        )
    )
    assert [t.key for t in plain.tasks()] == [t.key for t in spelled.tasks()]
    other = Task("warnsdorff", (("tie", "roth"),), 5, 5, (0, 0))
    assert other.key != plain.tasks()[0].key


def test_a_sample_of_starts_is_seeded_and_on_the_board(tmp_path):
    text = '[[sweep]]\nboards = ["9x12"]\nstarts = { sample = 7, seed = 3 }\nmethod = "naive"'
    first = load_job(write_job(tmp_path, "s1", text)).tasks()
    again = load_job(write_job(tmp_path, "s2", text)).tasks()
    assert [t.start for t in first] == [t.start for t in again]
    assert len({t.start for t in first}) == 7 and all(0 <= r < 9 and 0 <= c < 12 for r, c in (t.start for t in first))


@given(
    sizes=st.lists(st.tuples(st.integers(1, 9), st.integers(1, 9)), min_size=1, max_size=4, unique=True),
    ties=st.lists(st.sampled_from(["first", "roth", "lookahead-min"]), min_size=1, max_size=3, unique=True),
)
def test_expansion_counts_and_unique_keys(tmp_path_factory, sizes, ties):
    boards = ", ".join(f'"{n}x{m}"' for n, m in sizes)
    text = f'[[sweep]]\nboards = [{boards}]\nstarts = "all"\nmethod = "warnsdorff"\nparams = {{ tie = {ties!r} }}'
    tasks = load_job(write_job(tmp_path_factory.mktemp("job"), "h", text.replace("'", '"'))).tasks()
    assert len(tasks) == sum(n * m for n, m in sizes) * len(ties)
    assert len({t.key for t in tasks}) == len(tasks)


def test_the_shipped_jobs_load_and_cover_their_documents():
    jobs = {load_job(path).name: load_job(path) for path in sorted((REPO / "jobs").glob("*.toml"))}
    assert set(jobs) >= {"deitel-7.24", "homework-8", "eiffel-backtracking", "warnsdorff-blog"}
    deitel = jobs["deitel-7.24"].tasks()
    for method in ("naive", "static", "warnsdorff"):
        assert {t.start for t in deitel if t.method == method and (t.n, t.m) == (8, 8)} == {
            (r, c) for r in range(8) for c in range(8)
        }
    homework = jobs["homework-8"].tasks()
    for side in (5, 6, 8):
        for tie in ("first", "random", "lookahead-min", "lookahead-sum", "roth"):
            starts = {t.start for t in homework if (t.n, t.m) == (side, side) and dict(t.params).get("tie") == tie}
            assert len(starts) == side * side, (side, tie)
    eiffel = jobs["eiffel-backtracking"].tasks()
    for side in (5, 6, 8):
        assert len({t.start for t in eiffel if t.n == side and t.method == "backtrack"}) == side * side
    blog = jobs["warnsdorff-blog"].tasks()
    assert {dict(t.params)["tie"] for t in blog} == {"first", "random", "lookahead-sum", "roth", "squirrel", "blog"}
    assert {t.start for t in blog if dict(t.params)["tie"] == "blog" and t.n == 8} == {
        (r, c) for r in range(8) for c in range(8)
    }
    assert {t.n for t in blog if dict(t.params)["tie"] == "blog" and t.start == (0, 0)} == set(range(5, 101))
    walks = [t for t in deitel if t.method == "random-walk"]
    assert len(walks) == 64 * 100 and {dict(t.params)["seed"] for t in walks} == set(range(100))
    assert {t.start for t in deitel if t.method == "static" and t.n == 6} == {
        (r, c) for r in range(6) for c in range(6)
    }


HEAD = '[[sweep]]\nboards = [5]\nstarts = "all"\nmethod = "warnsdorff"\n'
MALFORMED = {
    "bad-toml": ("[[sweep]\nboards = 5", "not valid TOML"),
    "unknown-top-key": ('colour = "red"\n' + HEAD, "colour: unknown key"),
    "unknown-sweep-key": (HEAD + "start = [[0, 0]]\n", "sweep[0].start: unknown key"),
    "no-sweep": ('name = "x"\n', "sweep: give at least one"),
    "missing-method": ('[[sweep]]\nboards = [5]\nstarts = "all"\n', "sweep[0].method: missing"),
    "unknown-method": (
        '[[sweep]]\nboards = [5]\nstarts = "all"\nmethod = "knightly"\n',
        "sweep[0].method: unknown method 'knightly'; choose one of: naive, static, warnsdorff",
    ),
    "unknown-param": (
        HEAD + "params = { closed = true }\n",
        "sweep[0].params.closed: not a parameter of method 'warnsdorff'; it takes tie, seed",
    ),
    "unknown-tie": (HEAD + 'params = { tie = ["first", "sideways"] }\n', "sweep[0].params.tie: unknown tie-break"),
    "bad-budget": (
        '[[sweep]]\nboards = [5]\nstarts = "all"\nmethod = "backtrack"\nparams = { budget = -3 }\n',
        "sweep[0].params.budget: must be a positive integer",
    ),
    "zero-board": (HEAD.replace("[5]", "[0]"), "sweep[0].boards: 0: board size n must be a positive integer"),
    "empty-range": (HEAD.replace("[5]", '["9..5"]'), "sweep[0].boards: '9..5' is an empty range"),
    "huge-board": (HEAD.replace("[5]", '["5000x5000"]'), "squares; the limit is 16,777,216"),
    "not-a-board": (HEAD.replace("[5]", '["five"]'), "sweep[0].boards: 'five' is not a board"),
    "start-off-board": (HEAD.replace('"all"', "[[2, 7]]"), "sweep[0].starts: square [2, 7] is off the 5x5 board"),
    "bad-start-set": (HEAD.replace('"all"', '"edges"'), "sweep[0].starts: unknown start set 'edges'"),
    "repeats-without-random": (HEAD + "repeats = 3\n", "sweep[0].repeats: applies only to the tie-break 'random'"),
    "squirrel-from-all": (HEAD + 'params = { tie = "squirrel" }\n', "sweep[0].params.tie: 'squirrel' needs"),
    "bad-name": ('name = "two words"\n' + HEAD, "name: must be a word"),
}


@pytest.mark.parametrize("kind", sorted(MALFORMED))
def test_a_malformed_job_file_is_refused_in_one_line_before_anything_runs(tmp_path, capsys, monkeypatch, kind):
    text, expected = MALFORMED[kind]
    good = write_job(tmp_path, "good", HEAD)
    bad = write_job(tmp_path, kind, text)
    store = tmp_path / "store.sqlite"
    with pytest.raises(SystemExit) as stop:
        main(["run", str(good), str(bad), "--store", str(store)])
    out, err = capsys.readouterr()
    assert stop.value.code == 2
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"knight: error: {bad}: ") and expected in err, err
    assert not store.exists()  # refused before anything ran: not even the store was made


def test_a_missing_job_file_is_refused(tmp_path):
    with pytest.raises(JobError, match="no such job file"):
        load_job(tmp_path / "absent.toml")


@pytest.mark.parametrize(
    "args, expected",
    [
        (["--workers", "0"], "--workers must be a positive number"),
        (["--executor", "threads"], "unknown executor 'threads'; choose one of: process, dask"),
        (["--scheduler", "tcp://127.0.0.1:1"], "--scheduler applies only to --executor dask"),
    ],
)
def test_bad_run_options_are_refused_in_one_line(tmp_path, capsys, args, expected):
    job = write_job(tmp_path, "good", HEAD)
    with pytest.raises(SystemExit) as stop:
        main(["run", str(job), "--store", str(tmp_path / "s.sqlite"), *args])
    _, err = capsys.readouterr()
    assert stop.value.code == 2 and expected in err and err.count("\n") == 1


def test_defaults_cover_every_method():
    from knight.engine import METHODS

    assert all(isinstance(METHODS[name].defaults(), dict) for name in METHODS)  # the census's params have no defaults
    assert set(ESTIMATE_DEFAULTS) == {"probes", "seed", "rate_nodes"}


def test_results_without_a_store_says_what_to_do(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["results", "--store", str(tmp_path / "none.sqlite")])
    assert stop.value.code == 2 and "run `knight run homework-8` (or another job) first" in capsys.readouterr().err


# What the job-file models guarantee: each refusal is one line naming the file and the key path, and says what is valid.
MODEL_REFUSALS = {
    "sweep = [1]\n": "sweep: give at least one [[sweep]] table with boards, starts and method",
    HEAD + "label = 3\n": "sweep[0].label: must be a string, got 3",
    HEAD + "params = 3\n": "sweep[0].params: must be a table {key = value, ...}, got 3",
    HEAD + "params = { tie = [] }\n": "sweep[0].params.tie: an empty list; give at least one value",
    HEAD
    + 'params = { tie = "random" }\nrepeats = true\n': "sweep[0].repeats: must be a number of seeds 1..100,000, got True",
    HEAD.replace(
        '"all"', "{ sample = 3, colour = 1 }"
    ): "sweep[0].starts.colour: unknown key; valid keys: sample, seed",
    HEAD.replace('"all"', "{ seed = 3 }"): "sweep[0].starts.sample: missing",
    HEAD.replace('"all"', "[[0, 0, 1]]"): "sweep[0].starts: must be a list of [row, col] squares, got [[0, 0, 1]]",
    HEAD.replace(
        '"all"', "5"
    ): 'sweep[0].starts: write "all", "corners", a list of [row, col] or {sample = K, seed = S}',
    HEAD.replace("warnsdorff", "naive") + "params = { seed = 1 }\n": (
        "sweep[0].params.seed: not a parameter of method 'naive'; it takes none"
    ),
    HEAD
    + HEAD
    + 'params = { tie = "sideways" }\n': "sweep[1].params.tie: unknown tie-break 'sideways'; choose one of: ",
    '[[sweep]]\nboards = [5]\nmethod = "census"\nparams = { depth = [1, true] }\n': (
        "sweep[0].params.depth: must be moves fixed per unit, a positive integer or a list, got [1, True]"
    ),
}


@pytest.mark.parametrize("text", sorted(MODEL_REFUSALS))
def test_a_refusal_names_the_file_the_key_path_and_what_is_valid(tmp_path, text):
    path = write_job(tmp_path, "bad", text)
    with pytest.raises(JobError) as refused:
        load_job(path)
    assert str(refused.value).startswith(f"{path}: {MODEL_REFUSALS[text]}"), str(refused.value)
    assert "\n" not in str(refused.value)


#: TOML-like values, mostly near what a sweep takes, so that a generated sweep gets past some checks.
LEAVES = st.one_of(
    st.integers(-2, 6),
    st.sampled_from([2**40, True, False, 1.5, "", "x", "all", "corners", "5x6", "3..5", "9..5", "4..9000", "random"]),
    st.sampled_from(["first", "squirrel", "plain", "warnsdorff", "census", "estimate", "backtrack", "knightly"]),
)
KEYS = ["boards", "starts", "method", "params", "repeats", "label", "colour", "tie", "seed", "sample", "closed"]
KEYS += ["depth", "removed", "probes", "rate_nodes", "budget", "order"]
VALUES = st.recursive(
    LEAVES,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=3),
    max_leaves=6,
)
PARAMS = st.dictionaries(st.sampled_from(KEYS[7:]), VALUES, max_size=3)
#: Sweeps near valid ones (each key mostly a value it takes), so that most get past the first checks.
SWEEPS = st.fixed_dictionaries(
    {
        "method": st.sampled_from([*sweep_methods(), "knightly"]),
        "boards": st.sampled_from([5, "5x6", [4, 5], "3..5", [1], [6, "3..4x5"]]) | VALUES,
        "starts": st.sampled_from(["all", "corners", [[0, 0]], [[0, 1], [2, 2]], {"sample": 2}]) | VALUES,
    },
    optional={"params": PARAMS | VALUES, "repeats": st.integers(-1, 3) | VALUES, "label": VALUES},
)
PATH = re.compile(r"sweep(\[\d+\](\.[a-z_]+)+)?")


@settings(max_examples=300, deadline=None, derandomize=True)
@given(sweeps=st.lists(SWEEPS, min_size=1, max_size=2))
def test_any_malformed_sweep_is_one_job_error_line_naming_the_file_and_a_key(sweeps):
    path = Path("jobs/generated.toml")
    try:
        parse_job({"sweep": sweeps}, path)
    except JobError as error:  # any other exception fails the test
        message = str(error)
        assert "\n" not in message and message.startswith(f"{path}: "), message
        key, _, said = message.removeprefix(f"{path}: ").partition(": ")
        assert PATH.fullmatch(key) and said, message
        if match := re.match(r"sweep\[(\d+)\]\.([a-z_]+)", key):  # a sweep's key named is in it, or said missing
            assert match[2] in sweeps[int(match[1])] or said.startswith("missing"), message


@pytest.mark.parametrize(
    ("kind", "says"),
    [
        ("fifo", "a FIFO (named pipe), not a regular file"),
        ("device", "a character device, not a regular file"),
        ("folder", "a directory, not a file"),
        ("too large", "larger than 1 MB"),
        ("not utf-8", "not UTF-8 text"),
    ],
)
def test_a_job_file_that_is_no_text_file_is_one_line_at_once(tmp_path: Path, kind: str, says: str) -> None:
    """Read with a bound and without blocking: /dev/zero once grew a run to 23 GB, and a FIFO hung it."""
    path = tmp_path / "job.toml"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        path = Path("/dev/zero")
    elif kind == "folder":
        path.mkdir()
    elif kind == "too large":
        path.write_bytes(b"#" * (MAX_JOB_BYTES + 1))
    else:
        path.write_bytes(b"name = '\xff'\n")
    with pytest.raises(JobError) as raised:
        load_job(path)
    message = str(raised.value)
    assert message.startswith(f"{path}: ") and says in message and "\n" not in message


def test_a_job_file_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    path = write_job(tmp_path, "marked", '[[sweep]]\nboards = [5]\nstarts = "corners"\nmethod = "warnsdorff"\n')
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())  # as Notepad saves UTF-8
    assert len(load_job(path).tasks()) == 4
