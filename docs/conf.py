"""Sphinx configuration of knight's docs (``make docs``: ``sphinx-build -W --keep-going -b html docs
docs/_build/html``). The pages are Markdown (MyST); the command reference is generated from the command line
itself (sphinx-click, on :mod:`cli_command`)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))  # cli_command, beside this file

from knight import __version__  # noqa: E402

project = "knight"
author = "the knight's-tour lab"
copyright = "the knight's-tour lab"  # noqa: A001 - Sphinx's own name
release = version = __version__

extensions = ["myst_parser", "sphinx_click"]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "README.md"]
myst_enable_extensions = ["colon_fence"]
myst_heading_anchors = 3  # links to a section: page.md#a-heading

html_theme = "furo"
html_title = f"knight {__version__}"
smartquotes = False  # option names keep their two hyphens
