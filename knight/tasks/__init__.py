"""The contract between the runner, the store and the command line: what a task is, what a worker sends back
for it, and the kinds of work (:mod:`knight.tasks.kind`), each a module of its own:

* :mod:`knight.tasks.task` — :class:`Task`, the :class:`TaskResult` envelope, :class:`Failure`, :func:`validate`;
* :mod:`knight.tasks.kind` — the :class:`Kind` protocol and the registry (:func:`kind_of`, :func:`register`);
* :mod:`knight.tasks.tour`, :mod:`~knight.tasks.census`, :mod:`~knight.tasks.frontier`,
  :mod:`~knight.tasks.estimate` — the four built-in kinds, each with its result type, its sweep, its records read
  back and its table of ``knight results``;
* :mod:`knight.tasks.sweep` and :mod:`knight.tasks.params` — what the kinds' sweeps share (the pydantic pieces of
  their models in the latter, loaded only to read a job file); :mod:`knight.tasks.shown` — what their tables share.

The names load on first use.
"""

from typing import TYPE_CHECKING

from knight._lazy import lazy_names

#: Each public name and the module that defines it.
_HOMES = {
    "CENSUS": "knight.tasks.task",
    "ESTIMATE": "knight.tasks.task",
    "FRONTIER": "knight.tasks.task",
    "Failure": "knight.tasks.task",
    "FailureCause": "knight.tasks.task",
    "InvalidResult": "knight.tasks.task",
    "Task": "knight.tasks.task",
    "TaskResult": "knight.tasks.task",
    "failure_cause": "knight.tasks.task",
    "incomplete": "knight.tasks.task",
    "rate_of": "knight.tasks.task",
    "removed_squares": "knight.tasks.task",
    "validate": "knight.tasks.task",
    "Kind": "knight.tasks.kind",
    "Shown": "knight.tasks.shown",
    "SweepKind": "knight.tasks.kind",
    "kind_of": "knight.tasks.kind",
    "kinds": "knight.tasks.kind",
    "register": "knight.tasks.kind",
    "PATH_KEPT_UP_TO_SQUARES": "knight.tasks.tour",
    "TourOutcome": "knight.tasks.tour",
    "CensusPlan": "knight.tasks.census",
    "UnitCount": "knight.tasks.census",
    "FrontierParams": "knight.tasks.frontier",
    "FrontierResult": "knight.tasks.frontier",
    "EstimateParams": "knight.tasks.estimate",
    "EstimateResult": "knight.tasks.estimate",
}

__all__ = list(_HOMES)


__getattr__ = lazy_names(globals(), _HOMES)


def __dir__() -> list[str]:
    return sorted(__all__)


if TYPE_CHECKING:  # the lazy names, for type checkers (``as`` marks each a re-export)
    from knight.tasks.census import CensusPlan as CensusPlan
    from knight.tasks.census import UnitCount as UnitCount
    from knight.tasks.estimate import EstimateParams as EstimateParams
    from knight.tasks.estimate import EstimateResult as EstimateResult
    from knight.tasks.frontier import FrontierParams as FrontierParams
    from knight.tasks.frontier import FrontierResult as FrontierResult
    from knight.tasks.kind import Kind as Kind
    from knight.tasks.kind import SweepKind as SweepKind
    from knight.tasks.kind import kind_of as kind_of
    from knight.tasks.kind import kinds as kinds
    from knight.tasks.kind import register as register
    from knight.tasks.shown import Shown as Shown
    from knight.tasks.task import CENSUS as CENSUS
    from knight.tasks.task import ESTIMATE as ESTIMATE
    from knight.tasks.task import FRONTIER as FRONTIER
    from knight.tasks.task import Failure as Failure
    from knight.tasks.task import FailureCause as FailureCause
    from knight.tasks.task import InvalidResult as InvalidResult
    from knight.tasks.task import Task as Task
    from knight.tasks.task import TaskResult as TaskResult
    from knight.tasks.task import failure_cause as failure_cause
    from knight.tasks.task import incomplete as incomplete
    from knight.tasks.task import rate_of as rate_of
    from knight.tasks.task import removed_squares as removed_squares
    from knight.tasks.task import validate as validate
    from knight.tasks.tour import PATH_KEPT_UP_TO_SQUARES as PATH_KEPT_UP_TO_SQUARES
    from knight.tasks.tour import TourOutcome as TourOutcome
