"""How the report writes things for people: boards, powers of ten."""

from __future__ import annotations

import math

from knight.engine.board import size_text

__all__ = ["board_text", "duration", "power_of_ten", "scientific", "superscript"]


def board_text(n: int, m: int | None = None) -> str:
    """A board as people read it, with no-break spaces so that it never breaks across lines.

    >>> board_text(6), board_text(5, 8)
    ('6\xa0×\xa06', '5\xa0×\xa08')
    """
    return size_text(n, n if m is None else m, ascii=False)


def superscript(number: float) -> str:
    """``number``, rounded, in superscript digits (an exponent).

    >>> superscript(63), superscript(-3.2)
    ('⁶³', '⁻³')
    """
    return f"{number:.0f}".translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))


def power_of_ten(exponent: float) -> str:
    """``10`` with the exponent, rounded, as superscript digits.

    >>> power_of_ten(25), power_of_ten(-3.2)
    ('10²⁵', '10⁻³')
    """
    return "10" + superscript(exponent)


def scientific(value: float, digits: int = 2) -> str:
    """A large or small number as people write it: ``1.8 × 10⁷``; plain below ten thousand.

    >>> scientific(18_345_000), scientific(2563.1), scientific(3.2e-5), scientific(0.25)
    ('1.8 × 10⁷', '2,600', '3.2 × 10⁻⁵', '0.25')
    """
    if 1e-3 <= abs(value) < 1e4:
        rounded = float(f"{value:.{digits}g}")
        return f"{int(rounded):,}" if rounded == int(rounded) else f"{rounded:g}"
    exponent = math.floor(math.log10(abs(value)))
    mantissa = value / 10**exponent
    return f"{mantissa:.{digits}g} × {power_of_ten(exponent)}"


def duration(seconds: float) -> str:
    """A time as people say it, to two figures: seconds, then minutes, then hours and minutes.

    >>> duration(0.0042), duration(0.26), duration(17.8), duration(2460), duration(3725)
    ('0.0042 s', '0.26 s', '18 s', '41 min', '1 h 2 min')

    Rounded first, then said: 59.7 s is ``1 min`` (not ``60 s``), 3,599 s ``1 h 0 min`` (not ``60 min``).
    """
    if seconds < 0.001:
        return "under 0.001 s"
    if seconds < 59.5:  # 59.5 s and more round to 60 s: a minute
        return f"{float(f'{seconds:.2g}'):g} s"
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min"
