"""Small random games of imperfect information, for property tests: a deal of private signals,
then public moves, payoffs drawn from a seed.

`SignalGame(signals, branching, depth, seed)`: chance gives each player a private signal
(`signals[p]` of them, with weights drawn from the seed), then the players move alternately
`depth` times from `branching` moves each (player 0 first); what a player knows is their own
signal and every move made, so the game has perfect recall. The payoff for player 0 at the end
is an integer from -5 to 5 drawn from the seed, the signals and the moves.
"""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
from hypothesis import strategies as st

State = tuple[tuple[int, ...], tuple[str, ...]]


class SignalGame:
    def __init__(
        self, signals: tuple[int, int] = (2, 2), branching: int = 2, depth: int = 2, seed: int = 0
    ) -> None:
        self.signals, self.branching, self.depth, self.seed = signals, branching, depth, seed
        rng = random.Random(seed)
        self.weights = [[rng.randint(1, 4) for _ in range(count)] for count in signals]

    def initial_state(self) -> State:
        return (), ()

    def is_chance(self, state: State) -> bool:
        return len(state[0]) < 2

    def chance_outcomes(self, state: State) -> list[tuple[int, Fraction]]:
        weights = self.weights[len(state[0])]
        return [(signal, Fraction(w, sum(weights))) for signal, w in enumerate(weights)]

    def to_move(self, state: State) -> int:
        return len(state[1]) % 2

    def legal_moves(self, state: State) -> list[str]:
        if self.is_chance(state) or self.is_terminal(state):
            return []
        return [f"m{k}" for k in range(self.branching)]

    def result(self, state: State, move: int | str) -> State:
        if self.is_chance(state):
            assert isinstance(move, int)
            return (*state[0], move), state[1]
        assert isinstance(move, str)
        return state[0], (*state[1], move)

    def is_terminal(self, state: State) -> bool:
        return len(state[1]) == self.depth

    def utility(self, state: State, player: int) -> int:
        payoff = random.Random(f"{self.seed}:{state}").randint(-5, 5)
        return payoff if player == 0 else -payoff

    def information_set(self, state: State) -> str:
        player = self.to_move(state)
        return f"{state[0][player]}|{' '.join(state[1])}"


def signal_games(most_depth: int = 3) -> st.SearchStrategy[SignalGame]:
    """Random `SignalGame`s: one to three signals a player, two or three moves, one to
    `most_depth` moves deep."""
    return st.builds(
        SignalGame,
        signals=st.tuples(st.integers(1, 3), st.integers(1, 3)),
        branching=st.integers(2, 3),
        depth=st.integers(1, most_depth),
        seed=st.integers(0, 10**6),
    )


def random_profile(tree, seed: int) -> np.ndarray:
    """A random profile of the unrolled game `tree`: each set's probabilities drawn (cubed,
    so that some are near 0) and scaled to sum 1."""
    weights = np.random.default_rng(seed).random(tree.actions) ** 3
    sets = np.repeat(np.arange(len(tree.keys)), np.diff(tree.action_start))
    return weights / np.bincount(sets, weights)[sets]
