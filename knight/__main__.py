"""The `knight` command's entry point (`python -m knight` and the installed script).

Ctrl-C and SIGTERM are caught from the first moment, before the command line's modules are
imported, so that an interruption at any stage ends with one line and exit status 130 (also
when a library swallows the KeyboardInterrupt, as a callback inside numba's compiler can).
"""

import signal
import sys

_interrupted = False
_INTERRUPTED = 130


def _interrupt(signum: int, frame: object) -> None:
    global _interrupted
    _interrupted = True
    raise KeyboardInterrupt


def _quiet_about_interruptions(unraisable: "sys.UnraisableHookArgs") -> None:
    """An interruption raised where it cannot propagate (a callback from C) is not printed as a
    traceback: :func:`main` reports it in one line."""
    if unraisable.exc_type is not None and issubclass(unraisable.exc_type, KeyboardInterrupt):
        return
    sys.__unraisablehook__(unraisable)


def main() -> None:
    """Run the `knight` command (see :mod:`knight.cli`)."""
    signal.signal(signal.SIGTERM, _interrupt)
    signal.signal(signal.SIGINT, _interrupt)
    sys.unraisablehook = _quiet_about_interruptions
    try:
        from knight.cli import main as run_command

        run_command()
    except KeyboardInterrupt:
        print("knight: interrupted", file=sys.stderr)
        _exit_interrupted()
    except SystemExit as stop:
        if _interrupted and stop.code in (0, None):  # the interruption was swallowed on its way up
            print("knight: interrupted", file=sys.stderr)
            _exit_interrupted()
        if stop.code == _INTERRUPTED:
            _exit_interrupted()
        _skip_the_final_collection()
        raise


def _skip_the_final_collection() -> None:
    """Leave the objects alive now out of the collection Python makes as it exits. With numba loaded
    there are hundreds of thousands (its types and templates), and walking them took 0.1-0.2 s of every
    command's end; the system takes the memory back all the same. Files, the store and the pool are
    closed by then, each by its own ``with``, and atexit's functions (logging's flush) still run."""
    import gc

    gc.freeze()


def _exit_interrupted() -> None:
    """Exit with status 130 at once. Not through SystemExit: when the interruption landed inside code
    run by exec() (dataclasses, namedtuples while modules load), CPython remembers it and, at the end
    of a normal exit, kills itself with SIGINT instead of returning the status."""
    import contextlib
    import logging
    import os

    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe: nothing more can be said
            stream.flush()
    os._exit(_INTERRUPTED)


if __name__ == "__main__":
    main()
