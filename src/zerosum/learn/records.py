"""What self-play records: its settings (`Settings`), one game's positions and the lessons of
their searches as they are played (`Record`), and the examples they become (`Examples`), each
position's value for the player who was to move there, scaled to [-1, 1] (`value_scale`).

The Python self-play (`zerosum.learn.selfplay`) and the compiled one
(`zerosum.learn.selfplay_compiled`) both record here, so that they choose and record their moves
alike and play the same games from the same seed.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

import numpy as np

from zerosum.game import Bounded, Game


@dataclass(frozen=True)
class Settings:
    """How self-play searches and chooses: `simulations` a move, the exploration constant `c`
    of PUCT, Dirichlet noise of `noise_alpha` making `noise_fraction` of the root's priors,
    and moves drawn by visits for the first `temperature_moves` moves of a game."""

    simulations: int = 100
    c: float = 1.5
    noise_alpha: float = 0.5
    noise_fraction: float = 0.25
    temperature_moves: int = 4


@dataclass
class Examples:
    """Positions of self-play and what they teach: `observations` (n, inputs) as int8,
    `legal` (n, moves) as bool, `policies` (n, moves) the visits' distributions, `values` (n,)
    the result for the player to move, in [-1, 1]."""

    observations: np.ndarray
    legal: np.ndarray
    policies: np.ndarray
    values: np.ndarray

    def __len__(self) -> int:
        return len(self.values)

    @classmethod
    def empty(cls, inputs: int, moves: int) -> Examples:
        return cls(
            np.zeros((0, inputs), np.int8),
            np.zeros((0, moves), bool),
            np.zeros((0, moves), np.float32),
            np.zeros(0, np.float32),
        )

    @classmethod
    def joined(cls, parts: list[Examples]) -> Examples:
        return cls(
            np.concatenate([p.observations for p in parts]),
            np.concatenate([p.legal for p in parts]),
            np.concatenate([p.policies for p in parts]),
            np.concatenate([p.values for p in parts]),
        )

    def last(self, count: int) -> Examples:
        """The newest `count` examples (all when there are fewer)."""
        start = max(0, len(self) - count)
        return Examples(
            self.observations[start:],
            self.legal[start:],
            self.policies[start:],
            self.values[start:],
        )


def value_scale(game: Game) -> float:
    """What the game's utilities are divided by to lie in [-1, 1]: the largest bound
    (`Bounded`), else 1."""
    if isinstance(game, Bounded):
        low, high = game.value_bounds()
        scale = float(max(abs(low), abs(high)))
        return scale if scale > 0 else 1.0
    return 1.0


@dataclass
class Record:
    """One game's examples so far: each position's observation (int8), legal moves (bool,
    by number), policy (the visits' distribution) and the player to move."""

    observations: list[np.ndarray] = field(default_factory=list)
    legal: list[np.ndarray] = field(default_factory=list)
    policies: list[np.ndarray] = field(default_factory=list)
    movers: list[int] = field(default_factory=list)

    def choose(
        self,
        observation: np.ndarray,
        mover: int,
        numbers: list[int],
        weights: np.ndarray,
        visits: list[int],
        moves: int,
        settings: Settings,
        rng: random.Random,
    ) -> int:
        """Record the position (`observation` as `mover` sees it) with the lesson of its
        search: `weights` (visits, or 1 for each move proven best) of the moves numbered
        `numbers`; the index of the move to play: drawn by `weights` in the first
        `settings.temperature_moves` moves of the game, else the first of the most visited
        (`visits`)."""
        policy = np.zeros(moves, np.float32)
        policy[numbers] = weights / weights.sum()
        legal = np.zeros(moves, bool)
        legal[numbers] = True
        self.observations.append(np.asarray(observation, np.int8).ravel())
        self.legal.append(legal)
        self.policies.append(policy)
        self.movers.append(mover)
        if len(self.movers) <= settings.temperature_moves:
            return rng.choices(range(len(numbers)), weights=list(weights))[0]
        return max(range(len(numbers)), key=visits.__getitem__)

    def examples(self, game: Game, results: list[float]) -> Examples:
        """The game's positions with its result for each position's mover: `results[p]` for
        player `p`, in [-1, 1] (ValueError naming the game when it is not)."""
        if any(not math.isfinite(r) or abs(r) > 1 for r in results):
            raise ValueError(
                f"{type(game).__name__}'s utilities {results} lie outside its value bounds:"
                " self-play learns values in [-1, 1] of them"
            )
        return Examples(
            np.stack(self.observations),
            np.stack(self.legal),
            np.stack(self.policies),
            np.array([results[p] for p in self.movers], np.float32),
        )
