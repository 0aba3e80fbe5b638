"""Compiled PUCT: on the same priors, values and noise it visits every move as often as the
Python PUCT; self-play over it plays the same games as over the Python one from the same
seed; the compiled observations are the Python games' ones.

Compiling PUCT for a game costs a few seconds (once, then numba's cache).
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum.compiled import puct
from zerosum.compiled.mcts_tree import TOTAL
from zerosum.compiled.protocol import compiled_twin
from zerosum.compiled.puct import Forest, supports
from zerosum.games.connect4 import ConnectFour
from zerosum.games.nim import Nim
from zerosum.games.tictactoe import TicTacToe
from zerosum.learn import network, selfplay
from zerosum.search.mcts import MCTS

TICTACTOE = TicTacToe()
CONNECT_FOUR = ConnectFour()
GAMES = {"tictactoe": TICTACTOE, "connect4": CONNECT_FOUR}


def position(game, moves):
    """The position after up to `moves` random moves (chosen by the numbers in `moves`)
    that leave the game going; None if the first move would end it."""
    state = game.initial_state()
    for number in moves:
        legal = game.legal_moves(state)
        following = game.result(state, legal[number % len(legal)])
        if game.is_terminal(following):
            break
        state = following
    return state


def evaluator(game):
    """Priors and a value made from the position's key: arbitrary, but the same for both
    searches, and exact in float32 (what the network's answers are)."""

    def evaluate(state):
        key = game.key(state)
        moves = game.legal_moves(state)
        priors = {move: ((key >> (3 * index)) % 8) / 8 for index, move in enumerate(moves)}
        return priors, ((key * 2654435761) % 65) / 32 - 1

    return evaluate


def python_search(game, state, simulations, c, noise, solver=True):
    """The Python PUCT as self-play runs it: the root scored, noise on its priors, then the
    simulations."""
    tree = MCTS(
        game, iterations=simulations, c=c, evaluator=evaluator(game), seed=noise, solver=solver
    )
    root = tree.start(state)
    path, _ = tree.descend(root)
    tree.back_up(path, tree.leaf_value(path[-1]))
    tree.add_noise(root, 0.3, 0.25)
    for _ in range(simulations):
        tree.iterate(root)
    return [(ch.move, ch.visits, ch.total, ch.lower, ch.upper) for ch in root.children]


def compiled_search(game, state, simulations, c, noise, solver=True):
    """The compiled PUCT on the same answers, one tree."""
    forest = Forest(game, 1, c=c, solver=solver)  # values in the game's utilities: scale 1
    twin = compiled_twin(game).twin
    forest.plant(0, twin.to_words(state))
    evaluate = evaluator(game)
    active = np.ones(1, bool)

    def simulate():
        count = forest.descend(active)
        if count:
            priors = np.zeros((count, game.move_count()), np.float32)
            values = np.zeros(count, np.float32)
            for row, words in enumerate(forest.leaves[:count]):
                leaf = twin.from_words(words)
                answer, values[row] = evaluate(leaf)
                for move, prior in answer.items():
                    priors[row, game.move_number(move)] = prior
            forest.back_up(priors, values)

    simulate()
    forest.add_noise(0, random.Random(noise), 0.3, 0.25)
    for _ in range(simulations):
        simulate()
    return [
        (
            forest.move(0, row),
            forest.visits(0, row),
            float(forest.values[0, row, TOTAL]),
            *forest.bounds(0, row),
        )
        for row in forest.children(0)
    ]


@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from(sorted(GAMES)),
    st.lists(st.integers(0, 100), max_size=30),
    st.integers(1, 120),
    st.sampled_from([0.0, 0.5, 1.5, 4.0]),
    st.integers(0, 2**32),
    st.booleans(),
)
def test_the_compiled_puct_visits_every_move_as_the_python_one(name, moves, sims, c, noise, solver):
    game = GAMES[name]
    state = position(game, moves)
    python = python_search(game, state, sims, c, noise, solver)
    compiled = compiled_search(game, state, sims, c, noise, solver)
    assert compiled == python  # moves in order, visits, totals, proven bounds


def test_a_proven_win_is_found_by_both():
    state = CONNECT_FOUR.parse_state("121212")  # X wins in column 1
    python = python_search(CONNECT_FOUR, state, 50, 1.5, 7)
    compiled = compiled_search(CONNECT_FOUR, state, 50, 1.5, 7)
    assert compiled == python
    assert (0, 1.0) in [(move, lower) for move, _, _, lower, _ in compiled]


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(sorted(GAMES)), st.lists(st.integers(0, 100), max_size=40))
def test_compiled_observations_are_the_python_games(name, moves):
    game = GAMES[name]
    state = position(game, moves)
    compiled = compiled_twin(game)
    for player in (0, 1):
        out = np.full(int(np.prod(game.observation_shape())), 7, np.float32)
        compiled.observe(compiled.twin.to_words(state), player, out)
        assert np.array_equal(out, game.observation(state, player).ravel())


@pytest.mark.parametrize(
    ("name", "games", "simulations", "rows"),
    [("tictactoe", 6, 25, 1024), ("connect4", 4, 30, 1024), ("connect4", 3, 20, 8)],
)
def test_self_play_plays_the_same_games_either_way(monkeypatch, name, games, simulations, rows):
    monkeypatch.setattr(puct, "INITIAL_ROWS", rows)  # 8: the trees grow many times
    game = GAMES[name]
    params = network.initial(network.shape_for(game, (32, 32)), 4)
    plan = selfplay.Settings(simulations=simulations, temperature_moves=3)
    python = selfplay.play(game, params, plan, games, 11, impl="python")
    compiled = selfplay.play(game, params, plan, games, 11, impl="compiled")
    assert len(python) > games * 4
    for field in ("observations", "legal", "policies", "values"):
        assert np.array_equal(getattr(compiled, field), getattr(python, field)), field


def test_auto_is_compiled_where_the_game_has_compiled_rules_with_an_observation():
    assert supports(CONNECT_FOUR) and supports(TICTACTOE)
    assert not supports(Nim((3, 4)))
    assert selfplay.chosen_impl(CONNECT_FOUR, "auto") == "compiled"
    assert selfplay.chosen_impl(CONNECT_FOUR, "python") == "python"
    assert selfplay.chosen_impl(Nim((3, 4)), "auto") == "python"


@pytest.mark.parametrize(
    ("game", "impl", "reason"),
    [
        (Nim((3, 4)), "compiled", "no compiled rules"),
        (CONNECT_FOUR, "numba", "impl must be one of auto, python, compiled"),
    ],
)
def test_an_impl_that_cannot_be_is_refused(game, impl, reason):
    with pytest.raises(ValueError, match=reason):
        selfplay.chosen_impl(game, impl)
    with pytest.raises(ValueError, match=reason):
        selfplay.play(game, {}, selfplay.Settings(), 1, 0, impl=impl)


def test_a_forest_of_a_game_without_compiled_rules_is_refused():
    with pytest.raises(ValueError, match="Nim has no compiled rules with an observation"):
        Forest(Nim((3, 4)), 1)


def test_a_finished_game_is_not_planted():
    over = TICTACTOE.parse_state("XXXOO....")
    with pytest.raises(ValueError, match="the game is over in this position"):
        Forest(TICTACTOE, 1).plant(0, compiled_twin(TICTACTOE).twin.to_words(over))
