"""An explicit game tree written as nested lists, the textbooks' first example.

`Tree([[3, 12, 8], [2, 4, 6], [14, 5, 2]])` is the seeds' tree: the first player chooses one
of three moves, the second player one of three replies, and the leaf is the payoff for the
first player. A list is a node whose moves are its indices 0, 1, ...; a number is a leaf.
Players alternate by depth; leaves may sit at any depth.

A state is the path of move indices from the root (a tuple), so `()` is the root and
`(1, 0)` the leaf 2 above.
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
        self.leaf_paths: list[Path] = []
        self._index(nested, ())
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

    def _index(self, node: Any, path: Path) -> None:
        where = "the root" if not path else "node " + ".".join(map(str, path))
        if isinstance(node, list):
            if not node:
                raise ValueError(f"{where} is an empty list: a node needs moves or a value")
            self.nodes[path] = node
            for index, child in enumerate(node):
                self._index(child, (*path, index))
        elif isinstance(node, Real) and not isinstance(node, bool):
            if not math.isfinite(node):
                raise ValueError(f"{where} is {node}: leaf values must be finite numbers")
            self.nodes[path] = node
            self.leaf_paths.append(path)
        else:
            raise ValueError(f"{where} is {node!r}: expected a number or a list")

    def initial_state(self) -> Path:
        return ()

    def to_move(self, state: Path) -> Player:
        return len(state) % 2

    def legal_moves(self, state: Path) -> Sequence[int]:
        return range(len(self.nodes[state]))

    def result(self, state: Path, move: int) -> Path:
        return (*state, move)

    def is_terminal(self, state: Path) -> bool:
        return not isinstance(self.nodes[state], list)

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
