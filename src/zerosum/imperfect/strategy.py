"""A strategy written down: for each information set, each move's probability.

A `Strategy` is what a solver hands a user and a player reads back: both players' parts of a
profile, keyed by the information sets' text and the moves' names, so that it means the same
outside the program (a JSON file) as inside (`profile(tree)`: one number per slot of a
`GameTree`). Probabilities are floats or fractions (an exact equilibrium).

The file is JSON, written atomically:

    {"format": "zerosum strategy", "version": 1, "game": "kuhn",
     "strategy": {"K": {"check": 0.25, "bet": 0.75}, ...}}

and checked on load: its form, the game it was made for, every set of the game present with
exactly its moves, every probability in [0, 1] and every set's summing to 1 (within 1e-6;
fractions are written as text, "1/3", and must sum to 1 exactly).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from zerosum.files import write_atomically
from zerosum.imperfect.tree import GameTree
from zerosum.limits import clipped

FORMAT, VERSION = "zerosum strategy", 1

#: How far from 1 a set's probabilities may sum in a file of floats.
TOLERANCE = 1e-6

Probability = float | Fraction


@dataclass(frozen=True)
class Strategy:
    """Both players' strategies by information set: `table[key][move]` is the probability
    that the player to move in `key` plays `move`. `game` names the game it was made for."""

    game: str
    table: Mapping[str, Mapping[str, Probability]]

    @classmethod
    def of(cls, tree: GameTree, profile: Sequence[Probability] | np.ndarray, game: str) -> Strategy:
        """The profile (one probability per slot of `tree`) as a table."""
        numbers = profile.tolist() if isinstance(profile, np.ndarray) else list(profile)
        starts = tree.action_start.tolist()
        table = {
            key: dict(zip(moves, numbers[starts[i] : starts[i + 1]], strict=True))
            for i, (key, moves) in enumerate(zip(tree.keys, tree.moves, strict=True))
        }
        return cls(game, table)

    def profile(self, tree: GameTree) -> list[Probability]:
        """The table as one probability per slot of `tree`; ValueError naming a set or a move
        the game does not have, or one it has and the table lacks."""
        known = tree.index()
        for key in self.table:
            if key not in known:
                raise ValueError(
                    f"the strategy has an information set {clipped(key)} that {self.game} does"
                    " not have"
                )
        numbers: list[Probability] = []
        for key, moves in zip(tree.keys, tree.moves, strict=True):
            row = self.table.get(key)
            if row is None:
                raise ValueError(f"the strategy lacks the information set {clipped(key)}")
            if set(row) != set(moves):
                raise ValueError(
                    f"the strategy's moves at {clipped(key)} are {', '.join(row)}; the game's"
                    f" are {', '.join(moves)}"
                )
            numbers.extend(row[move] for move in moves)
        return numbers

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the strategy to `path` as JSON, atomically (see the module)."""
        table = {
            key: {move: _written(p) for move, p in row.items()} for key, row in self.table.items()
        }
        data = {"format": FORMAT, "version": VERSION, "game": self.game, "strategy": table}
        write_atomically(os.fspath(path), json.dumps(data, indent=1) + "\n")

    @classmethod
    def load(cls, path: str | os.PathLike[str], game: str | None = None) -> Strategy:
        """The strategy saved in `path`, checked (see the module); made for `game` when
        given. ValueError saying what is wrong, in one line."""
        name = os.fspath(path)
        try:
            with open(name, encoding="utf-8") as file:
                data = json.load(file)
        except OSError as error:
            raise ValueError(f"cannot read {name}: {error.strerror}") from None
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
            raise ValueError(f"{name} is not a strategy file: not JSON") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f'{name} is not a strategy file (no "format": "{FORMAT}")')
        if data.get("version") != VERSION:
            version = clipped(data.get("version"))
            raise ValueError(f"{name}: strategy file version {version}, not {VERSION}")
        made_for, table = data.get("game"), data.get("strategy")
        if not isinstance(made_for, str) or not isinstance(table, dict):
            raise ValueError(f'{name}: a strategy file needs a "game" and a "strategy"')
        if game is not None and made_for != game:
            raise ValueError(f"{name} is a strategy for {clipped(made_for)}, not for {game}")
        checked = {key: _checked_row(name, key, row) for key, row in table.items()}
        return cls(made_for, checked)


def _written(p: Probability) -> float | str:
    """A probability as the file keeps it: a float, or a fraction's text ("1/3")."""
    return str(p) if isinstance(p, Fraction) else float(p)


def _checked_row(name: str, key: Any, row: Any) -> dict[str, Probability]:
    """One set's probabilities from the file, checked: numbers in [0, 1] summing to 1."""
    if not isinstance(row, dict) or not row:
        raise ValueError(f"{name}: information set {clipped(key)} needs its moves' probabilities")
    numbers: dict[str, Probability] = {}
    for move, value in row.items():
        numbers[move] = _probability(name, key, move, value)
    total = sum(numbers.values())
    exact = all(isinstance(p, Fraction) for p in numbers.values())
    if (total != 1) if exact else not math.isclose(total, 1.0, abs_tol=TOLERANCE):
        raise ValueError(
            f"{name}: the probabilities at information set {clipped(key)} sum to"
            f" {float(total):.6g}, not 1"
        )
    return numbers


def _probability(name: str, key: Any, move: str, value: Any) -> Probability:
    where = f"{name}: {clipped(move)} at information set {clipped(key)}"
    if isinstance(value, str):
        try:
            number: Probability = Fraction(value)
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"{where}: {clipped(value)} is not a probability") from None
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        number = float(value)
    else:
        raise ValueError(f"{where}: {clipped(value)} is not a probability")
    if not 0 <= number <= 1:  # NaN fails this too
        raise ValueError(f"{where}: {clipped(value)} is not a probability between 0 and 1")
    return number
