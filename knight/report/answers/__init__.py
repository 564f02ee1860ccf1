"""Each question's answer, computed from stored results: one module per source document.

An answer function takes the :class:`~knight.report.answers.common.StoreData` and returns a typed answer (a
frozen dataclass): the fields its template ``templates/answers/<id>.html.j2`` shows, and a ``glance`` property,
its one line for the table at the top, rendered from those fields (what both say is computed once, as a
property). It raises ``MissingData`` naming what to run when the store lacks results. Nothing here is typed in by hand except what the documents themselves fix
(which boards and starts they ask about, the 10^25 years they claim).
"""

from __future__ import annotations

from collections.abc import Callable

from knight.report.answers.blog import blog_example, blog_script, blog_ties, blog_wozniak
from knight.report.answers.blog_sizes import blog_past_50, blog_w_plus
from knight.report.answers.common import Answer, StoreData
from knight.report.answers.deitel import deitel_64_tours, deitel_by_hand, deitel_heuristic, deitel_naive
from knight.report.answers.eiffel import (
    eiffel_closed,
    eiffel_colours,
    eiffel_corners,
    eiffel_first,
    eiffel_parberry,
)
from knight.report.answers.eiffel_counts import eiffel_all
from knight.report.answers.homework import homework_board, homework_program, homework_starts

__all__ = ["ANSWERS", "Answer", "StoreData"]

#: Each question's answer, by the id it has in questions.toml.
ANSWERS: dict[str, Callable[[StoreData], Answer]] = {
    "deitel-by-hand": deitel_by_hand,
    "deitel-naive": deitel_naive,
    "deitel-heuristic": deitel_heuristic,
    "deitel-64-tours": deitel_64_tours,
    "homework-program": homework_program,
    "homework-5x5": homework_board(5),
    "homework-6x6": homework_board(6),
    "homework-8x8": homework_board(8),
    "homework-starts": homework_starts,
    "eiffel-first": eiffel_first,
    "eiffel-all": eiffel_all,
    "eiffel-closed": eiffel_closed,
    "eiffel-colours": eiffel_colours,
    "eiffel-corners": eiffel_corners,
    "eiffel-parberry": eiffel_parberry,
    "blog-wozniak": blog_wozniak,
    "blog-example": blog_example,
    "blog-script": blog_script,
    "blog-past-50": blog_past_50,
    "blog-w-plus": blog_w_plus,
    "blog-ties": blog_ties,
}
