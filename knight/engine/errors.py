"""The engine's one error type."""


class InvalidInput(ValueError):
    """A request the engine cannot carry out: a bad board, square, method or parameter.

    The message is one line that says what was wrong and what would be valid.
    """
