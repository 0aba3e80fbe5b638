"""Self-play over the compiled PUCT (`zerosum.compiled.puct`): `zerosum.learn.selfplay.play`
with `impl="compiled"`.

The same games as the Python self-play, step for step (read the ideas there): every game
advances one simulation at a time, the new positions of all of them go through the network
(numpy) as one batch, a root never scored is scored alone before its noise, each move is
recorded and chosen by `zerosum.learn.records.Record`. The random draws are the same ones in
the same order (a generator for the moves, one a game for its root noise), so that from the same
`seed` the two play the same games (the tests check it); only the trees live in arrays and
their descents and back-ups in compiled code, a call for all the games at once.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np

from zerosum.compiled.mcts_tree import LOWER, MOVE, UPPER, VISITS
from zerosum.compiled.puct import Forest
from zerosum.game import Game
from zerosum.learn.network import Params, forward, masked_softmax
from zerosum.learn.records import Examples, Record, Settings, value_scale


def play(
    game: Game,
    params: Params,
    settings: Settings,
    games: int,
    seed: int,
    *,
    poll: Callable[[], None] | None = None,
) -> Examples:
    """`games` games of self-play searched by the compiled PUCT (as `selfplay.play`)."""
    scale = value_scale(game)
    forest = Forest(game, games, c=settings.c, scale=scale, simulations=settings.simulations)
    weights = {name: np.asarray(value, np.float32) for name, value in params.items()}
    rng = random.Random(seed)
    noise = [random.Random(rng.randrange(2**32)) for _ in range(games)]
    records = [Record() for _ in range(games)]
    done = np.zeros(games, np.int64)
    active = np.ones(games, bool)
    twin = forest.compiled.twin
    assert twin is not None  # the Forest needs one
    batch = Games(forest, weights, settings, noise, done)
    for tree in range(games):
        forest.plant(tree, twin.to_words(forest.game.initial_state()))
        batch.start(tree)
    finished: list[Examples] = []
    playing = games
    while playing:
        if poll is not None:
            poll()
        if forest.descend(active):
            batch.answer()
        done += active
        for tree in forest.finished(active, done, settings.simulations):
            batch.move(tree, records[tree], rng)
            if forest.over(tree):
                position = forest.root_states[tree]
                results = [float(forest.compiled.utility(position, p)) / scale for p in (0, 1)]
                finished.append(records[tree].examples(game, results))
                active[tree] = False
                playing -= 1
    moves = forest.move_count
    return Examples.joined(finished) if finished else Examples.empty(0, moves)


class Games:
    """The games of one self-play batch, searched in `forest` (a tree each) with the network
    `params`: what they do between the compiled calls (ask the network, start a search, move);
    `noise` has each game's generator of root noise, `done` each search's simulations."""

    def __init__(
        self,
        forest: Forest,
        params: Params,
        settings: Settings,
        noise: list[random.Random],
        done: np.ndarray,
    ) -> None:
        self.forest, self.params, self.settings = forest, params, settings
        self.noise, self.done = noise, done
        self.alone = np.zeros(len(noise), bool)
        self.observation = np.zeros(forest.inputs, np.float32)

    def answer(self) -> None:
        """The network on the positions the forest's descent left waiting, one batch."""
        forest = self.forest
        count = forest.count
        scores, values = forward(self.params, forest.observations[:count], np)
        forest.back_up(masked_softmax(scores, forest.legal[:count]), values)

    def start(self, tree: int) -> None:
        """A search of the tree's root: scored alone first if it never was (the noise goes on
        the network's priors), then its noise."""
        forest = self.forest
        self.done[tree] = 0
        if forest.visits(tree) == 0:
            self.alone[tree] = True
            forest.descend(self.alone)
            self.alone[tree] = False
            self.answer()
            self.done[tree] = 1
        settings = self.settings
        forest.add_noise(tree, self.noise[tree], settings.noise_alpha, settings.noise_fraction)

    def move(self, tree: int, record: Record, rng: random.Random) -> None:
        """Record the root's example, play the move its visits choose, start the search of the
        new position unless the game is over."""
        forest = self.forest
        span = forest.children(tree)
        children = forest.nodes[tree, span.start : span.stop]
        rows, visits = list(span), children[:, VISITS].tolist()
        numbers = forest.numbers[children[:, MOVE]].tolist()
        low, high = forest.bounds(tree)
        if low == high:  # the solver proved the position: its best moves are the lesson
            bounds = forest.values[tree, span.start : span.stop, LOWER : UPPER + 1].tolist()
            best = [index for index, bound in enumerate(bounds) if bound == [low, low]]
            rows, visits, numbers = (
                [rows[i] for i in best], [visits[i] for i in best], [numbers[i] for i in best]
            )  # fmt: skip
            weights = np.ones(len(rows))
        else:
            weights = np.array(visits, np.float64)
        position = forest.root_states[tree]
        mover = int(forest.compiled.to_move(position))
        forest.compiled.observe(position, mover, self.observation)
        index = record.choose(
            self.observation, mover, numbers, weights, visits, forest.move_count, self.settings,
            rng,
        )  # fmt: skip
        forest.move_to(tree, rows[index])
        if not forest.over(tree):
            self.start(tree)
