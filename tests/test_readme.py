"""The README, followed by a newcomer (issue 38, item 2): every command of its shell blocks, in order, in a fresh
clone, works (exit status 0, or the one its comment gives), with nothing known beforehand: `knight` is not on
the PATH until the README's own `. .venv/bin/activate`. The clone uses this checkout's `.venv` (making one takes
minutes and the network); the commands marked as needing the network are skipped. Everything else runs as
written (`make report`: every shipped sweep into the clone's empty store, ~20 s; `make docs`; `knight site`),
but `make test`, which is the suite this test is part of: it runs as `make -n test` (make knows the target and
what it would run) unless KNIGHT_DOCS_SLOW=1 (`make test FULL=1`, and CI's `readme` job), where it runs too.
The README's first block is docs/install.md's too (tests/test_install_doc.py checks it): this walk runs it for both.
The walk's transcript is printed (`pytest -s`)."""

from __future__ import annotations

import re
import subprocess

from doc_commands import ROOT, VENV, check, clean_environment, commands, stand_in, temporary_clone, transcript, walk

README = ROOT / "README.md"


def test_every_command_of_the_readme_works_in_a_fresh_clone(tmp_path):
    clone = temporary_clone(tmp_path)
    env = clean_environment(tmp_path, venv_on_path=False)
    assert subprocess.run(["bash", "-c", "command -v knight"], env=env, capture_output=True).returncode != 0
    steps = commands(README.read_text(encoding="utf-8"))
    outcomes = walk(steps, clone, env, stand_in)
    print("\n" + transcript(outcomes))
    check(outcomes)
    ran = [outcome for outcome in outcomes if outcome.ran is not None]
    assert len(ran) >= 12 and len(ran) >= 0.8 * len(steps), transcript(outcomes)
    assert any(step.shell == ". .venv/bin/activate" for step in steps)
    # what the walk made: the sample class graded, the handout on letter paper, the results in the clone's var/
    assert (clone / "grades" / "gradebook.csv").is_file()
    assert (clone / "reports" / "out" / "letter" / "knights-tour-handout.html").is_file()
    assert (clone / "var" / "knight.sqlite").is_file() and not (tmp_path / "data" / "knight").exists()
    # and what the slow commands made: the report of every shipped sweep, the docs, the class's site
    assert (clone / "reports" / "out" / "knights-tour.pdf").is_file()
    assert (clone / "docs" / "_build" / "html" / "index.html").is_file()
    assert (clone / "site" / "index.html").is_file() and (clone / "site" / "check.html").is_file()


def test_the_readmes_python_lines_give_what_they_say(tmp_path):
    (block,) = re.findall(r"^```python\n(.*?)^```", README.read_text(encoding="utf-8"), re.MULTILINE | re.DOTALL)
    *body, last = block.strip().splitlines()
    expression, _, said = last.partition("#")
    program = "\n".join([*body, f"print(repr(({expression.strip()})))"])
    done = subprocess.run(
        [str(VENV / "bin" / "python"), "-c", program], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == said.split(";")[0].strip()


def test_the_readme_says_how_to_reach_knight_after_make_report():
    text = README.read_text(encoding="utf-8")
    assert ". .venv/bin/activate" in text and ".venv/bin/knight" in text
    assert (
        text.index("make report")
        < text.index(". .venv/bin/activate")
        < text.index("knight --version", text.index("make report"))
    )
