"""The engine with its enhancements switched on one after another, on Connect Four and chess.

Each configuration searches the same positions to each depth; the numbers are the nodes it
entered, summed over the positions, and the effective branching factor
`(nodes per position) ** (1 / depth)`. On Connect Four, with the threat-aware evaluation and
quiescence off, every configuration computes the same score. On chess, with quiescence on
throughout, the last steps prune forward and extend checks, so their scores may differ. The
benchmark `benchmarks/engine_ablation.py` and `zerosum chart ablation` draw on these numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TypedDict

from zerosum.games.chess import Chess
from zerosum.games.connect4 import ConnectFour
from zerosum.search.engine import Engine


class Switches(TypedDict, total=False):
    """The engine's enhancements that switch on and off (`Engine`'s keyword arguments)."""

    table: bool
    iterative: bool
    hash_move: bool
    killers: bool
    history: bool
    captures: bool
    null_window: bool
    quiescence: bool
    null_move: bool
    late_move_reductions: bool
    futility: bool
    check_extensions: bool


NOTHING = Switches(
    table=False, iterative=False, hash_move=False, killers=False, history=False,
    captures=False, null_window=False, quiescence=False, null_move=False,
    late_move_reductions=False, futility=False, check_extensions=False,
)  # fmt: skip
"""Every enhancement off: plain alpha-beta in the game's own (centre-first) order."""

STEPS: tuple[tuple[str, Switches], ...] = (
    ("plain alpha-beta (centre-first order)", {}),
    ("+ ordering (killers, history)", Switches(killers=True, history=True)),
    ("+ table (hash move, bounds)", Switches(table=True, hash_move=True)),
    ("+ iterative deepening", Switches(iterative=True)),
    ("+ null window (PVS)", Switches(null_window=True)),
)
"""Each step switches on what its name says, on top of the steps before it."""

POSITIONS = ("", "4453", "44444326", "3435261")
"""Connect Four positions (columns played from the empty board) searched by every step."""

CHESS_STEPS: tuple[tuple[str, Switches], ...] = (
    ("alpha-beta + quiescence (MVV-LVA), python-chess's move order", Switches(captures=True)),
    ("+ ordering, table, iterative deepening, PVS", Switches(
        killers=True, history=True, table=True, hash_move=True, iterative=True,
        null_window=True)),
    ("+ null move", Switches(null_move=True)),
    ("+ late-move reductions", Switches(late_move_reductions=True)),
    ("+ futility pruning", Switches(futility=True)),
    ("+ check extensions", Switches(check_extensions=True)),
)  # fmt: skip
"""Each step on top of the ones before; quiescence is on throughout (chess needs it)."""

CHESS_POSITIONS = (
    "startpos",
    "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
)
"""Chess positions: the start, an Italian game, a queen's gambit and an endgame (perft's 3rd)."""


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


def configurations(
    steps: tuple[tuple[str, Switches], ...] = STEPS, base: Switches = NOTHING
) -> Iterator[tuple[str, Switches]]:
    """Each step's name and the engine's flags with it and every step before it switched on."""
    flags = base.copy()
    for name, change in steps:
        flags.update(change)
        yield name, flags.copy()


def chess_configurations() -> Iterator[tuple[str, Switches]]:
    """The chess steps, each with the flags of every step before it, quiescence on."""
    return configurations(CHESS_STEPS, {**NOTHING, "quiescence": True})


def ablation_experiment(
    depths: Iterable[int] = range(1, 7),
    positions: Iterable[str] = POSITIONS,
    on_search: Callable[[], None] | None = None,
) -> tuple[AblationPoint, ...]:
    """Every configuration at every depth, on 7x6 Connect Four from `positions`; `on_search`,
    when given, is called after each search of a position."""
    game = ConnectFour()
    states = [game.parse_state(moves) for moves in positions]
    return _ablation(game, states, configurations(), depths, on_search)


def chess_ablation_experiment(
    depths: Iterable[int] = range(1, 5), positions: Iterable[str] = CHESS_POSITIONS
) -> tuple[AblationPoint, ...]:
    """Every chess configuration at every depth, from `positions` (FEN)."""
    game = Chess()
    states = [game.parse_state(fen) for fen in positions]
    return _ablation(game, states, chess_configurations(), depths)


def _ablation(
    game: Any,
    states: list[Any],
    steps: Iterable[tuple[str, Switches]],
    depths: Iterable[int],
    on_search: Callable[[], None] | None = None,
) -> tuple[AblationPoint, ...]:
    points = []
    for name, flags in steps:
        for depth in depths:
            results = []
            for state in states:
                results.append(Engine(game, **flags).search(state, depth=depth))
                if on_search is not None:
                    on_search()
            nodes = sum(result.stats.nodes for result in results)
            scores = tuple(result.score for result in results)
            points.append(AblationPoint(name, depth, nodes, len(states), scores))
    return tuple(points)
