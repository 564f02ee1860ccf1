"""The ``knight`` command as the click objects sphinx-click documents, built from the command line itself.

Typer (since 0.26) builds its commands on its own private copy of click, which sphinx-click does not take for
click's (it checks ``isinstance(..., click.Command)``). So each command, option and argument of
``typer.main.get_command(app)`` is rebuilt here as click's, from what it declares (names, help, metavar,
default, flags): nothing is copied by hand, and a new option shows up at the next build.
"""

from __future__ import annotations

from typing import Any

import click
import typer

from knight.cli import app

__all__ = ["command"]


def _as_click(source: Any, name: str | None = None) -> click.Command:
    context = typer.Context(source, info_name=name or source.name)  # typer's public Context, on its click
    describe = getattr(source, "describe_params", None)
    params = describe(context) if describe is not None else source.get_params(context)
    converted = [_param(param) for param in params if param.name not in ("install_completion", "show_completion")]
    arguments = [param for param in params if param.param_type_name == "argument" and getattr(param, "help", None)]
    help_text = source.help or ""
    if arguments:  # click's arguments carry no help; typer's do: kept as a list in the description
        help_text += "\n\nArguments:\n\n" + "\n".join(f"* {param.name.upper()}: {param.help}" for param in arguments)
    epilog = _literal(source.epilog or "")
    common = {"name": name or source.name, "params": converted, "help": help_text, "epilog": epilog}
    subcommands = getattr(source, "commands", None)
    if subcommands is not None:
        return click.Group(commands={key: _as_click(value, key) for key, value in subcommands.items()}, **common)
    return click.Command(**common)


def _literal(epilog: str) -> str:
    """The epilog's examples (``Examples:`` and a paragraph a command line) as a list of literal command lines."""
    head, *lines = epilog.split("\n\n") if epilog else [""]
    return head + "\n\n" + "\n".join(f"* ``{line}``" for line in lines) if lines else head


def _param(param: Any) -> click.Parameter:
    if param.param_type_name == "argument":
        return click.Argument([param.name], required=param.required, nargs=param.nargs, metavar=param.metavar)
    names = list(param.opts)
    if param.is_flag and param.secondary_opts:  # --pdf/--no-pdf, as click declares such a pair
        names[-1] += "/" + "/".join(param.secondary_opts)
    return click.Option(
        names,
        help=param.help,
        metavar=param.metavar,
        is_flag=param.is_flag,
        multiple=param.multiple,
        required=param.required,
        default=None if callable(param.default) else param.default,
        show_default=bool(param.show_default) and param.default not in (None, False, (), [], ""),
    )


#: What ``.. click:: cli_command:command`` documents.
command = _as_click(typer.main.get_command(app), "knight")
