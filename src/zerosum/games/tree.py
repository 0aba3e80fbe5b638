"""An explicit game tree written as nested lists, the textbooks' first example.

`Tree([[3, 12, 8], [2, 4, 6], [14, 5, 2]])` is the textbook's tree: the first player chooses one
of three moves, the second player one of three replies, and the leaf is the payoff for the
first player. A list is a node whose moves are its indices 0, 1, ...; a number is a leaf.
Players alternate by depth; leaves may sit at any depth.

A node may also be a chance node, `{"chance": [[p, subtree], ...]}`: nobody chooses there, the
subtree with index i follows with probability p (positive, the p summing to 1). Chance nodes
do not count as turns: the player to move at a node is given by the number of player nodes
(lists) above it, so `[{"chance": [[0.5, 6], [0.5, 6]]}, {"chance": [[0.5, 10], [0.5, 1]]}]`
is the textbook's dice example, the first player choosing between two rolls of the dice.

A state is the path of move (or outcome) indices from the root (a tuple), so `()` is the root
and `(1, 0)` the leaf 2 above.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from numbers import Real
from typing import Any

from zerosum.game import Player

Path = tuple[int, ...]


class Tree:
    """A game given by its whole tree; leaf values are payoffs for the first player (player 0)."""

    def __init__(self, nested: Any) -> None:
        self.nodes: dict[Path, Any] = {}
        self.players: dict[Path, Player] = {}
        self.chances: dict[Path, list[tuple[int, float]]] = {}
        self.leaf_paths: list[Path] = []
        self._index(nested, (), 0)
        self.nested = nested

    @classmethod
    def from_text(cls, text: str) -> Tree:
        """A tree from JSON-like text such as `[[3,12,8],[2,4,6],[14,5,2]]`."""
        try:
            nested = json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError(
                f"malformed tree {text!r}: {error.msg} at character {error.pos}"
            ) from None
        return cls(nested)

    def _index(self, node: Any, path: Path, player: Player) -> None:
        where = "the root" if not path else "node " + ".".join(map(str, path))
        self.players[path] = player
        if isinstance(node, list):
            if not node:
                raise ValueError(f"{where} is an empty list: a node needs moves or a value")
            self.nodes[path] = node
            for index, child in enumerate(node):
                self._index(child, (*path, index), 1 - player)
        elif isinstance(node, dict):
            subtrees = _chance_subtrees(node, where)
            self.nodes[path] = node
            self.chances[path] = [(index, p) for index, (p, _) in enumerate(subtrees)]
            for index, (_, child) in enumerate(subtrees):
                self._index(child, (*path, index), player)
        elif isinstance(node, Real) and not isinstance(node, bool):
            if not math.isfinite(node):
                raise ValueError(f"{where} is {node}: leaf values must be finite numbers")
            self.nodes[path] = node
            self.leaf_paths.append(path)
        else:
            raise ValueError(
                f"{where} is {node!r}: expected a number, a list"
                ' or {"chance": [[p, subtree], ...]}'
            )

    def initial_state(self) -> Path:
        return ()

    def to_move(self, state: Path) -> Player:
        return self.players[state]

    def legal_moves(self, state: Path) -> Sequence[int]:
        if state in self.chances:
            raise ValueError(
                f"node {'.'.join(map(str, state)) or 'the root'} is a chance node: nobody moves"
                " there (search a tree with chance nodes with expectiminimax)"
            )
        return range(len(self.nodes[state]))

    def is_chance(self, state: Path) -> bool:
        return state in self.chances

    def chance_outcomes(self, state: Path) -> list[tuple[int, float]]:
        return self.chances[state]

    @property
    def has_chance(self) -> bool:
        """True when the tree has at least one chance node."""
        return bool(self.chances)

    def value_bounds(self) -> tuple[float, float]:
        """The smallest and largest leaf: bounds on every payoff for the first player."""
        values = [self.nodes[path] for path in self.leaf_paths]
        return min(values), max(values)

    def result(self, state: Path, move: int) -> Path:
        return (*state, move)

    def is_terminal(self, state: Path) -> bool:
        return not isinstance(self.nodes[state], (list, dict))

    def utility(self, state: Path, player: Player) -> float:
        value = self.nodes[state]
        return value if player == 0 else -value

    def key(self, state: Path) -> Path:
        return state

    def leaves(self) -> list[Path]:
        """Every leaf's path, left to right."""
        return list(self.leaf_paths)

    def format_move(self, state: Path, move: int) -> str:
        return str(move)

    def parse_move(self, state: Path, text: str) -> int:
        moves = self.legal_moves(state)
        if not text.strip().isdigit() or int(text) not in moves:
            raise ValueError(f"{text!r} is not a move here: choose 0 to {len(moves) - 1}")
        return int(text)

    def render(self, state: Path) -> str:
        return json.dumps(self.nodes[state])


def _chance_subtrees(node: dict, where: str) -> list[tuple[float, Any]]:
    """The `(probability, subtree)` pairs of a chance node, checked; ValueError otherwise."""
    if set(node) != {"chance"} or not isinstance(node["chance"], list) or not node["chance"]:
        raise ValueError(f'{where} is {node!r}: a chance node is {{"chance": [[p, subtree], ...]}}')
    subtrees: list[tuple[float, Any]] = []
    for index, entry in enumerate(node["chance"]):
        if not isinstance(entry, list) or len(entry) != 2:
            raise ValueError(f"{where}: outcome {index} is {entry!r}, expected [p, subtree]")
        p: float = entry[0]
        if not isinstance(p, Real) or isinstance(p, bool) or not math.isfinite(p) or p <= 0:
            raise ValueError(
                f"{where}: outcome {index} has probability {p!r}, expected a positive number"
            )
        subtrees.append((p, entry[1]))
    total = math.fsum(p for p, _ in subtrees)
    if abs(total - 1) > 1e-9:
        raise ValueError(f"{where}: the probabilities sum to {total!r}, not 1")
    return subtrees
