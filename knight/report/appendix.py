"""The answer key's appendix: the methods as registered, the move tables, the glossary and the sources."""

from __future__ import annotations

from dataclasses import dataclass

from knight.engine import HORIZONTAL, METHODS, VERTICAL
from knight.engine.backtrack import ORDERINGS

__all__ = ["GLOSSARY", "SOURCES", "Appendix", "MethodEntry", "appendix_section"]

#: The technical terms the key uses, defined for a student.
GLOSSARY: dict[str, str] = {
    "degree (accessibility)": "the number of unvisited squares one knight move away from a square",
    "full tour": "a path of knight moves that visits every square once",
    "partial tour": "a path that stops before every square is visited: the knight has no unvisited square to go to",
    "open / closed tour": "closed when the last square is one knight move from the first (a circular journey), "
    "open otherwise",
    "directed tours": "tours counted as sequences: a tour and its reversal count twice",
    "up to symmetry": "tours that become one another by a rotation or reflection of the board (or by walking "
    "them backwards) counted once",
    "tie-break": "the rule that chooses among squares of equal lowest degree; the tables name them first (the lowest "
    "move number), random, lookahead-min, lookahead-sum, roth (the square farthest from the centre), squirrel "
    "(Squirrel & Cull's orderings), blog (the blog's script), each described in the table of the tie-breaks on 8 × 8",
    "move order (plain, warnsdorff)": "the order a backtracking search tries the moves in: plain is move 0 to 7; "
    "warnsdorff tries the squares of lowest degree first",
    "look-ahead (lookahead-min, lookahead-sum)": "tie-breaks that look one move further: to the lowest degree "
    "reachable next, or the least total degree of the next squares",
    "backtracking": "depth-first search: try a move, and undo it when it leads nowhere",
    "node": "one square placed by a search; the number of nodes measures the work done",
    "census": "counting every tour of a board by a search that tries every path",
    "frontier method": "counting every tour of a board without listing one: the board is swept square by square, "
    "and for each way the moves placed so far can look from the squares still to come (a frontier state) only the "
    "number of ways to get there is kept (Knuth 2011, SIMPATH)",
    "colour argument": "a knight always moves to the other colour, so a path alternates colours",
    "Knuth's estimator": "an estimate of the size of a search tree from random walks down it (Knuth 1975)",
    "Pósa's rotations": "when the path is stuck, reverse its last stretch so that it ends on another square, "
    "and go on from there (Pósa 1976)",
}


#: The works the key cites, by the short name it cites them with.
SOURCES: dict[str, str] = {
    "Warnsdorff 1823": "H. C. von Warnsdorff, Des Rösselsprunges einfachste und allgemeinste Lösung, Schmalkalden",
    "Pohl 1967": "I. Pohl, A method for finding Hamilton paths and knight's tours, Communications of the ACM 10, "
    "446–449",
    "Knuth 1975": "D. E. Knuth, Estimating the efficiency of backtrack programs, Mathematics of Computation 29, "
    "121–136",
    "Wirth 1976": "N. Wirth, Algorithms + Data Structures = Programs, Prentice-Hall (the backtracking knight's tour)",
    "Pósa 1976": "L. Pósa, Hamiltonian circuits in random graphs, Discrete Mathematics 14, 359–364",
    "Schwenk 1991": "A. J. Schwenk, Which rectangular chessboards have a knight's tour?, Mathematics Magazine 64, "
    "325–332",
    "Conrad et al. 1994": "A. Conrad, T. Hindrichs, H. Morsy, I. Wegener, Solution of the knight's Hamiltonian "
    "path problem on chessboards, Discrete Applied Mathematics 50, 125–134",
    "Squirrel & Cull 1996": "D. Squirrel, P. Cull, A Warnsdorff-rule algorithm for knight's tours on square "
    "chessboards",
    "Parberry 1997": "I. Parberry, An efficient algorithm for the knight's tour problem, Discrete Applied "
    "Mathematics 73, 251–260",
    "McKay 1997": "B. D. McKay, Knight's tours of an 8 × 8 chessboard, technical report TR-CS-97-03, Australian "
    "National University (13,267,364,410,532 closed tours)",
    "Knuth 2011": "D. E. Knuth, The Art of Computer Programming, Volume 4A, Addison-Wesley, §7.1.4 (SIMPATH: "
    "counting paths by their frontier)",
    "Ganzfried 2004": "S. Ganzfried, A simple algorithm for knight's tours, Oregon State University REU report",
    "Roth": "A. Roth's tie-break: the tied square farthest from the board's centre",
    "OEIS": "The On-Line Encyclopedia of Integer Sequences: A165134 (directed open tours of n × n), A001230 "
    "(closed tours of 2n × 2n)",
}


@dataclass(frozen=True)
class MethodEntry:
    """A method as the appendix lists it: its summary, its reference, and each parameter described."""

    name: str
    summary: str
    reference: str
    parameters: dict[str, str]


@dataclass(frozen=True)
class Appendix:
    """The appendix: the methods, the backtracking move orders, the move tables, the glossary and the sources."""

    methods: list[MethodEntry]
    orderings: dict[str, str]
    horizontal: list[int]
    vertical: list[int]
    glossary: dict[str, str]
    sources: dict[str, str]


def appendix_section() -> Appendix:
    """The appendix: each method with its parameters as the method describes them (choices as registered now)."""
    return Appendix(
        methods=[
            MethodEntry(m.name, m.summary, m.reference, {name: p.describe() for name, p in m.parameters.items()})
            for m in METHODS.values()
        ],
        orderings=ORDERINGS,
        horizontal=list(HORIZONTAL),
        vertical=list(VERTICAL),
        glossary=GLOSSARY,
        sources=SOURCES,
    )
