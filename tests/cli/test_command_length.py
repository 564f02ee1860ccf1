"""A command only parses, calls and prints: no command's body (its statements after the docstring) is over 60
lines (issue 39); the work is in the layers it calls, or in the command module's helpers."""

import ast
from pathlib import Path

import knight.cli

LONGEST = 60
CLI = Path(knight.cli.__file__).parent
#: Commands not split yet: none; no command may join them.
NOT_SPLIT_YET: set[str] = set()


def _commands():
    for path in sorted(CLI.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and any(
                isinstance(decorator, ast.Call) and ast.unparse(decorator.func) == "app.command"
                for decorator in node.decorator_list
            ):
                body = node.body
                if isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                    body = body[1:]  # the docstring: the command's help
                yield node.name, body[-1].end_lineno - body[0].lineno + 1


def test_no_command_body_is_over_60_lines():
    commands = dict(_commands())
    assert {"run", "census", "results", "verify"} <= commands.keys()  # the commands are found
    long = {name: lines for name, lines in commands.items() if lines > LONGEST and name not in NOT_SPLIT_YET}
    assert long == {}
