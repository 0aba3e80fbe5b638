"""Self-play: games of the network against itself, searched by PUCT, as training examples.

Each move is chosen by `zerosum.search.mcts.MCTS` with the network as its evaluator (PUCT,
the AlphaZero rule): `simulations` iterations from the position, the root's priors mixed
with Dirichlet noise so that every move keeps a chance, then a move drawn in proportion to
the visits for the first `temperature_moves` moves of a game (variety in the openings) and
the most visited move after. Every position played becomes an example: the observation,
the legal moves, the visits' distribution (what the policy learns) and, once the game is
over, its result for the player who was to move (what the value learns).

The search keeps MCTS-Solver on: near the end of a game it proves wins, losses and draws,
and a proven position stops its search at once. Its lesson is then exact: the moves proven
best, alike, instead of the visits (AlphaZero had no solver; on small boards it turns many
noisy late examples into certain ones).

The network is asked about many positions at once. `play` runs many games side by side, one
simulation of each at a time: each tree descends to the position it has not seen
(`MCTS.descend`), the positions of every game go through the network as one batch, and each
tree takes its answer (`MCTS.scored`, `MCTS.back_up`). A batch of 64 costs little more than
one position alone, so the search, not the network, is what a position costs.

`Evaluation` is the same network for one position at a time: the evaluator of the `az`
player (`zerosum.learn.player`) and of the engine's learned evaluation.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from zerosum.game import Bounded, Game
from zerosum.learn.network import Params, forward, masked_softmax
from zerosum.search.mcts import MCTS


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


class Evaluation:
    """The network as MCTS's evaluator for `game`: `self(state) -> (priors, value)`, the
    priors over the legal moves, the value for the player to move in the game's utilities
    (the network's [-1, 1] times `value_scale`). `batch(states)` answers many at once."""

    def __init__(self, game: Game, params: Params) -> None:
        self.game = game
        self.params = {name: np.asarray(value, np.float32) for name, value in params.items()}
        self.scale = value_scale(game)
        self.moves: int = game.move_count()  # type: ignore[attr-defined]

    def __call__(self, state: Any) -> tuple[Mapping[Any, float], float]:
        ((priors, value),) = self.batch([state])
        return priors, value

    def batch(self, states: list[Any]) -> list[tuple[dict[Any, float], float]]:
        game = self.game
        observations = np.stack(
            [
                np.asarray(game.observation(s, game.to_move(s)), np.float32).ravel()  # type: ignore[attr-defined]
                for s in states
            ]
        )
        moves = [list(game.legal_moves(s)) for s in states]
        legal = np.zeros((len(states), self.moves), bool)
        numbers = [[game.move_number(m) for m in ms] for ms in moves]  # type: ignore[attr-defined]
        for row, ns in enumerate(numbers):
            legal[row, ns] = True
        scores, values = forward(self.params, observations, np)
        priors = masked_softmax(scores, legal)
        return [
            (
                {m: float(priors[row, n]) for m, n in zip(ms, ns, strict=True)},
                float(values[row]) * self.scale,
            )
            for row, (ms, ns) in enumerate(zip(moves, numbers, strict=True))
        ]

    def value(self, state: Any) -> float:
        """The network's value of `state` for the player to move, in [-1, 1]."""
        return self(state)[1] / self.scale


@dataclass
class _Game:
    """One game of a batch: its search tree, the position, the examples so far."""

    tree: MCTS
    state: Any
    done: int = 0
    observations: list[np.ndarray] = field(default_factory=list)
    legal: list[np.ndarray] = field(default_factory=list)
    policies: list[np.ndarray] = field(default_factory=list)
    movers: list[int] = field(default_factory=list)


def play(
    game: Game,
    params: Params,
    settings: Settings,
    games: int,
    seed: int,
    *,
    poll: Callable[[], None] | None = None,
) -> Examples:
    """`games` games of self-play side by side, each move searched by `settings.simulations`
    PUCT simulations with the network's answers batched across the games; their examples.
    `poll()`, when given, is called before each simulation of the games: what it raises
    (KeyboardInterrupt, `zerosum.stopping.stop_points`) stops them."""
    evaluation = Evaluation(game, params)
    rng = random.Random(seed)
    moves: int = game.move_count()  # type: ignore[attr-defined]
    scale = evaluation.scale
    playing = [_new_game(game, evaluation, settings, rng.randrange(2**32)) for _ in range(games)]
    finished: list[Examples] = []
    while playing:
        if poll is not None:
            poll()
        waiting = []
        for match in playing:
            path, value = match.tree.descend(_root(match))
            if value is None:
                waiting.append((match, path))
            else:
                match.tree.back_up(path, value)
                match.done += 1
        if waiting:
            answers = evaluation.batch([path[-1].state for _, path in waiting])
            for (match, path), (priors, value) in zip(waiting, answers, strict=True):
                match.tree.back_up(path, match.tree.scored(path[-1], priors, value))
                match.done += 1
        still = []
        for match in playing:
            if match.done < settings.simulations and not _root(match).solved:
                still.append(match)
                continue
            _move(game, match, settings, rng, moves)
            if game.is_terminal(match.state):
                finished.append(_examples(game, match, scale))
            else:
                still.append(match)
        playing = still
    return Examples.joined(finished) if finished else Examples.empty(0, moves)


def _new_game(game: Game, evaluation: Evaluation, settings: Settings, seed: int) -> _Game:
    tree = MCTS(
        game,
        iterations=settings.simulations,
        c=settings.c,
        evaluator=evaluation,
        seed=seed,
    )
    match = _Game(tree, game.initial_state())
    _start(match, settings)
    return match


def _root(match: _Game) -> Any:
    root = match.tree.root
    assert root is not None
    return root


def _start(match: _Game, settings: Settings) -> None:
    """Root the game's tree at its position; noise on the root's priors once it is scored."""
    root = match.tree.start(match.state)
    match.done = 0
    if root.visits == 0:  # score it first: the noise goes on the network's priors
        path, _ = match.tree.descend(root)
        match.tree.back_up(path, match.tree.leaf_value(path[-1]))
        match.done = 1
    match.tree.add_noise(root, settings.noise_alpha, settings.noise_fraction)


def _move(game: Game, match: _Game, settings: Settings, rng: random.Random, moves: int) -> None:
    """Record the position's example and play the move the visits choose."""
    root = _root(match)
    children = root.children or []
    if root.solved:  # the solver proved the position: its best moves are the lesson
        children = [child for child in children if child.solved and child.lower == root.lower]
        visits = np.ones(len(children))
    else:
        visits = np.array([child.visits for child in children], np.float64)
    numbers = [game.move_number(child.move) for child in children]  # type: ignore[attr-defined]
    policy = np.zeros(moves, np.float32)
    policy[numbers] = visits / visits.sum()
    legal = np.zeros(moves, bool)
    legal[numbers] = True
    mover = game.to_move(match.state)
    match.observations.append(
        np.asarray(game.observation(match.state, mover), np.int8).ravel()  # type: ignore[attr-defined]
    )
    match.legal.append(legal)
    match.policies.append(policy)
    match.movers.append(mover)
    if len(match.movers) <= settings.temperature_moves:
        chosen = rng.choices(children, weights=list(visits))[0]
    else:
        chosen = max(children, key=lambda child: child.visits)
    match.state = game.result(match.state, chosen.move)
    if not game.is_terminal(match.state):
        _start(match, settings)


def _examples(game: Game, match: _Game, scale: float) -> Examples:
    """The game's positions with its result for each position's mover, in [-1, 1]."""
    results = [game.utility(match.state, p) / scale for p in (0, 1)]
    if any(not math.isfinite(r) or abs(r) > 1 for r in results):
        raise ValueError(
            f"{type(game).__name__}'s utilities {results} lie outside its value bounds:"
            " self-play learns values in [-1, 1] of them"
        )
    return Examples(
        np.stack(match.observations),
        np.stack(match.legal),
        np.stack(match.policies),
        np.array([results[p] for p in match.movers], np.float32),
    )
