"""What every `knight` command shares: options whose values are a fixed set (choices read from a registry when
the command line is parsed or its help shown), ``-q/--quiet``, and the one-document JSON output.

The JSON convention (docs/cli-conventions.md, "JSON output"): ``--json`` prints exactly one JSON object on stdout, with
``"version"`` (knight's version) first and the same keys every time; numbers are JSON numbers, lists JSON
arrays, a missing value ``null``. Everything else a command says while it works goes to stderr.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, get_args, get_origin

import typer
from typer.core import TyperCommand, TyperGroup

from knight.cli.squares import join_old_start

__all__ = [
    "Choice",
    "KnightCommand",
    "PlainGroup",
    "PlainValues",
    "plain_values",
    "shown_as_flag",
    "TYPER_RELEASES_TESTED",
    "typer_shortcut",
    "QuietOption",
    "JsonOption",
    "choice_option",
    "described_option",
    "examples",
    "print_json",
    "print_json_chunks",
    "info",
]

BadParameter = typer.BadParameter  # a value an option cannot take: a usage error, one line (see knight.cli.main)


class Choice:
    """The parser of an option that takes one of a set of names, read from ``names`` each time it is called:
    a value registered after import (a tie-break) is valid too. A bad value is a usage error, in one line
    that names the valid ones."""

    def __init__(self, option: str, noun: str | Callable[[], str], names: Callable[[], Iterable[str]]) -> None:
        self.option, self._noun, self._names = option, noun, names

    @property
    def noun(self) -> str:
        """What a value is called (``tie-break``), read when needed like the values."""
        return self._noun if isinstance(self._noun, str) else self._noun()

    def names(self) -> list[str]:
        """The valid values now, in the registry's order."""
        return list(self._names())

    def __call__(self, value: str) -> str:
        names = self.names()
        if value not in names:
            raise BadParameter(
                f"unknown {self.noun} {value!r}; choose one of: {', '.join(names)}", param_hint=f"'{self.option}'"
            )
        return value

    def complete(self, incomplete: str) -> list[str]:
        """Shell completion: the valid values that start with what is typed."""
        return [name for name in self.names() if name.startswith(incomplete)]

    def metavar(self) -> str:
        """How --help shows the value: ``[first|random|...]``."""
        return f"[{'|'.join(self.names())}]"


def choice_option(choice: Choice, help: str | Callable[[], str], *names: str) -> Any:  # noqa: A002 - typer's own name
    """A ``typer.Option`` that takes one of ``choice``'s values (listed by --help, completed by the shell); its
    help a text, or a function that writes it when the help is shown (see :func:`described_option`)."""
    # The values are listed (as the metavar) by KnightCommand when the help is shown: reading them here, at
    # import, would fix the set too early and import what holds them (the report's renderer) for any command.
    option = typer.Option(
        *names, help=help if isinstance(help, str) else "", parser=choice, autocompletion=choice.complete
    )
    if not isinstance(help, str):
        option.described_by = help
    return option


def described_option(help: Callable[[], str], *names: str) -> Any:  # noqa: A002 - typer's own name
    """A ``typer.Option`` whose help is written when the help is shown (by :class:`KnightCommand`), from what
    only the engine knows (a default, a registry): importing the command line loads none of it."""
    option = typer.Option(*names, help="")
    option.described_by = help
    return option


class KnightCommand(TyperCommand):
    """A command whose choice options show their values as registered when the help is shown, not at import
    (and whose :func:`described_option` options get their help then), and whose plain values are converted
    without pydantic (:func:`plain_values`)."""

    def get_params(self, ctx: Any) -> list[Any]:
        params = super().get_params(ctx)
        for param in params:
            plain_values(param)
            shown_as_flag(param)
        return params

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        # `--start ROW COL`, the first form of a square, still read (knight/cli/squares.py)
        return list(super().parse_args(ctx, join_old_start(list(args))))

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self.describe_params(ctx)
        super().format_help(ctx, formatter)

    def describe_params(self, ctx: Any) -> list[Any]:
        """The parameters with their help and choices as registered now (what --help and the docs show).

        Only for the help: reading the registries (the runner's executors, the report's editions) costs what a
        small command takes."""
        params = self.get_params(ctx)
        for param in params:
            info = getattr(getattr(param, "type_descriptor", None), "parameter_info", None)
            parser = getattr(info, "parser", None)
            if isinstance(parser, Choice):
                param.metavar = parser.metavar()
            describe = getattr(info, "described_by", None)
            if describe is not None:
                param.help = describe()
        return params


class PlainGroup(TyperGroup):
    """The command group, whose own options' values are converted without pydantic (:func:`plain_values`)."""

    def get_params(self, ctx: Any) -> list[Any]:
        params = super().get_params(ctx)
        for param in params:
            plain_values(param)
            shown_as_flag(param)
        return params


def shown_as_flag(param: Any) -> None:
    """Show a boolean flag in --help as a flag (``--closed``, ``--pdf/--no-pdf``), with no value after it: Typer
    0.29's help gives every option a type column, ``<bool>`` for a flag, as if it took a value, unless the option
    has a metavar (click's public ``Parameter.metavar``, what ``typer.Option(metavar=...)`` sets): an empty one."""
    if getattr(param, "is_flag", False) and not getattr(param, "count", False) and param.metavar is None:
        param.metavar = ""


#: The typer releases on which :func:`plain_values` replaces typer's conversion of values, each tested with the
#: same commands run both ways (tests/cli/test_typer_paths.py). On any other, typer's own conversion runs: the
#: same values, output and messages (but a value of the wrong kind refused in pydantic's words), and pydantic
#: imported, about 0.1 s more at each command's start. A release is added here once that test passes on it.
TYPER_RELEASES_TESTED = ("0.29.2",)


def typer_shortcut() -> bool:
    """Whether :func:`plain_values` replaces typer's conversion: only on a release it was tested on."""
    return typer.__version__ in TYPER_RELEASES_TESTED


def plain_values(param: Any) -> None:
    """Have typer convert ``param``'s values as click did, when they are of the plain kinds our commands take
    (int, str, bool and Path, their lists and tuples, and :class:`Choice` names).

    Typer 0.29 converts every value through a pydantic ``TypeAdapter``: importing pydantic and building the
    adapters costs about 0.1 s of each command's start, more than a small tour takes. The parameter's
    ``get_runtime_param`` (the method of typer's parameter class that builds the adapter when a value first
    needs it; not documented, so not to be relied on across releases) is replaced, on this parameter, by one
    that gives a :class:`PlainValues`. The messages stay typer's shape (``Invalid value for 'n': 'x' is not a
    valid integer.``). Only on a typer in :data:`TYPER_RELEASES_TESTED`: on any other release, or for a kind not
    listed, typer's own conversion stays.
    """
    if not typer_shortcut():
        return
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is None or not hasattr(param, "get_runtime_param") or "get_runtime_param" in vars(param):
        return
    info = descriptor.parameter_info
    if descriptor.file_annotation is not None or info.min is not None or info.max is not None:
        return
    if not _is_plain(descriptor.annotation, info.parser):
        return
    plain = PlainValues(descriptor.annotation, info.parser)
    param.get_runtime_param = lambda: plain


def _is_plain(annotation: Any, parser: Any) -> bool:
    if get_origin(annotation) in (list, tuple):
        return all(_is_plain(kind, parser) for kind in get_args(annotation))
    if parser is not None:
        return isinstance(parser, Choice)
    return annotation in (int, str, bool, Path)


def _convert(annotation: Any, parser: Any, value: Any) -> Any:
    origin = get_origin(annotation)
    if origin is list:
        (kind,) = get_args(annotation)
        return [_convert(kind, parser, item) for item in value]
    if origin is tuple:
        kinds = get_args(annotation)
        if len(value) != len(kinds):
            raise BadParameter(f"{len(kinds)} values are required, but {len(value)} given.")
        return tuple(_convert(kind, parser, item) for kind, item in zip(kinds, value))
    if parser is not None:
        return parser(value)
    if annotation is int:
        try:
            return int(value)
        except (TypeError, ValueError):
            raise BadParameter(f"{value!r} is not a valid integer.") from None
    if annotation is bool and isinstance(value, str):  # a flag's value is a bool already; this is --x=yes
        word = value.strip().lower()
        if word not in _TRUE + _FALSE:
            raise BadParameter(f"{value!r} is not a valid boolean.")
        return word in _TRUE
    if annotation is Path:
        return Path(value)
    return value if annotation is bool else str(value)


_TRUE, _FALSE = ("1", "true", "t", "yes", "y", "on"), ("0", "false", "f", "no", "n", "off", "")


@dataclass(frozen=True)
class PlainValues:
    """A parameter's values converted as click converts them (see :func:`plain_values`): what typer's
    ``get_runtime_param`` gives, a ``coerce`` of the value given (None when none was)."""

    annotation: Any
    parser: Any

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        many = param.multiple or param.nargs == -1
        if value is None:  # nothing given: typer's own answer, an empty tuple for a repeatable option
            return () if many else None
        try:
            if many and isinstance(value, str):
                raise BadParameter("Value must be an iterable.")
            return _convert(self.annotation, self.parser, value)
        except BadParameter as error:
            error.ctx, error.param = ctx, param
            raise


#: ``-q/--quiet`` on every command: no progress and no informational lines (never the result or an error).
QuietOption = Annotated[
    bool, typer.Option("--quiet", "-q", help="No progress or informational lines on stderr; results and errors only.")
]
#: ``--json`` on every command: one JSON document on stdout (see :func:`print_json`).
JsonOption = Annotated[
    bool, typer.Option("--json", help='Print the result as one JSON document (with a "version" key).')
]


def examples(*commands: str) -> str:
    """A command's epilog: ``Examples:`` and the command lines, each its own paragraph (Typer's rich help
    joins the lines of one paragraph)."""
    return "\n\n".join(("Examples:", *commands))


def print_json(data: Mapping[str, Any]) -> None:
    """Print ``data`` as the command's one JSON document: ``{"version": knight's version, **data}``, on one line."""
    from knight import __version__

    typer.echo(json.dumps({"version": __version__, **data}))


def print_json_chunks(chunks: Iterable[str], **more: Any) -> None:
    """:func:`print_json` for a document that comes as the JSON text of an object in pieces (as
    :meth:`~knight.engine.tour.Tour.json_chunks` writes a big tour), each written as it comes:
    ``{"version": ..., <the object's keys>, **more}``, the same document :func:`print_json` would print."""
    from knight import __version__

    out = sys.stdout
    pending = None  # the latest piece, held back: the object's closing brace ends it
    for piece in chunks:
        if pending is None:  # the first piece opens the object: the version goes first
            piece = json.dumps({"version": __version__})[:-1] + ", " + piece[1:]
        else:
            out.write(pending)
        pending = piece
    if pending is None:
        raise ValueError("no JSON text to print")
    out.write(pending[:-1] + "".join(f", {json.dumps(key)}: {json.dumps(value)}" for key, value in more.items()))
    out.write("}\n")
    out.flush()


def info(quiet: bool, message: str) -> None:
    """An informational line on stderr, unless ``quiet``."""
    if not quiet:
        typer.echo(message, err=True)
