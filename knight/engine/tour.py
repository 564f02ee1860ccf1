"""The tour value: a knight's path on a board, what made it, and how to tell tours apart."""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any, TypedDict

import numpy as np

from knight.engine.board import Board, Square, is_knight_move
from knight.engine.parameters import ParamValue
from knight.errors import InvalidTour

__all__ = ["Tour", "TourJson", "symmetric_key"]


class _Head(TypedDict):
    """What a tour's JSON holds before its squares: the board ``[n, m]`` and the start ``[row, col]``."""

    board: list[int]
    start: list[int]


class _Work(TypedDict):
    unit: str
    count: int


class _Keys(TypedDict):
    directed: str
    undirected: str
    symmetric: str


class _Tail(TypedDict):
    """What a tour's JSON holds after its squares."""

    length: int
    full: bool
    closed: bool
    success: bool
    method: str
    params: dict[str, ParamValue]
    work: _Work
    budget_exhausted: bool
    removed: list[list[int]]
    keys: _Keys


class TourJson(_Head, _Tail):
    """:meth:`Tour.to_dict`: a tour as JSON (``knight tour --json``), squares as ``[row, col]``."""

    squares: list[list[int]]


@dataclass(frozen=True, eq=False)
class Tour:
    """An immutable knight's path, full or partial, validated on construction.

    ``path`` holds the squares in the order visited, as plain ints ``row * m + col``
    (a read-only int32 array, so that a 2000 × 2000 tour stays small); ``squares``
    gives them as ``(row, col)``. ``work`` counts what the method did: moves made
    (``work_unit == "steps"``) or search nodes (``"nodes"``). ``removed`` are squares taken
    off the board (the Eiffel text's mutilated board): the path never visits one, and a
    full tour covers every other square.

    >>> tour = Tour.from_squares(Board(3, 4), [(0, 0), (2, 1), (0, 2)], method="hand")
    >>> tour.full, tour.length, tour.squares[-1]
    (False, 3, (0, 2))
    """

    board: Board
    path: np.ndarray
    method: str
    params: Mapping[str, Any] = field(default_factory=dict)
    work: int = 0
    work_unit: str = "steps"
    budget_exhausted: bool = False
    removed: tuple[Square, ...] = ()

    def __post_init__(self) -> None:
        path = np.array(self.path, dtype=np.int32, copy=True).reshape(-1)
        path.flags.writeable = False
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))
        removed = tuple(sorted({(int(row), int(col)) for row, col in self.removed}))
        for square in removed:
            self.board.index(square)  # raises when off the board
        object.__setattr__(self, "removed", removed)
        _validate(self.board, path, removed)

    @classmethod
    def from_squares(cls, board: Board, squares: Sequence[Square], **fields: Any) -> Tour:
        """Build a tour from ``(row, col)`` squares; raises :class:`InvalidTour` if they are not a knight's path."""
        for square in squares:
            if not board.contains(square):
                raise InvalidTour(f"square {tuple(square)} is off the {board} board")
        path = [row * board.m + col for row, col in squares]
        return cls(board=board, path=np.array(path, dtype=np.int64), **fields)

    # --- what the tour is -------------------------------------------------------------------

    @property
    def length(self) -> int:
        """The number of squares visited."""
        return int(self.path.size)

    @property
    def start(self) -> Square:
        return self.board.coords(self.path[0])

    @property
    def end(self) -> Square:
        return self.board.coords(self.path[-1])

    @property
    def squares(self) -> list[Square]:
        """The squares in the order visited, as ``(row, col)``."""
        rows, cols = np.divmod(self.path.astype(np.int64), self.board.m)
        return list(zip(rows.tolist(), cols.tolist()))

    def __iter__(self) -> Iterator[Square]:
        return iter(self.squares)

    @property
    def full(self) -> bool:
        """True when every square of the board (less the removed ones) is visited."""
        return self.length == self.board.size - len(self.removed)

    @property
    def closed(self) -> bool:
        """True for a full tour whose last square is a knight move from its first (a re-entrant tour)."""
        if not self.full or self.length < 3:
            return False
        return is_knight_move(self.start, self.end)

    @property
    def success(self) -> bool:
        """True for a full tour that is also closed when the method was asked for a closed one."""
        return self.full and (self.closed or not self.params.get("closed", False))

    def array(self) -> np.ndarray:
        """The homework array: n × m, the k-th square visited holds k (from 1), unvisited squares 0."""
        numbers = np.zeros(self.board.size, dtype=np.int64)
        numbers[self.path] = np.arange(1, self.length + 1)
        return numbers.reshape(self.board.n, self.board.m)

    # --- how it shows itself ---------------------------------------------------------------

    def __repr__(self) -> str:
        kind = ("closed" if self.closed else "open") if self.full else "partial"
        return (
            f"<Tour {self.method} on {self.board} from {self.start}: {kind}, "
            f"{self.length} of {self.board.size - len(self.removed)} squares>"
        )

    def _repr_svg_(self) -> str | None:
        """The tour drawn on its board, for Jupyter; None (the text form) on boards too big to draw."""
        from knight.engine.diagrams import DRAWN_UP_TO, sized, tour_svg

        return sized(tour_svg(self)) if max(self.board.n, self.board.m) <= DRAWN_UP_TO else None

    # --- telling tours apart ----------------------------------------------------------------

    @cached_property
    def key_directed(self) -> str:
        """Equal for two tours exactly when they visit the same squares in the same order."""
        return _digest(self.board, self.path)

    @cached_property
    def key_undirected(self) -> str:
        """Equal for two tours that are the same path, walked either way."""
        return _digest(self.board, min(_sequence_bytes(self.path), _sequence_bytes(self.path[::-1])))

    @cached_property
    def key_symmetric(self) -> str:
        """Equal for two tours that are the same path up to reversal and the board's symmetries
        (8 on a square board, 4 on a rectangle)."""
        return symmetric_key(self.board, self.path)

    @cached_property
    def key_cycle(self) -> str | None:
        """For a closed tour, equal for two tours that are the same cycle, whatever their start and
        direction (so a closed tour census counts cycles); None for a tour that is not closed."""
        if not self.closed:
            return None
        at = int(np.argmin(self.path))  # every cycle is read from its least square, both ways round
        forward = np.concatenate([self.path[at:], self.path[:at]])
        backward = np.concatenate([forward[:1], forward[:0:-1]])
        return _digest(self.board, min(_sequence_bytes(forward), _sequence_bytes(backward)))

    # --- plain data -------------------------------------------------------------------------

    def to_dict(self) -> TourJson:
        """The tour as JSON-ready data (squares as ``[row, col]``); :meth:`json_chunks` writes the same
        document as text without a Python object per square."""
        return {**self._head(), "squares": [list(square) for square in self.squares], **self._tail()}

    def json_chunks(self, squares_per_chunk: int = 1 << 16) -> Iterator[str]:
        """:meth:`to_dict` as JSON text (what ``json.dumps`` gives), in pieces of at most
        ``squares_per_chunk`` squares each: a 2000 × 2000 tour is written straight from its path array,
        a few MB at a time, never as four million Python lists."""
        if squares_per_chunk < 1:
            raise ValueError(f"squares_per_chunk must be at least 1, got {squares_per_chunk}")
        yield json.dumps(self._head())[:-1] + ', "squares": ['
        for begin in range(0, self.length, squares_per_chunk):
            chunk = self.path[begin : begin + squares_per_chunk]
            rows, cols = np.divmod(chunk.astype(np.int64), self.board.m)
            last = begin + squares_per_chunk >= self.length
            yield _json_pairs(rows, cols, last=last)
        yield "], " + json.dumps(self._tail())[1:]

    def _head(self) -> _Head:
        return {"board": [self.board.n, self.board.m], "start": list(self.start)}

    def _tail(self) -> _Tail:
        return {
            "length": self.length,
            "full": self.full,
            "closed": self.closed,
            "success": self.success,
            "method": self.method,
            "params": dict(self.params),
            "work": {"unit": self.work_unit, "count": self.work},
            "budget_exhausted": self.budget_exhausted,
            "removed": [list(square) for square in self.removed],
            "keys": {
                "directed": self.key_directed,
                "undirected": self.key_undirected,
                "symmetric": self.key_symmetric,
            },
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Tour:
        """Rebuild (and re-validate) a tour from :meth:`to_dict` data."""
        board = Board(*data["board"])
        return cls.from_squares(
            board,
            [tuple(square) for square in data["squares"]],
            method=data["method"],
            params=data.get("params", {}),
            work=data.get("work", {}).get("count", 0),
            work_unit=data.get("work", {}).get("unit", "steps"),
            budget_exhausted=data.get("budget_exhausted", False),
            removed=tuple(tuple(square) for square in data.get("removed", ())),
        )


def symmetric_key(board: Board, path: np.ndarray) -> str:
    """:attr:`Tour.key_symmetric` of any path of plain-int squares on ``board``, a tour or not (a
    hand-in may repeat squares): equal for two paths that are the same up to reversal and the
    board's symmetries (8 on a square board, 4 on a rectangle).

    The key is the digest of the least of the path's 16 (or 8) images, both ways round, as
    sequences. They are compared a few thousand squares at a time, and almost always differ in
    the first: a 1000 × 1000 tour needs a few MB beyond itself, not its images whole.
    """
    path = np.asarray(path)
    if path.size <= _COMPARED:  # every image whole: each made once, read both ways round
        images = board.symmetric_images(path)
        return _digest(board, min(_sequence_bytes(piece) for image in images for piece in (image, image[::-1])))
    tied: list[int] = []  # the images still least: the path's, then its reversal's
    for begin in range(0, path.size, _COMPARED):
        pieces = [_sequence_bytes(piece) for piece in _images_between(board, path, begin, begin + _COMPARED)]
        tied = tied or list(range(len(pieces)))
        least = min(pieces[i] for i in tied)
        tied = [i for i in tied if pieces[i] == least]
        if len(tied) == 1:
            break
    digest = hashlib.blake2b(f"{board}:".encode(), digest_size=16)
    for begin in range(0, path.size, _CHUNK):
        whole = _images_between(board, path, begin, begin + _CHUNK, only=tied[0])
        digest.update(_sequence_bytes(whole[0]))
    return digest.hexdigest()


def _images_between(board: Board, path: np.ndarray, begin: int, end: int, only: int | None = None) -> list[np.ndarray]:
    """Squares ``begin`` to ``end`` of every image of ``path`` under the board's symmetries, then of every
    image of its reversal; or of image ``only`` alone."""
    end = min(end, path.size)
    forward, backward = path[begin:end], path[path.size - end : path.size - begin][::-1]
    if only is None:
        return [*board.symmetric_images(forward), *board.symmetric_images(backward)]
    images = len(board.symmetries())
    part = forward if only < images else backward
    return [next(itertools.islice(board.symmetric_images(part), only % images, None))]


def _digest(board: Board, sequence: np.ndarray | bytes) -> str:
    data = sequence if isinstance(sequence, bytes) else _sequence_bytes(sequence)
    header = f"{board}:".encode()
    return hashlib.blake2b(header + data, digest_size=16).hexdigest()


def _sequence_bytes(path: np.ndarray) -> bytes:
    # Big-endian so that comparing the bytes compares the sequences square by square.
    return np.asarray(path, dtype=">u4").tobytes()


def _validate(board: Board, path: np.ndarray, removed: tuple[Square, ...] = ()) -> None:
    if path.size == 0:
        raise InvalidTour("a tour visits at least its start square")
    if path.min() < 0 or path.max() >= board.size:
        bad = int(path[(path < 0) | (path >= board.size)][0])
        raise InvalidTour(f"square number {bad} is off the {board} board")
    seen = np.zeros(board.size, dtype=np.bool_)
    seen[path] = True
    if np.count_nonzero(seen) != path.size:
        raise InvalidTour(f"square {board.coords(_first_repeat(path))} is visited twice")
    for square in removed:
        if seen[board.index(square)]:
            raise InvalidTour(f"square {square} is removed from the board but visited")
    # In int32 chunks, so that checking a 2000 × 2000 tour needs a few MB beyond the tour itself.
    for begin in range(0, path.size, _CHUNK):
        chunk = path[begin : begin + _CHUNK + 1]
        rows, cols = np.divmod(chunk, np.int32(board.m))
        not_knight = np.abs(np.diff(rows) * np.diff(cols)) != 2
        if not_knight.any():
            i = begin + int(np.argmax(not_knight))
            raise InvalidTour(
                f"step {i + 1} from {board.coords(path[i])} to {board.coords(path[i + 1])} is not a knight move"
            )


_CHUNK = 1 << 18
#: Squares of each image compared at a time by symmetric_key (images nearly always differ in the first few).
_COMPARED = 1 << 12


def _json_pairs(rows: np.ndarray, cols: np.ndarray, *, last: bool) -> str:
    """``[r, c], [r, c], ...`` for the given rows and columns, as ``json.dumps`` spaces them (a separator
    after the last pair too, unless ``last``). Each pair is laid out in fixed-width byte cells, the unused
    cells marked 0 and squeezed out at the end: no Python object per number."""
    width = len(str(int(max(rows.max(), cols.max()))))
    # '[' row ', ' col '], '
    cells = np.zeros((rows.size, 2 * width + 6), dtype=np.uint8)
    cells[:, 0] = ord("[")
    _digits(cells[:, 1 : 1 + width], rows)
    cells[:, 1 + width : 3 + width] = np.frombuffer(b", ", dtype=np.uint8)
    _digits(cells[:, 3 + width : 3 + 2 * width], cols)
    cells[:, 3 + 2 * width :] = np.frombuffer(b"], ", dtype=np.uint8)
    flat = cells.reshape(-1)
    text = str(flat[flat != 0].tobytes().decode("ascii"))
    return text[:-2] if last else text


def _digits(cells: np.ndarray, values: np.ndarray) -> None:
    """Write ``values`` (non-negative) right-aligned into ``cells`` (one row a value) as ASCII digits;
    leading places stay 0 (no digit)."""
    width = cells.shape[1]
    rest = values.copy()
    for place in range(width - 1, -1, -1):
        digits = (rest % 10).astype(np.uint8) + ord("0")
        if place != width - 1:  # a leading zero is no digit; the units place always is one
            digits[values < 10 ** (width - 1 - place)] = 0
        cells[:, place] = digits
        rest //= 10


def _first_repeat(path: np.ndarray) -> int:
    seen: set[int] = set()
    for square in path.tolist():
        if square in seen:
            return int(square)
        seen.add(square)
    raise AssertionError("no repeated square")
