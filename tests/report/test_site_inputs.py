"""`knight site` trusts no input: every bad --out, course file, disk or store is one line and exit status 2, with
nothing written where it should not be.

--out: empty, the current directory (or one holding it), the docs it copies or their sources, the package, the
clone; inside a git work tree and not git-ignored (refused, with git or without it), a folder of other files
(both unless --force). The course file: a FIFO or a device (refused without waiting or reading), too large,
nested too deep, not UTF-8, a time zone that is a folder of the zone database. A disk that fills while the docs
are copied. A store that lacks some answers' results: refused naming the jobs, unless --allow-incomplete,
which says the gaps on the index.
"""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from cli_helpers import knight_cli
from report_helpers import COURSE, DAY, DAY_BEFORE
from runner_helpers import knight, write_job

import knight as package

ONE_TOUR = """
name = "one-tour"
[[sweep]]
boards = [8]
starts = [[0, 0]]
method = "warnsdorff"
"""


@pytest.fixture
def course(tmp_path) -> Path:
    path = tmp_path / "course.toml"
    path.write_text(COURSE, encoding="utf-8")
    return path


def site(capsys, out: object, course: Path, *more: object) -> tuple[int | str | None, str, str]:
    """`knight site` in this process, before the key's day, without docs or PDFs unless ``more`` says so."""
    return knight_cli(
        capsys,
        "site",
        "--out",
        out,
        "--course",
        course,
        "--today",
        DAY_BEFORE,
        "--docs",
        "none",
        "--no-pdf",
        "-q",
        *more,
    )


def one_line(status: object, err: str, *says: str) -> None:
    assert status == 2, err
    assert err.startswith("knight: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for word in says:
        assert word in err, err


def listing(folder: Path) -> list[str]:
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*"))


# --out


def test_an_empty_out_is_refused(capsys, course):
    status, _, err = site(capsys, "", course)
    one_line(status, err, "--out is empty")


@pytest.mark.parametrize("out", [".", "./", "..", "sub/.."])
def test_the_current_directory_or_one_holding_it_is_refused(capsys, course, tmp_path, monkeypatch, out):
    here = tmp_path / "work"
    (here / "sub").mkdir(parents=True)
    (here / "knights-tour.html").write_text("the teacher's own key")
    monkeypatch.chdir(here)
    before = listing(tmp_path)
    status, _, err = site(capsys, out, course)
    one_line(status, err, f"--out {out}", "current directory")
    assert listing(tmp_path) == before  # nothing written, nothing removed


@pytest.mark.parametrize(("out", "says"), [("a\x00b", "no path may hold"), ("x" * 300, "too long")])
def test_an_out_no_system_takes_is_one_line(capsys, course, tmp_path, monkeypatch, out, says):
    monkeypatch.chdir(tmp_path)
    status, _, err = site(capsys, out, course)
    one_line(status, err, "--out", says)
    assert os.listdir(tmp_path) == ["course.toml"]


@pytest.mark.parametrize("option", ["--course", "--docs", "--store"])
def test_a_path_no_system_takes_is_one_line(capsys, course, tmp_path, option):
    argv = ["site", "--out", tmp_path / "site", "--course", course, "--today", DAY, "--docs", "none", "--no-pdf"]
    status, _, err = knight_cli(capsys, *argv, option, "a\x00b")
    one_line(status, err, option, "no path may hold")
    assert not (tmp_path / "site").exists()


def test_the_docs_it_copies_and_their_sources_are_refused(capsys, course, tmp_path):
    built = tmp_path / "docs" / "_build" / "html"
    built.mkdir(parents=True)
    (built / "index.html").write_text("<h1>docs</h1>")
    for out in (built, built / "docs", tmp_path / "docs", tmp_path / "docs" / "_build"):
        status, _, err = knight_cli(
            capsys, "site", "--out", out, "--course", course, "--today", DAY_BEFORE, "--docs", built, "--no-pdf"
        )
        one_line(status, err, f"--out {out}")
    assert listing(tmp_path / "docs") == ["_build", "_build/html", "_build/html/index.html"]


def test_the_package_and_the_clone_are_refused(capsys, course):
    source = Path(package.__file__).resolve().parent
    for out in (source, source / "report" / "site-here"):
        status, _, err = site(capsys, out, course)
        one_line(status, err, "the knight package")
    assert not (source / "report" / "site-here").exists()
    clone = source.parent
    if (clone / "pyproject.toml").is_file():
        for out in (clone, clone / "docs", clone / "docs" / "_build" / "html", clone / ".git" / "site"):
            status, _, err = site(capsys, out, course)
            one_line(status, err, f"--out {out}")
        assert not (clone / ".git" / "site").exists()


def test_docs_that_are_not_built_docs_are_refused(capsys, course, tmp_path):
    private = tmp_path / "home"
    private.mkdir()
    (private / "grades.csv").write_text("alice,10")
    argv = ["site", "--out", tmp_path / "site", "--course", course, "--today", DAY_BEFORE, "--no-pdf"]
    status, _, err = knight_cli(capsys, *argv, "--docs", private)
    one_line(status, err, f"--docs {private}", "index.html")
    assert not (tmp_path / "site").exists()


def test_a_folder_of_other_files_is_refused_unless_forced(capsys, course, tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    status, _, err = site(capsys, out, course)
    one_line(status, err, str(out), "--force")
    assert listing(out) == ["notes.txt"]
    status, _, err = site(capsys, out, course, "--force")
    assert status == 0, err
    assert (out / "notes.txt").read_text() == "mine" and (out / "index.html").is_file()
    status, _, err = site(capsys, out, course)  # now a site knight wrote: built again without --force
    assert status == 0, err


# a git work tree

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


@pytest.fixture
def clone(tmp_path) -> Path:
    """A git work tree of its own (the site's --out inside it)."""
    folder = tmp_path / "clone"
    folder.mkdir()
    subprocess.run(["git", "init", "-q", str(folder)], check=True, capture_output=True)
    return folder


@needs_git
@pytest.mark.parametrize("out", ["site", "public/site"])
def test_inside_a_git_work_tree_the_site_must_be_ignored(capsys, course, clone, out):
    status, _, err = site(capsys, clone / out, course)
    one_line(status, err, "not git-ignored", ".gitignore", "--force")
    assert not (clone / out).exists()
    (clone / ".gitignore").write_text("site/\npublic/\n")
    status, _, err = site(capsys, clone / out, course)
    assert status == 0, err
    assert (clone / out / "index.html").is_file()
    ignored = subprocess.run(["git", "-C", str(clone), "status", "--porcelain"], capture_output=True, text=True)
    assert ignored.stdout.strip() == "?? .gitignore"  # what `git add -A` would take: not the site


@needs_git
def test_force_writes_where_git_would_see_it(capsys, course, clone):
    status, _, err = site(capsys, clone / "site", course, "--force")
    assert status == 0, err
    assert (clone / "site" / "index.html").is_file()


def test_without_git_a_work_tree_is_refused_and_elsewhere_nothing_changes(capsys, course, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "no-programs"))
    tree = tmp_path / "tree"
    (tree / ".git").mkdir(parents=True)  # a work tree, as git would see one
    status, _, err = site(capsys, tree / "site", course)
    one_line(status, err, "git is not installed", "--force")
    assert not (tree / "site").exists()
    status, _, err = site(capsys, tree / "site", course, "--force")
    assert status == 0, err
    status, _, err = site(capsys, tmp_path / "elsewhere", course)  # no work tree: nothing to ask git
    assert status == 0, err


# the course file


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (lambda folder: Path("/dev/zero"), "character device"),
        (lambda folder: Path("/dev/null"), "character device"),
        (lambda folder: folder, "a directory, not a file"),
    ],
)
def test_a_course_file_that_is_no_file_is_refused_unread(capsys, tmp_path, make, says):
    path = make(tmp_path)
    status, _, err = site(capsys, tmp_path / "site", path)
    one_line(status, err, str(path), says)
    assert not (tmp_path / "site").exists()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_course_file_is_refused_without_waiting(tmp_path):
    fifo = tmp_path / "course.toml"
    os.mkfifo(fifo)
    done = knight(["site", "--out", str(tmp_path / "site"), "--course", str(fifo)], tmp_path / "s.sqlite", timeout=60)
    one_line(done.returncode, done.stderr, "FIFO")
    assert not (tmp_path / "site").exists()


def nested(depth: int) -> str:
    return "title = " + "[" * depth + '"x"' + "]" * depth + "\n"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (COURSE + "# " + "x" * 70_000 + "\n", "larger than 64 KiB"),
        (nested(20), "nested too deeply"),
        (nested(5000), "nested too deeply"),  # deeper than Python's recursion
        ("title = " + "{ a = " * 3000 + "1" + " }" * 3000 + "\n", "nested too deeply"),
        ("[" + ".".join(["a"] * 30) + "]\nb = 1\n", "nested too deeply"),
        (COURSE.replace('"Europe/Berlin"', '"Europe"'), "unknown time zone"),  # a folder of the zone database
        (COURSE.replace('"Europe/Berlin"', '"zone.tab"'), "unknown time zone"),  # a file of it that is no zone
        (COURSE.replace('"Europe/Berlin"', '"' + "a" * 3000 + '"'), "unknown time zone"),  # too long for a path
        (COURSE.replace('"Europe/Berlin"', '"../../etc/passwd"'), "unknown time zone"),
        (COURSE + '[assignment]\nboard = 8\nstart = "9,9"\n', "assignment.start"),
        (COURSE + "[assignment]\nboard = [[8]]\n", "assignment.board"),
    ],
)
def test_a_bad_course_file_is_one_line(capsys, tmp_path, text, says):
    path = tmp_path / "course.toml"
    path.write_text(text, encoding="utf-8")
    status, _, err = site(capsys, tmp_path / "site", path)
    one_line(status, err, str(path), says)
    assert not (tmp_path / "site").exists()


def test_a_course_file_not_utf8_is_one_line(capsys, tmp_path):
    path = tmp_path / "course.toml"
    path.write_bytes(COURSE.encode("utf-8").replace(b"Knight's", b"Knight\xe9s"))
    status, _, err = site(capsys, tmp_path / "site", path)
    one_line(status, err, "UTF-8")


def test_the_assignment_table_is_read(course):
    from knight.report.course import load_course

    course.write_text(COURSE + '[assignment]\nboard = "6x8"\nstart = "0,0"\nclosed = true\n', encoding="utf-8")
    assignment = load_course(course).assignment
    assert assignment is not None and (assignment.board, assignment.start, assignment.closed) == ((6, 8), (0, 0), True)


# a full disk


@pytest.mark.parametrize("names_files", [False, True])  # a write midway names no file; sendfile names both
def test_a_disk_that_fills_while_the_docs_are_copied_is_one_line(capsys, course, tmp_path, monkeypatch, names_files):
    import knight.report.site as site_module

    built = tmp_path / "built"
    (built / "_static").mkdir(parents=True)
    for name in ("index.html", "census.html", "_static/basic.css"):
        (built / name).write_text(f"<title>{name}</title>")
    out = tmp_path / "site"
    argv = ["site", "--out", out, "--course", course, "--today", DAY_BEFORE, "--docs", built, "--no-pdf"]
    status, _, err = knight_cli(capsys, *argv)
    assert status == 0, err
    copied = listing(out / "docs")
    copy = shutil.copyfile

    def full(source: object, target: object, **options: object) -> object:
        if str(target).endswith("basic.css"):
            if names_files:
                raise OSError(errno.ENOSPC, "No space left on device", str(source), None, str(target))
            raise OSError(errno.ENOSPC, "No space left on device")
        return copy(source, target, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(site_module.shutil, "copyfile", full)
    status, _, err = knight_cli(capsys, *argv)
    one_line(status, err, "no space left", str(out / "docs" / "_static" / "basic.css"))
    assert listing(out / "docs") == copied  # the docs of the last build are kept whole
    assert not [name for name in os.listdir(out) if name.startswith(".docs")]  # no half copy left


def test_a_docs_file_that_cannot_be_read_is_one_line(capsys, course, tmp_path, monkeypatch):
    import knight.report.site as site_module

    built = tmp_path / "built"
    built.mkdir()
    (built / "index.html").write_text("<h1>docs</h1>")

    def forbidden(source: object, target: object, **options: object) -> object:
        raise PermissionError(errno.EACCES, "Permission denied", str(source))

    monkeypatch.setattr(site_module.shutil, "copyfile", forbidden)
    argv = ["site", "--out", tmp_path / "site", "--course", course, "--today", DAY_BEFORE, "--docs", built, "--no-pdf"]
    status, _, err = knight_cli(capsys, *argv)
    one_line(status, err, "cannot read", str(built / "index.html"), "permission denied")


def test_a_disk_that_fills_while_a_page_is_written_is_one_line(capsys, course, tmp_path, monkeypatch):
    import knight.report.site as site_module

    def full(text: str, path: Path) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(site_module, "write_text", full)
    status, _, err = site(capsys, tmp_path / "site", course)
    one_line(status, err, "no space left")


# an incomplete key


@pytest.fixture(scope="module")
def small_store(tmp_path_factory) -> Path:
    """A store of one tour: the key it makes leaves most questions unanswered."""
    folder = tmp_path_factory.mktemp("small-store")
    store = folder / "knight.sqlite"
    done = knight(["run", str(write_job(folder, "one-tour", ONE_TOUR))], store, timeout=300)
    assert done.returncode == 0, done.stderr
    return store


def test_an_incomplete_key_is_not_published(capsys, course, tmp_path, small_store):
    out = tmp_path / "site"
    argv = ["site", "--out", out, "--course", course, "--today", DAY, "--docs", "none", "--no-pdf", "-q"]
    status, _, err = knight_cli(capsys, *argv, "--store", small_store)
    one_line(status, err, "--allow-incomplete", "census", "tree-size", "jobs/census.toml")
    assert not (out / "knights-tour.html").exists()
    status, _, err = knight_cli(capsys, *argv, "--store", small_store, "--allow-incomplete")
    assert status == 0, err
    assert (out / "knights-tour.html").is_file()
    index = (out / "index.html").read_text(encoding="utf-8")
    assert 'class="gaps"' in index and "census" in index and "tree-size" in index
    assert 'href="knights-tour.html"' in index


@needs_git
def test_knight_grade_too_writes_grades_only_where_git_ignores_them(capsys, clone):
    from runner_helpers import REPO

    submissions = REPO / "examples" / "submissions"
    status, _, err = knight_cli(capsys, "grade", submissions, "--out", clone / "grades", "-q")
    one_line(status, err, "not git-ignored", "grades", "--force")
    assert not (clone / "grades").exists()
    (clone / ".gitignore").write_text("/grades/\n")
    status, _, err = knight_cli(capsys, "grade", submissions, "--out", clone / "grades", "-q")
    assert status != 2 and (clone / "grades" / "gradebook.csv").is_file(), err
    status, _, err = knight_cli(capsys, "grade", submissions, "--out", clone / "graded", "-q", "--force")
    assert status != 2 and (clone / "graded" / "gradebook.csv").is_file(), err
