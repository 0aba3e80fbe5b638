"""The engine on Connect Four with its enhancements switched on one after another.

Each configuration searches the same positions to each depth with the threat-aware evaluation
(quiescence off, so that every configuration computes the same score); the numbers are the
nodes it entered, summed over the positions, and the effective branching factor
`(nodes per position) ** (1 / depth)`. The benchmark `benchmarks/engine_ablation.py` and
`zerosum chart ablation` both draw on these numbers.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from zerosum.games.connect4 import ConnectFour
from zerosum.search.engine import Engine

NOTHING = dict(
    table=False, iterative=False, hash_move=False, killers=False, history=False,
    null_window=False, quiescence=False,
)  # fmt: skip
"""Every enhancement off: plain alpha-beta in the game's own (centre-first) order."""

STEPS: tuple[tuple[str, dict[str, bool]], ...] = (
    ("plain alpha-beta (centre-first order)", {}),
    ("+ ordering (killers, history)", dict(killers=True, history=True)),
    ("+ table (hash move, bounds)", dict(table=True, hash_move=True)),
    ("+ iterative deepening", dict(iterative=True)),
    ("+ null window (PVS)", dict(null_window=True)),
)
"""Each step switches on what its name says, on top of the steps before it."""

POSITIONS = ("", "4453", "44444326", "3435261")
"""Connect Four positions (columns played from the empty board) searched by every step."""


@dataclass(frozen=True)
class AblationPoint:
    """One configuration searched to one depth: nodes over all positions and their scores."""

    configuration: str
    depth: int
    nodes: int
    positions: int
    scores: tuple[int, ...]

    @property
    def branching_factor(self) -> float:
        """The effective branching factor: nodes per position to the power 1 / depth."""
        return (self.nodes / self.positions) ** (1 / self.depth)


def configurations() -> Iterator[tuple[str, dict[str, bool]]]:
    """Each step's name and the engine's flags with it and every step before it switched on."""
    flags = dict(NOTHING)
    for name, change in STEPS:
        flags.update(change)
        yield name, dict(flags)


def ablation_experiment(
    depths: Iterable[int] = range(1, 7), positions: Iterable[str] = POSITIONS
) -> tuple[AblationPoint, ...]:
    """Every configuration at every depth, on 7x6 Connect Four from `positions`."""
    game = ConnectFour()
    states = [game.parse_state(moves) for moves in positions]
    points = []
    for name, flags in configurations():
        for depth in depths:
            results = [Engine(game, **flags).search(state, depth=depth) for state in states]
            nodes = sum(result.stats.nodes for result in results)
            scores = tuple(result.score for result in results)
            points.append(AblationPoint(name, depth, nodes, len(states), scores))
    return tuple(points)
