"""The textbook's experiments as charts, drawn with matplotlib (the optional extra `charts`).

`ordering_figure`, `growth_figure` and `ablation_figure` draw the numbers that
`zerosum.experiments` returns, the same numbers the tests assert; `convergence_figure` the CFR
family's exploitability; `learning_figure` a training run's log (`zerosum.learn.log`): the
network's strength against fixed opponents and its losses; `image` turns a figure into the
bytes of a PNG, SVG or PDF.
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
from zerosum.learn.log import Log

if TYPE_CHECKING:
    from matplotlib.axes import Axes
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


ELO_EDGE = 200.0
"""The least half-height of the learning chart's Elo panel: its edges, where a match won or
lost in every game is drawn, are at least this far from an even score."""


def learning_figure(log: Log, game: str) -> Figure:
    """A training run: the best network's Elo difference against each fixed opponent (from
    the network's side, with its 95% error bar) against training minutes, and the mean policy
    and value losses against the optimizer's step.

    The Elo difference and its error are `MatchResult.elo` and `elo_error`. A match won (or
    lost) in every game implies no finite difference: it is drawn as a hollow triangle on the
    panel's top (bottom) edge, pointing off the scale, and labelled so in the legend. The panel
    is symmetric about 0 (an even score) and reaches every error bar. The losses are on a log
    scale when both are positive and span more than a factor of 10.
    """
    figure = _new_figure(12, 5)
    strength, losses = figure.subplots(1, 2)
    minutes = log.seconds / 60
    gates = log.gates
    accepted = sum(gate.accepted for gate in gates)
    figure.suptitle(
        f"Learning {game}: {log.games:,} self-play games, {log.positions:,} positions,"
        f" {_duration(log.seconds)} of training"
        + (f"; {accepted} of {len(gates)} new networks accepted" if gates else "")
    )
    _strength_panel(strength, log)
    strength.set_xlim(0, max(minutes, 1e-9) * 1.05)
    rounds = log.rounds
    if rounds:
        steps = [r.step for r in rounds]
        policy = [r.policy_loss for r in rounds]
        value = [r.value_loss for r in rounds]
        losses.plot(steps, policy, ".-", color="#1f4e8c", label="policy loss")
        losses.plot(steps, value, ".-", color="#c0392b", label="value loss")
        every = policy + value
        if min(every) > 0 and max(every) > 10 * min(every):
            losses.set_yscale("log")
        losses.legend(fontsize=8)
    else:
        _nothing_yet(losses, "no round of training yet")
    losses.set_xlabel("optimizer step")
    losses.set_ylabel("mean loss of the round")
    losses.set_title("Losses")
    losses.grid(True, which="major", alpha=0.3)
    return figure


def _strength_panel(axes: Axes, log: Log) -> None:
    """The Elo panel of `learning_figure`: one series per opponent, in the order first met."""
    evaluations = log.evaluations
    axes.set_xlabel("training time (minutes)")
    axes.set_ylabel("Elo difference, network minus opponent (95% error)")
    axes.set_title("Strength against fixed opponents")
    axes.grid(True, which="major", alpha=0.3)
    if not evaluations:
        _nothing_yet(axes, "no evaluation yet")
        return
    results = [e.result for e in evaluations]
    reach = [abs(r.elo) + (r.elo_error or 0) for r in results if r.elo is not None]
    edge = max([ELO_EDGE, *(1.1 * r for r in reach)])
    axes.set_ylim(-1.06 * edge, 1.06 * edge)  # the edge's markers inside the frame
    axes.axhline(0, color="#999", linewidth=0.8)
    for index, opponent in enumerate(dict.fromkeys(e.opponent for e in evaluations)):
        colour = f"C{index}"
        finite: list[tuple[float, float, float]] = []  # minutes, Elo, its error
        edges: dict[bool, list[float]] = {True: [], False: []}  # minutes, by every game won
        for evaluation in evaluations:
            if evaluation.opponent != opponent:
                continue
            result, minutes = evaluation.result, evaluation.seconds / 60
            if result.elo is not None and result.elo_error is not None:
                finite.append((minutes, result.elo, result.elo_error))
            else:
                edges[result.score == 1].append(minutes)
        if finite:
            x, y, error = zip(*finite, strict=True)
            axes.errorbar(
                x, y, yerr=error, fmt="o-", color=colour, capsize=3, markersize=4, label=opponent
            )
        for won, marker, words in ((True, "^", "won"), (False, "v", "lost")):
            if edges[won]:
                axes.plot(
                    edges[won],
                    [edge if won else -edge] * len(edges[won]),
                    marker,
                    color=colour,
                    markerfacecolor="none",
                    markersize=9,
                    label=f"{opponent}: every game {words}, Elo off the scale",
                )
    axes.legend(fontsize=8)


def _nothing_yet(axes: Axes, words: str) -> None:
    axes.text(0.5, 0.5, words, ha="center", va="center", transform=axes.transAxes, color="#777")


def _duration(seconds: float) -> str:
    """A training time as a title says it: seconds, minutes or hours."""
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 2 * 3600:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"


def image(figure: Figure, format: str = "png") -> bytes:
    """The figure as the bytes of a `png`, `svg` or `pdf` file."""
    if format not in FORMATS:
        raise ValueError(f"cannot draw a chart as {format!r}: choose one of {', '.join(FORMATS)}")
    buffer = io.BytesIO()
    figure.savefig(buffer, format=format)
    return buffer.getvalue()
