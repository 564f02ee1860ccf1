"""How the report writes things for people: boards, powers of ten."""

from __future__ import annotations

__all__ = ["board_text", "power_of_ten"]


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
