"""The `knight` command line: a thin layer over the engine, the runner, the store and the report.

Exit statuses, for every command:

* 0 — done (for `knight tour`: a full tour was found);
* 1 — an answer that is not a success (for `knight tour`: no full tour was found, the
  partial tour is printed);
* 2 — bad input, or a store or report that cannot be used: one line on stderr says what was
  wrong and what to do (every :class:`~knight.errors.KnightError` is caught here, in :func:`main`, and
  so is an error of the disk, full, read-only or forbidden, that no command caught where it knew more);
* 130 — interrupted (Ctrl-C); whatever was already stored is kept.
"""

from __future__ import annotations

import signal
from typing import Any, NoReturn

import typer

from knight.cli.options import PlainGroup
from knight.errors import KnightError
from knight.store.location import STORE_PLACES

__all__ = ["EXIT_BAD_INPUT", "EXIT_INTERRUPTED", "fail", "main"]

#: What every usage error (an unknown option, a missing argument, a bad value) is. Typer vendors click since
#: 0.26, privately, and makes public only ``typer.BadParameter``: its base class named here, through click's
#: public hierarchy (BadParameter < UsageError < ClickException), on any typer.
ClickException: type[Any] = next(kind for kind in typer.BadParameter.__mro__ if kind.__name__ == "ClickException")

EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130

#: What `knight --help` says first: what knight is, and where its results go (knight/store/location.py).
HELP = (
    "A knight's-tour workbench: find tours, sweep them, count them, and write the report.\n\n"
    f"Results are kept in one store: {STORE_PLACES}."
)

app = typer.Typer(
    name="knight",
    cls=PlainGroup,
    help=HELP,
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},  # -h as well, in every command (contexts inherit it)
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",  # paragraphs of the docstrings joined; each example its own paragraph
)


def _print_version(value: bool) -> None:
    if value:
        from knight import __version__

        typer.echo(f"knight {__version__}")
        raise typer.Exit()


@app.callback()
def _knight(
    version: bool = typer.Option(
        False, "--version", help="Print the version and exit.", is_eager=True, callback=_print_version
    ),
) -> None:
    """A knight's-tour workbench (the help is :data:`HELP`)."""


def fail(message: str, status: int = EXIT_BAD_INPUT) -> NoReturn:
    """Stop with one line on stderr and ``status`` (by default the bad-input one)."""
    typer.echo("knight: error: " + message.replace("\r", "\\r").replace("\n", "\\n"), err=True)  # one line
    raise SystemExit(status)


def main(argv: list[str] | None = None) -> None:
    """Console entry point: run a command; turn every input error into one line and exit status 2,
    and Ctrl-C or SIGTERM at any stage into one line and exit status 130."""
    previous = signal.getsignal(signal.SIGTERM)
    if previous == signal.SIG_DFL:  # called in-process, not through knight.__main__, which handles it already
        signal.signal(signal.SIGTERM, _interrupt)
    try:
        status = app(args=argv, prog_name="knight", standalone_mode=False)
    except KnightError as error:  # every error knight raises on purpose: one line, its exit status
        fail(str(error), error.exit_status)
    except ClickException as error:  # usage errors: unknown option, not an integer, missing argument
        message = error.format_message().strip()
        if not message:  # `knight` alone: the help is already printed
            raise SystemExit(EXIT_BAD_INPUT) from None
        fail(message.splitlines()[0] + " (see --help)")
    except OSError as error:  # a full, read-only or forbidden disk met anywhere: one line naming the file
        _disk_failure(error)
    except (typer.Abort, KeyboardInterrupt):
        status = EXIT_INTERRUPTED
    finally:
        signal.signal(signal.SIGTERM, previous)
    if status == EXIT_INTERRUPTED:  # typer turns Ctrl-C inside a command into this status, silently
        typer.echo("knight: interrupted", err=True)
    raise SystemExit(status if isinstance(status, int) else 0)


def _disk_failure(error: OSError) -> NoReturn:
    """Stop with one line (exit 2) for an error of the disk that no command handled where it knew more; any
    other OSError is a bug, and keeps its traceback."""
    import errno

    from knight.store.disk import DISK_ERRNOS, cannot_write

    if error.errno not in DISK_ERRNOS:
        raise error
    writing = error.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS)
    fail(cannot_write(error.filename or "a file", error, doing="write" if writing else "use"))


def _interrupt(signum: int, frame: object) -> None:
    """SIGTERM stops a command as Ctrl-C does (runs store what finished and say so)."""
    raise KeyboardInterrupt


# Each command lives in its own module and registers itself on `app`.
from knight.cli import census as _census  # noqa: E402,F401
from knight.cli import check as _check  # noqa: E402,F401
from knight.cli import grade as _grade  # noqa: E402,F401
from knight.cli import report as _report  # noqa: E402,F401
from knight.cli import results as _results  # noqa: E402,F401
from knight.cli import run as _run  # noqa: E402,F401
from knight.cli import site as _site  # noqa: E402,F401
from knight.cli import starts as _starts  # noqa: E402,F401
from knight.cli import tour as _tour  # noqa: E402,F401
from knight.cli import verify as _verify  # noqa: E402,F401
