"""How the report writes things for people: boards, powers of ten."""

from __future__ import annotations

import math

__all__ = ["board_text", "power_of_ten", "scientific"]


def board_text(n: int, m: int | None = None) -> str:
    """A board as people read it.

    >>> board_text(6), board_text(5, 8)
    ('6 × 6', '5 × 8')
    """
    return f"{n} × {n if m is None else m}"


def power_of_ten(exponent: float) -> str:
    """``10`` with the exponent, rounded, as superscript digits.

    >>> power_of_ten(25), power_of_ten(-3.2)
    ('10²⁵', '10⁻³')
    """
    return "10" + f"{exponent:.0f}".translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))


def scientific(value: float, digits: int = 2) -> str:
    """A large or small number as people write it: ``1.8 × 10⁷``; plain below ten thousand.

    >>> scientific(18_345_000), scientific(2500), scientific(3.2e-5)
    ('1.8 × 10⁷', '2,500', '3.2 × 10⁻⁵')
    """
    if 1e-3 <= abs(value) < 1e4:
        return f"{value:,.{digits}g}" if value != int(value) else f"{int(value):,}"
    exponent = math.floor(math.log10(abs(value)))
    mantissa = value / 10 ** exponent
    return f"{mantissa:.{digits}g} × {power_of_ten(exponent)}"
