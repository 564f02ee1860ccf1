"""Charts for the report, drawn by matplotlib as SVG text (deterministic: no date, fixed ids, unique in a page)."""

from __future__ import annotations

import hashlib
import io
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from knight.errors import MissingExtra

try:  # the report extra
    import matplotlib
    import matplotlib.colors
    import matplotlib.ticker
    from matplotlib import rc_context
    from matplotlib.figure import Figure  # not pyplot: no GUI backend, no global figure list, a faster import
except ModuleNotFoundError as error:
    raise MissingExtra("matplotlib", "report", "the report's charts") from error

from knight.report.text import power_of_ten

__all__ = ["success_by_size_svg", "distributions_svg", "estimates_svg", "success_maps_svg"]

_STYLE: Any = {  # Any: matplotlib types its keys as a Literal of every rc name
    "svg.hashsalt": "knight",  # stable element ids, so the same data gives the same SVG
    "svg.fonttype": "none",  # keep text as text: the PDF uses the page's fonts
    "font.family": "DejaVu Sans",
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
}


#: Each series of a chart gets its own marker and line style, so that it reads without colour.
_SERIES_STYLES = [
    ("#1f4e79", "o", "-"),
    ("#c62828", "s", "--"),
    ("#2e7d32", "^", "-."),
    ("#6a1b9a", "D", ":"),
    ("#ef6c00", "v", "-"),
    ("#00838f", "P", "--"),
    ("#5d4037", "X", "-."),
    ("#757575", "*", ":"),
]


#: Two colours that differ in lightness too (not red and green), for "failed" and "found".
_FOUND_OR_NOT = matplotlib.colors.ListedColormap(["#f6c98b", "#1f4e79"])


def _series_style(index: int) -> dict[str, object]:
    colour, marker, line = _SERIES_STYLES[index % len(_SERIES_STYLES)]
    return {"color": colour, "marker": marker, "linestyle": line, "markersize": 4, "linewidth": 1.2}


def success_by_size_svg(
    series: Mapping[str, tuple[Sequence[float], Sequence[float]]],
    *,
    title: str,
    xlabel: str = "board side m (m × m)",
    ylabel: str = "success rate",
) -> str:
    """Lines of success rate (0–1) against board size, one per rule: ``{rule: (sizes, rates)}``."""
    with rc_context(_STYLE):
        figure, axes = _subplots(figsize=(5.0, 2.6))
        for index, (name, (sizes, rates)) in enumerate(series.items()):
            axes.plot(list(sizes), list(rates), label=name, **_series_style(index))
        axes.set(title=title, xlabel=xlabel, ylabel=ylabel, ylim=(-0.03, 1.03))
        axes.legend(fontsize=8, ncols=4, loc="upper center", bbox_to_anchor=(0.5, -0.3), frameon=False)
        return _to_svg(figure)


def distributions_svg(
    series: Mapping[str, Sequence[int]],
    *,
    xlabel: str,
    ylabel: str = "share at least this far",
    title: str | None = None,
) -> str:
    """How far groups of walks get: for each value k, the share of a group's values that are at least k,
    one line per group with its own marker and style (smooth to read even for a small group)."""
    with rc_context(_STYLE):
        figure, axes = _subplots(figsize=(5.0, 2.2))
        for index, (name, values) in enumerate(series.items()):
            ordered = sorted(int(v) for v in values)
            xs = list(range(ordered[0], ordered[-1] + 1))
            shares = [sum(v >= x for v in ordered) / len(ordered) for x in xs]
            axes.step(xs, shares, where="post", label=name, **{**_series_style(index), "markevery": 4})
        axes.set(xlabel=xlabel, ylabel=ylabel, ylim=(-0.03, 1.03))
        if title:
            axes.set_title(title)
        axes.legend(fontsize=8, frameon=False, loc="lower left")
        return _to_svg(figure)


def estimates_svg(
    series: Mapping[str, tuple[Sequence[int], Sequence[float]]],
    *,
    spread: Mapping[str, float],
    exact: Mapping[str, float] | None = None,
) -> str:
    """How an estimate settles as probes grow: ``{label: (probes, running mean)}``, each running mean divided by
    the series' last (which must be the estimate from every probe), against the probes on a log axis. ``spread``
    gives each series' relative standard deviation of one probe (sd / mean): the shaded band, 1 ± 2·spread/√N, is
    where a mean of N probes falls about 95 times in 100. An ``exact`` value, divided the same way, is a dotted
    level."""
    with rc_context(_STYLE):
        figure, axes = _subplots(figsize=(5.0, 2.4))
        most = max(max(probes) for probes, _ in series.values())
        least = min(min(probes) for probes, _ in series.values())
        grid = [least * (most / least) ** (i / 60) for i in range(61)]
        low, high = 0.5, 1.5  # widened to show every point when a few probes stray further
        for index, (name, (probes, means)) in enumerate(series.items()):
            style = _series_style(index)
            final = means[-1]
            ratios = [mean / final for mean in means]
            levels = ratios + ([exact[name] / final] if exact and name in exact else [])
            low, high = min(low, 0.95 * min(levels)), max(high, 1.05 * max(levels))
            if name in spread:
                half = [2 * spread[name] / math.sqrt(n) for n in grid]
                axes.fill_between(
                    grid, [1 - h for h in half], [1 + h for h in half], color=style["color"], alpha=0.1, linewidth=0
                )
            axes.plot(list(probes), ratios, label=f"{name}: estimate", **style)
            if exact and name in exact:
                axes.axhline(
                    exact[name] / final, color=style["color"], linestyle=":", linewidth=1.2, label=f"{name}: exact"
                )
        axes.set(xscale="log", ylim=(low, high), xlabel="probes", ylabel="estimate ÷ final estimate")
        axes.xaxis.set_major_formatter(  # powers of ten as 10⁶ in the body font (mathtext prints small)
            matplotlib.ticker.FuncFormatter(lambda value, _: power_of_ten(math.log10(value)))
        )
        axes.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        axes.legend(fontsize=8, frameon=False, ncols=2, loc="upper right")
        return _to_svg(figure)


def success_maps_svg(maps: Mapping[str, dict[tuple[int, int], bool]], *, title: str) -> str:
    """Small multiples, one per rule: for each board n × m, whether the rule found a full tour from the corner."""
    with rc_context({**_STYLE, "axes.grid": False}):
        columns = min(4, len(maps))  # more would shrink the labels below legibility on a page
        rows_of_maps = -(-len(maps) // columns)
        figure, grid_of_axes = _subplots(
            rows_of_maps, columns, figsize=(1.8 * columns + 0.6, 2.3 * rows_of_maps), squeeze=False, sharey=True
        )
        every_axes = list(grid_of_axes.flat)
        for axes in every_axes[len(maps) :]:
            axes.set_visible(False)
        for axes, (rule, outcome) in zip(every_axes, maps.items()):
            rows = sorted({n for n, _ in outcome})
            cols = sorted({m for _, m in outcome})
            grid = [[float(outcome[(n, m)]) if (n, m) in outcome else float("nan") for m in cols] for n in rows]
            axes.imshow(
                grid,
                origin="lower",
                cmap=_FOUND_OR_NOT,
                vmin=0,
                vmax=1,
                interpolation="nearest",
                extent=(cols[0] - 0.5, cols[-1] + 0.5, rows[0] - 0.5, rows[-1] + 0.5),
            )
            failing = sum(1 for ok in outcome.values() if not ok)
            axes.set_title(f"{rule}\n{failing} of {len(outcome)} fail", fontsize=9)
            axes.set_xlabel("columns m", fontsize=9)
            axes.tick_params(labelsize=8)
        for row in grid_of_axes:
            row[0].set_ylabel("rows n", fontsize=9)
        figure.suptitle(title, fontsize=9)
        return _to_svg(figure)


def _subplots(rows: int = 1, columns: int = 1, *, figsize: tuple[float, float], **options: Any) -> tuple[Figure, Any]:
    figure = Figure(figsize=figsize)
    return figure, figure.subplots(rows, columns, **options)


def _to_svg(figure: Figure) -> str:
    buffer = io.StringIO()
    figure.tight_layout()
    figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    text = buffer.getvalue()
    return _own_ids(text[text.index("<svg") :])  # drop the XML prologue and doctype to inline the SVG in HTML


def _own_ids(svg: str) -> str:
    """Prefix every id of a chart, and every reference to one, with a digest of the chart.

    matplotlib numbers its ids per figure (``figure_1``, ``xtick_1``, ...), so two charts in one page
    would share them; with the prefix each chart's ids are its own, and still the same for the same data.
    """
    prefix = f"chart-{hashlib.sha256(svg.encode()).hexdigest()[:10]}-"
    return re.sub(r'(\bid="|href="#|url\(#)', lambda match: match.group(1) + prefix, svg)
