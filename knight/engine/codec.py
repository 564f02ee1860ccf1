"""A compact, lossless form of a knight's path: its start square, then its moves, one byte each.

A path of ``L`` squares becomes ``4 + (L - 1)`` bytes: the start square ``row * m + col`` as a
little-endian uint32, then the number (0–7, Deitel's, see :mod:`knight.engine.board`) of each
move. That is a quarter of the path as int32 squares. Both directions are vectorised numpy.

Decoding yields a knight's path by construction (every step is one of the eight moves, and every
square is checked to lie on the board); whether it repeats a square is for :class:`~knight.engine.Tour`
to check, as for any path.

>>> blob = encode_path([0, 10, 4], m=8)   # (0, 0) -> (1, 2) -> (0, 4) on an 8-wide board
>>> blob.hex(), decode_path(blob, n=8, m=8).tolist()
('000000000700', [0, 10, 4])
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from knight.engine.board import HORIZONTAL, VERTICAL, size_text
from knight.errors import InvalidInput

__all__ = ["HEADER_BYTES", "encoded_size", "encode_path", "decode_path"]

#: Bytes before the moves: the start square as a little-endian uint32.
HEADER_BYTES = 4

_DR = np.array(VERTICAL, dtype=np.int32)
_DC = np.array(HORIZONTAL, dtype=np.int32)
# Move number of a step (dr, dc) with dr and dc first clipped to -3..3, looked up at (dr + 3) * 7 + (dc + 3);
# -1 for a step that is not a knight move (a clipped step never is).
_MOVE_OF = np.full(49, -1, dtype=np.int8)
_MOVE_OF[(_DR + 3) * 7 + (_DC + 3)] = np.arange(8)


def encoded_size(length: int) -> int:
    """The size in bytes of the encoding of a path of ``length`` squares."""
    return HEADER_BYTES + max(length - 1, 0)


def encode_path(path: Sequence[int] | np.ndarray, m: int) -> bytes:
    """Encode the squares ``path`` (``row * m + col``, in order) of a board ``m`` columns wide.

    Raises :class:`InvalidInput` for an empty path, a negative square, or a step that is not a
    knight move. (Squares past the board's last row cannot be seen without ``n``: the caller's
    :class:`~knight.engine.Tour` has checked them.)
    """
    squares = np.asarray(path).reshape(-1)
    if squares.size == 0:
        raise InvalidInput("cannot encode an empty path: a tour visits at least its start square")
    if squares.dtype != np.int32:  # a Tour's path is int32 already: no copy then
        wide = squares.astype(np.int64)
        if wide.max() > np.iinfo(np.int32).max:
            raise InvalidInput(f"cannot encode square {int(wide.max())}: more than a board holds")
        squares = wide.astype(np.int32)
    if squares.min() < 0:
        raise InvalidInput(f"cannot encode square {int(squares.min())}")
    rows, cols = np.divmod(squares, np.int32(m))
    dr, dc = rows[1:] - rows[:-1], cols[1:] - cols[:-1]
    for step in (dr, dc):  # clipped to -3..3 (in place: np.clip is slower on short arrays)
        np.minimum(step, 3, out=step)
        np.maximum(step, -3, out=step)
    dr *= 7
    dr += dc
    dr += 24
    moves = _MOVE_OF.take(dr)
    if moves.size and moves.min() < 0:
        i = int(np.argmax(moves < 0))
        raise InvalidInput(
            f"cannot encode step {i + 1}, from square {int(squares[i])} to {int(squares[i + 1])}: not a knight move"
        )
    return int(squares[0]).to_bytes(HEADER_BYTES, "little") + moves.tobytes()


def decode_path(blob: bytes, n: int, m: int) -> np.ndarray:
    """The squares (int32 ``row * m + col``) of a path encoded by :func:`encode_path` on an ``n`` × ``m`` board.

    Raises :class:`InvalidInput` for a blob too short, a move number over 7, or a square off the board.
    """
    if len(blob) < HEADER_BYTES:
        raise InvalidInput(f"an encoded path has at least {HEADER_BYTES} bytes, got {len(blob)}")
    start = int.from_bytes(blob[:HEADER_BYTES], "little")
    if start >= n * m:
        raise InvalidInput(f"start square {start} is off the {size_text(n, m)} board")
    moves = np.frombuffer(blob, dtype=np.uint8, offset=HEADER_BYTES)
    if moves.size and moves.max() > 7:
        raise InvalidInput(f"move number {int(moves.max())} in an encoded path; moves are numbered 0 to 7")
    rows = np.empty(moves.size + 1, dtype=np.int32)
    cols = np.empty(moves.size + 1, dtype=np.int32)
    rows[0], cols[0] = divmod(start, m)
    _DR.take(moves, out=rows[1:])
    _DC.take(moves, out=cols[1:])
    np.cumsum(rows, dtype=np.int32, out=rows)
    np.cumsum(cols, dtype=np.int32, out=cols)
    if rows.min() < 0 or rows.max() >= n or cols.min() < 0 or cols.max() >= m:
        i = int(np.argmax((rows < 0) | (rows >= n) | (cols < 0) | (cols >= m)))
        raise InvalidInput(f"move {i} of an encoded path leaves the {size_text(n, m)} board")
    rows *= np.int32(m)
    rows += cols
    return rows
