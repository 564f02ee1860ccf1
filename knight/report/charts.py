"""Charts for the report, drawn by matplotlib as SVG text (deterministic: no date, fixed ids, unique in a page)."""

from __future__ import annotations

import hashlib
import io
import re
from typing import Mapping, Sequence

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

_STYLE = {
    "svg.hashsalt": "knight",  # stable element ids, so the same data gives the same SVG
    "svg.fonttype": "none",  # keep text as text: the PDF uses the page's fonts
    "font.family": "DejaVu Sans",
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
}


def histogram_svg(values: Sequence[int], *, title: str, xlabel: str, ylabel: str = "start squares") -> str:
    """A bar chart of how often each integer value occurs (e.g. squares reached from each start)."""
    with plt.rc_context(_STYLE):
        figure, axes = plt.subplots(figsize=(6, 2.6))
        counts: dict[int, int] = {}
        for value in values:
            counts[int(value)] = counts.get(int(value), 0) + 1
        axes.bar(list(counts), list(counts.values()), width=0.8, color="#1f4e79")
        axes.set(title=title, xlabel=xlabel, ylabel=ylabel)
        axes.yaxis.get_major_locator().set_params(integer=True)
        return _to_svg(figure)


def success_by_size_svg(series: Mapping[str, tuple[Sequence[int], Sequence[float]]], *, title: str,
                        xlabel: str = "board side m (m × m)", ylabel: str = "success rate") -> str:
    """Lines of success rate (0–1) against board size, one per rule: ``{rule: (sizes, rates)}``."""
    with plt.rc_context(_STYLE):
        figure, axes = plt.subplots(figsize=(6.4, 3.6))
        for name, (sizes, rates) in series.items():
            axes.plot(list(sizes), list(rates), label=name, linewidth=1.2, marker="." if len(sizes) < 60 else None)
        axes.set(title=title, xlabel=xlabel, ylabel=ylabel, ylim=(-0.03, 1.03))
        axes.legend(fontsize=7, ncols=4, loc="upper center", bbox_to_anchor=(0.5, -0.2), frameon=False)
        return _to_svg(figure)


def success_maps_svg(maps: Mapping[str, dict[tuple[int, int], bool]], *, title: str) -> str:
    """Small multiples, one per rule: for each board n × m, whether the rule found a full tour from the corner."""
    with plt.rc_context({**_STYLE, "axes.grid": False}):
        figure, axes_row = plt.subplots(1, len(maps), figsize=(1.8 * len(maps) + 0.6, 2.4), squeeze=False,
                                        sharey=True)
        for axes, (rule, outcome) in zip(axes_row[0], maps.items()):
            rows = sorted({n for n, _ in outcome})
            cols = sorted({m for _, m in outcome})
            grid = [[float(outcome[(n, m)]) if (n, m) in outcome else float("nan") for m in cols] for n in rows]
            axes.imshow(grid, origin="lower", cmap="RdYlGn", vmin=0, vmax=1, interpolation="nearest",
                        extent=(cols[0] - 0.5, cols[-1] + 0.5, rows[0] - 0.5, rows[-1] + 0.5))
            failing = sum(1 for ok in outcome.values() if not ok)
            axes.set_title(f"{rule}\n{failing} of {len(outcome)} fail", fontsize=8)
            axes.set_xlabel("columns m", fontsize=7)
            axes.tick_params(labelsize=6)
        axes_row[0][0].set_ylabel("rows n", fontsize=7)
        figure.suptitle(title, fontsize=9)
        return _to_svg(figure)


def _to_svg(figure: plt.Figure) -> str:
    buffer = io.StringIO()
    figure.tight_layout()
    figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    plt.close(figure)
    text = buffer.getvalue()
    return _own_ids(text[text.index("<svg"):])  # drop the XML prologue and doctype to inline the SVG in HTML


def _own_ids(svg: str) -> str:
    """Prefix every id of a chart, and every reference to one, with a digest of the chart.

    matplotlib numbers its ids per figure (``figure_1``, ``xtick_1``, ...), so two charts in one page
    would share them; with the prefix each chart's ids are its own, and still the same for the same data.
    """
    prefix = f"chart-{hashlib.sha256(svg.encode()).hexdigest()[:10]}-"
    return re.sub(r'(\bid="|href="#|url\(#)', lambda match: match.group(1) + prefix, svg)
