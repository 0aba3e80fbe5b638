"""Value iteration: the exact values of every position of a finite game with chance and cycles.

Backward induction needs an acyclic game; a dice game like Pig returns to the same position
when a turn is lost. Value iteration (Shapley's, for stochastic games) starts every position at
0 and sweeps the state graph, setting each value to the maximum, minimum or expectation of its
successors, until no value moves by more than the tolerance. Sweeps update in place
(Gauss-Seidel), which converges at least as fast as the textbook's two-array form.

Any `Keyed` game with finitely many reachable positions works; chance nodes need `Chance`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from zerosum.game import Chance, Game, Keyed, require

MAX_STATES = 2_000_000


@dataclass(frozen=True)
class GameValues:
    """The value of every position reachable from `root`, from player 0's point of view.

    `values[key]` is the value of the position with that key; `sweeps` the number of passes
    over the state graph value iteration made; `change` the largest update of the last one.
    """

    values: dict[Hashable, float]
    root: Hashable
    sweeps: int
    change: float

    @property
    def root_value(self) -> float:
        """The value of the starting position for player 0."""
        return self.values[self.root]


def value_iteration(
    game: Game,
    state: Any = None,
    *,
    tolerance: float = 1e-12,
    max_sweeps: int = 100_000,
) -> GameValues:
    """Every reachable position's value for player 0, to within `tolerance` per sweep."""
    require(game, Keyed, "value iteration")
    assert isinstance(game, Keyed)  # as `require` has just checked, for the type checker
    dice = game if isinstance(game, Chance) else None
    root = game.initial_state() if state is None else state
    graph, order = _state_graph(game, root, game.key, dice)
    values = {key: (node[1] if node[0] == "terminal" else 0.0) for key, node in graph.items()}
    for sweep in range(1, max_sweeps + 1):
        change = 0.0
        for key in order:
            kind, successors = graph[key]
            if kind == "chance":
                value = sum(p * values[child] for child, p in successors)
            elif kind == "max":
                value = max(values[child] for child in successors)
            else:
                value = min(values[child] for child in successors)
            change = max(change, abs(value - values[key]))
            values[key] = value
        if change <= tolerance:
            return GameValues(values, game.key(root), sweep, change)
    raise ValueError(f"value iteration did not converge to {tolerance} in {max_sweeps} sweeps")


def _state_graph(
    game: Game, root: Any, key: Callable[[Any], Hashable], dice: Chance | None
) -> tuple[dict, list]:
    """Each reachable key's kind and successors, and the non-terminal keys in discovery order
    (`key` is the game's, `dice` the game itself when it has chance nodes)."""
    graph: dict[Hashable, tuple[str, Any]] = {}
    order: list[Hashable] = []
    stack = [root]
    graph[key(root)] = ("pending", None)
    while stack:
        state = stack.pop()
        if game.is_terminal(state):
            graph[key(state)] = ("terminal", float(game.utility(state, 0)))
            continue
        node: tuple[str, list[Any]]
        if dice is not None and dice.is_chance(state):
            pairs = [(game.result(state, o), p) for o, p in dice.chance_outcomes(state)]
            node = ("chance", [(key(child), p) for child, p in pairs])
            children = [child for child, _ in pairs]
        else:
            children = [game.result(state, move) for move in game.legal_moves(state)]
            kind = "max" if game.to_move(state) == 0 else "min"
            node = (kind, [key(child) for child in children])
        graph[key(state)] = node
        order.append(key(state))
        for child in children:
            if key(child) not in graph:
                if len(graph) >= MAX_STATES:
                    raise ValueError(
                        f"more than {MAX_STATES:,} positions: too many for value iteration"
                    )
                graph[key(child)] = ("pending", None)
                stack.append(child)
    return graph, order
