"""The runner reads top to bottom: no function in knight/runner longer than a screen (issue 39)."""

import ast
from pathlib import Path

import knight.runner

LONGEST = 60
RUNNER = Path(knight.runner.__file__).parent


def test_no_function_of_the_runner_is_over_60_lines():
    long = []
    for path in sorted(RUNNER.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = node.end_lineno - node.lineno + 1
                if lines > LONGEST:
                    long.append(f"{path.name}:{node.lineno} {node.name}: {lines} lines")
    assert long == []
