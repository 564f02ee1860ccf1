"""The frontier count in plain Python: the clear version of :func:`knight.engine.frontier.frontier_count`'s sweep
that the compiled kernels (:mod:`knight.engine.frontier_kernel`, :mod:`knight.engine.frontier_wide_kernel`) are
checked against, square for square (fine to about 30 squares); the module docstring of
:mod:`knight.engine.frontier` says what a state is."""

from __future__ import annotations

from collections.abc import Iterable

from knight.engine.board import Board, Square
from knight.engine.frontier import (
    DEFAULT_MAX_STATES,
    DONE,
    EMPTY,
    END_OF_COLOUR,
    FIRST_PATH,
    NOT_AN_END,
    TAIL,
    FrontierCount,
    check_frontier_board,
    colour_bound,
    finish_count,
    sweep_layout,
    too_many_states,
)

__all__ = ["frontier_count_reference"]


def frontier_count_reference(
    board: Board, *, closed: bool = False, removed: Iterable[Square] = (), max_states: int = DEFAULT_MAX_STATES
) -> FrontierCount:
    """Count ``board``'s tours by the frontier sweep, in plain Python: the clear version the compiled kernel
    is checked against (fine to about 30 squares).

    >>> frontier_count_reference(Board(5, 5)).tours, frontier_count_reference(Board(3, 4), closed=True).tours
    (1728, 0)
    """
    check_frontier_board(board, max_states)
    removed = tuple((int(row), int(col)) for row, col in removed)
    layout = sweep_layout(board, removed)
    real = [i for i in range(layout.squares) if not layout.absent[i]]
    if len(real) <= 1:  # no move to decide: a lone square is one open tour, an empty board none
        return finish_count(board, closed, int(len(real) == 1 and not closed), removed, 1, 1)
    if colour_bound(board, closed, removed):
        return finish_count(board, closed, 0, removed, 0, 0)
    last, window, finished, rules = real[-1], layout.window, layout.finished(), layout.end_rules()
    # Before the board: squares that are not there; last, the colour of the first end gone (none yet).
    states: dict[tuple[int, ...], int] = {(DONE,) * window + (0,): 1}
    ways = peak = total = 0
    mirrored = layout.mirrored()
    for square in range(layout.squares):
        moves = layout.back_moves(square)
        spare = layout.spare(square)
        rules_here = layout.rules_at(square, rules)
        mirror = layout.mirrors_at(square)
        after: dict[tuple[int, ...], int] = {}
        for state, count in states.items():
            for chosen in _subsets(state, moves, window):
                codes, ended = _place(state, chosen, window, closed, square == last)
                if codes is None:
                    ways += count * ended
                    continue
                if layout.absent[square]:
                    codes[window] = DONE
                for back in finished[square]:
                    codes, ended = _leave(codes, window - back, closed, square == last, rules[square - back])
                    if codes is None:
                        ways += count * ended
                        break
                if codes is not None and _viable(codes, spare, rules_here, closed):
                    key = _canonical(codes[1:])  # the oldest square's moves are all decided: it is DONE
                    if mirror and key[0] == DONE:
                        key = min(key, _mirror_image(key, mirrored, layout.width), key=_as_number)
                    after[key] = after.get(key, 0) + count
        states = after
        peak, total = max(peak, len(states)), total + len(states)
        if len(states) > max_states:
            raise too_many_states(board, max_states)
    return finish_count(board, closed, ways, removed, peak, total)


def _subsets(state: tuple[int, ...], moves: list[int], window: int) -> Iterable[tuple[int, ...]]:
    """The sets of moves back (as indices into the extended frontier) the new square may take: at most two,
    each to a square still short of degree 2."""
    open_ends = [window - back for back in moves if state[window - back] != DONE]
    yield ()
    for i, a in enumerate(open_ends):
        yield (a,)
        for b in open_ends[i + 1 :]:
            yield (a, b)


def _place(
    state: tuple[int, ...], chosen: tuple[int, ...], window: int, closed: bool, at_end: bool
) -> tuple[list[int] | None, bool]:
    """The frontier after the new square (index ``window``) takes the moves to ``chosen``: (codes, False), or
    (None, True) when the moves complete the tour, or (None, False) when they cannot be part of a tour."""
    codes = [*state[:window], EMPTY, state[window]]  # the new square, then the first end's colour
    fresh = max(FIRST_PATH, max(codes[: window + 1]) + 1)
    for other in chosen:
        a, b = window, other
        ca, cb = codes[a], codes[b]
        if ca >= FIRST_PATH and ca == cb:  # the two ends of one path: a cycle
            codes[a] = codes[b] = DONE
            return None, closed and at_end and all(code == DONE for code in codes[:-1])
        ends = []
        for square, code in ((a, ca), (b, cb)):
            if code == EMPTY:
                ends.append(square)
            elif code == TAIL:
                ends.append(-1)
                codes[square] = DONE
            else:
                ends.append(next(i for i, c in enumerate(codes) if c == code and i != square))
                codes[square] = DONE
        if ends[0] == -1 and ends[1] == -1:  # two tails joined: the whole open path
            return None, at_end and all(code == DONE for code in codes[:-1])
        if -1 in ends:
            codes[ends[0] if ends[1] == -1 else ends[1]] = TAIL
        else:
            codes[ends[0]] = codes[ends[1]] = fresh
            fresh += 1
    return codes, False


def _leave(codes: list[int], at: int, closed: bool, at_end: bool, rule: int) -> tuple[list[int] | None, bool]:
    """The square ``at`` leaves the frontier (its moves are all decided): (the codes, False) with it DONE; or
    (None, True) when it completes the open tour; or (None, False) when it cannot be part of a tour.
    ``codes[-1]`` is the first end's colour plus one (0 before); ``rule`` the square's end rule."""
    code = codes[at]
    if code == DONE:
        return codes, False
    if code == EMPTY or closed or rule == NOT_AN_END:  # a square never reached, or a tour's end where none may be
        return None, False
    if rule >= END_OF_COLOUR:  # one end of each colour
        if codes[-1] == rule - END_OF_COLOUR + 1:
            return None, False
        codes[-1] = rule - END_OF_COLOUR + 1
    codes[at] = DONE
    if code == TAIL:  # the path's second end leaves: the tour must be complete
        return None, at_end and all(c == DONE for c in codes[:-1])
    codes = [TAIL if c == code else c for c in codes[:-1]] + codes[-1:]
    return (codes, False) if codes[:-1].count(TAIL) <= 2 else (None, False)


def _viable(codes: list[int], spare: list[int], rules: list[int], closed: bool) -> bool:
    """Whether a tour can still follow: every frontier square can still get the moves it needs (2 less its
    degree; one fewer for an end of an open tour, of which there are two, the ends gone counted by the
    tails, each of the colour its ``rules`` entry allows)."""
    forced = 0
    for i in range(1, len(spare)):
        code = codes[i]
        if code == DONE:
            continue
        forced += code == TAIL
        short = (2 if code == EMPTY else 1) - spare[i]
        if short <= 0:
            continue
        if closed or short >= 2 or rules[i] == NOT_AN_END or codes[-1] == rules[i] - END_OF_COLOUR + 1:
            return False
        forced += 1
    return forced <= 2


def _canonical(codes: list[int]) -> tuple[int, ...]:
    """``codes`` with the paths numbered from :data:`FIRST_PATH` in order of first appearance (the last entry,
    the first end's colour, as it is)."""
    names: dict[int, int] = {}
    out = []
    for code in codes[:-1]:
        if code >= FIRST_PATH:
            code = names.setdefault(code, FIRST_PATH + len(names))
        out.append(code)
    return (*out, codes[-1])


def _as_number(key: tuple[int, ...]) -> tuple[int, ...]:
    """``key`` ordered as the compiled kernel's 64-bit states are: the first end's colour in the top bits, then
    the newest square's code, down to the oldest's in the lowest (so that both keep the same one of two images)."""
    return (key[-1], *key[-2::-1])


def _mirror_image(key: tuple[int, ...], mirrored: list[int], width: int) -> tuple[int, ...]:
    """The state ``key`` (after a row's last square) of the board's mirror image, canonical: the positions of
    ``mirrored``; the first end's colour swapped when the row's length is even (its two ends differ in colour)."""
    colour = key[-1]
    if colour and width % 2 == 0:
        colour = 3 - colour
    return _canonical([key[q] for q in mirrored] + [colour])
