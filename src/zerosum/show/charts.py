"""The textbook's experiments as charts, drawn with matplotlib (the optional extra `charts`).

`ordering_figure`, `growth_figure` and `ablation_figure` draw the numbers that
`zerosum.experiments` returns, the same numbers the tests assert; `image` turns a figure into
the bytes of a PNG, SVG or PDF.
Nothing here touches pyplot's global state, so charts can be drawn from any thread or program.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import TYPE_CHECKING

from zerosum.experiments.ablation import AblationPoint
from zerosum.experiments.convergence import ConvergencePoint
from zerosum.experiments.growth import GrowthPoint, minimal_tree_leaves
from zerosum.experiments.ordering import OrderingRun

if TYPE_CHECKING:
    from matplotlib.figure import Figure

FORMATS = ("png", "svg", "pdf")


def _new_figure(width: float, height: float) -> Figure:
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise ValueError("charts need matplotlib: pip install 'zerosum[charts]'") from None
    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def ordering_figure(runs: Sequence[OrderingRun]) -> Figure:
    """A bar per order: finished games alpha-beta reached on tic-tac-toe from the empty board."""
    figure = _new_figure(11, 5)
    axes = figure.add_subplot()
    colours = ["#1f4e8c" if not run.name.startswith("random") else "#9aa9bd" for run in runs]
    bars = axes.bar(range(len(runs)), [run.leaves for run in runs], color=colours)
    axes.bar_label(
        bars, labels=[f"{run.leaves:,}" for run in runs], fontsize=7, rotation=90, padding=2
    )
    axes.set_xticks(
        range(len(runs)), [run.name for run in runs], rotation=60, ha="right", fontsize=8
    )
    axes.set_ylabel("finished games reached")
    axes.set_title(
        "Alpha-beta on tic-tac-toe: the same value (a draw), a different cost per move order"
    )
    axes.margins(y=0.15)
    return figure


def ablation_figure(points: Sequence[AblationPoint]) -> Figure:
    """Nodes per depth (log scale) and effective branching factor, a line per configuration."""
    figure = _new_figure(12, 5)
    nodes_axes, ebf_axes = figure.subplots(1, 2)
    names = list(dict.fromkeys(point.configuration for point in points))
    for name in names:
        line = [point for point in points if point.configuration == name]
        depths = [point.depth for point in line]
        nodes_axes.plot(depths, [point.nodes for point in line], "o-", label=name)
        ebf_axes.plot(depths, [point.branching_factor for point in line], "o-", label=name)
    nodes_axes.set_yscale("log")
    nodes_axes.set_xlabel("depth (plies)")
    nodes_axes.set_ylabel(f"nodes, summed over {points[0].positions} positions")
    nodes_axes.set_title("The engine on Connect Four: nodes per depth")
    ebf_axes.set_xlabel("depth (plies)")
    ebf_axes.set_ylabel("effective branching factor")
    ebf_axes.set_title("Effective branching factor, enhancements added in turn")
    ebf_axes.legend(fontsize=8)
    return figure


def growth_figure(points: Sequence[GrowthPoint], branching: int) -> Figure:
    """Leaves reached against depth on uniform trees, measured and in theory, on a log scale."""
    figure = _new_figure(8, 5.5)
    axes = figure.add_subplot()
    depths = [point.depth for point in points]
    b = branching
    axes.plot(depths, [b**m for m in depths], "-", color="#999", label="$b^m$")
    axes.plot(depths, [b ** (3 * m / 4) for m in depths], "--", color="#999", label="$b^{3m/4}$")
    axes.plot(
        depths,
        [minimal_tree_leaves(b, m) for m in depths],
        ":",
        color="#555",
        label=r"minimal tree $b^{\lfloor m/2\rfloor}+b^{\lceil m/2\rceil}-1$",
    )
    axes.plot(depths, [p.minimax for p in points], "s", color="#9a4a12", label="minimax")
    axes.plot(
        depths,
        [p.random_order for p in points],
        "o",
        color="#1f4e8c",
        label="alpha-beta, random order",
    )
    axes.plot(
        depths,
        [p.best_first for p in points],
        "^",
        color="#c0392b",
        label="alpha-beta, best move first",
    )
    axes.set_yscale("log")
    axes.set_xlabel("depth m (plies)")
    axes.set_ylabel("leaves reached (mean over sample trees)")
    axes.set_title(f"Uniform trees with b = {b} moves per node")
    axes.legend(fontsize=8)
    axes.grid(True, which="major", alpha=0.3)
    return figure


def convergence_figure(points: Sequence[ConvergencePoint], game: str) -> Figure:
    """Exploitability against iterations and against seconds, a line per algorithm, log-log."""
    figure = _new_figure(12, 5)
    by_iterations, by_time = figure.subplots(1, 2)
    for algorithm in dict.fromkeys(point.algorithm for point in points):
        line = [point for point in points if point.algorithm == algorithm]
        exploitability = [max(point.exploitability, 1e-17) for point in line]  # 0 off the log
        by_iterations.plot([p.iterations for p in line], exploitability, ".-", label=algorithm)
        by_time.plot([p.seconds for p in line], exploitability, ".-", label=algorithm)
    for axes, unit in ((by_iterations, "iterations"), (by_time, "seconds")):
        axes.set_xscale("log")
        axes.set_yscale("log")
        axes.set_xlabel(unit)
        axes.set_ylabel("exploitability (mean gain of the two best responses)")
        axes.grid(True, which="major", alpha=0.3)
    by_iterations.set_title(f"{game}: the average strategy's exploitability")
    by_time.set_title("The same against time (the measures not counted)")
    by_time.legend(fontsize=8)
    return figure


def image(figure: Figure, format: str = "png") -> bytes:
    """The figure as the bytes of a `png`, `svg` or `pdf` file."""
    if format not in FORMATS:
        raise ValueError(f"cannot draw a chart as {format!r}: choose one of {', '.join(FORMATS)}")
    buffer = io.BytesIO()
    figure.savefig(buffer, format=format)
    return buffer.getvalue()
