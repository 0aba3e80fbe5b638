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

That is the Python search. Where the game has compiled rules with an observation, `play`
runs the compiled one instead (`impl`, `IMPLS`: `zerosum.learn.selfplay_compiled` over
`zerosum.compiled.puct`), every tree in arrays and a compiled call for all the descents or
all the back-ups; it plays the same games from the same seed, the moves recorded and chosen
alike (`zerosum.learn.records`), and the Python search is what it is held to. There the
network is about two fifths of what a position costs (Connect Four, 64 games:
`benchmarks/selfplay_speed.py`).

`Evaluation` is the same network for one position at a time: the evaluator of the `az`
player (`zerosum.learn.player`) and of the engine's learned evaluation.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from zerosum.game import Game
from zerosum.learn.network import Params, forward, masked_softmax
from zerosum.learn.records import Examples, Record, Settings, value_scale
from zerosum.search.mcts import MCTS


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


IMPLS = ("auto", "python", "compiled")
"""Which search self-play runs: `compiled` (`zerosum.compiled.puct`, many trees in arrays),
`python` (`zerosum.search.mcts`), or `auto`: compiled when the game has compiled rules with
an observation (`zerosum.compiled.puct.supports`), else Python."""


def chosen_impl(game: Game, impl: str) -> str:
    """`python` or `compiled`: the search `impl` (one of `IMPLS`) asks for `game`; ValueError
    for another name, or for `compiled` when the game has no compiled rules to search."""
    if impl not in IMPLS:
        raise ValueError(f"impl must be one of {', '.join(IMPLS)}, got {impl!r}")
    if impl == "python":
        return impl
    from zerosum.compiled.puct import supports

    if supports(game):
        return "compiled"
    if impl == "compiled":
        raise ValueError(
            f"{type(game).__name__} has no compiled rules with an observation: self-play"
            " searches it with impl python (or auto)"
        )
    return "python"


@dataclass
class _Game:
    """One game of a batch: its search tree, the position, the examples so far."""

    tree: MCTS
    state: Any
    done: int = 0
    record: Record = field(default_factory=Record)


def play(
    game: Game,
    params: Params,
    settings: Settings,
    games: int,
    seed: int,
    *,
    poll: Callable[[], None] | None = None,
    impl: str = "auto",
) -> Examples:
    """`games` games of self-play side by side, each move searched by `settings.simulations`
    PUCT simulations with the network's answers batched across the games; their examples.
    `impl` chooses the search (`IMPLS`): both play the same games from the same `seed` (where
    the compiled rules list the moves in the Python game's order, as the built-in games do).
    `poll()`, when given, is called before each simulation of the games: what it raises
    (KeyboardInterrupt, `zerosum.stopping.stop_points`) stops them."""
    if chosen_impl(game, impl) == "compiled":
        from zerosum.learn import selfplay_compiled

        return selfplay_compiled.play(game, params, settings, games, seed, poll=poll)
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
                results = [game.utility(match.state, p) / scale for p in (0, 1)]
                finished.append(match.record.examples(game, results))
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
        weights = np.ones(len(children))
    else:
        weights = np.array([child.visits for child in children], np.float64)
    visits = [child.visits for child in children]
    numbers = [game.move_number(child.move) for child in children]  # type: ignore[attr-defined]
    mover = game.to_move(match.state)
    observation = game.observation(match.state, mover)  # type: ignore[attr-defined]
    record = match.record
    index = record.choose(observation, mover, numbers, weights, visits, moves, settings, rng)
    match.state = game.result(match.state, children[index].move)
    if not game.is_terminal(match.state):
        _start(match, settings)
