"""Compiled Othello: the Python game's rules on random games, perft from the start, and the
compiled engine searching as the Python engine does (same nodes at a fixed depth, same values
as plain alpha-beta to the end).

Compiling the rules, perft and the engine costs about 15 seconds of processor, once a process:
the game and its compiled rules are made once a module.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zerosum.compiled.checked import check
from zerosum.compiled.engine import Engine as CompiledEngine
from zerosum.compiled.perft import perft
from zerosum.compiled.protocol import compiled_twin
from zerosum.compiled.rules import python_rules
from zerosum.games.othello import PASS, Othello
from zerosum.search import alphabeta
from zerosum.search.engine import Engine

GAME = Othello()
PERFT = (1, 4, 12, 56, 244, 1_396, 8_200, 55_092, 390_216, 3_005_288)
"""Lines of each length from the start, passes counted as moves (depths 0 to 9)."""


@pytest.fixture(scope="module")
def rules():
    return python_rules(compiled_twin(GAME))


def random_position(plies, seed):
    rng = random.Random(seed)
    state = GAME.initial_state()
    for _ in range(plies):
        if GAME.is_terminal(state):
            break
        state = GAME.result(state, rng.choice(GAME.legal_moves(state)))
    return state


def empties(state):
    return 64 - (state[0] | state[1]).bit_count()


def late_position(left, seed):
    """A position of a random game with `left` empty squares, not over."""
    while True:
        rng = random.Random(seed)
        state = GAME.initial_state()
        while empties(state) > left and not GAME.is_terminal(state):
            state = GAME.result(state, rng.choice(GAME.legal_moves(state)))
        if not GAME.is_terminal(state) and state[3] != 1 << PASS:
            return state
        seed += 1000


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(choices=st.lists(st.integers(0, 1000), min_size=130, max_size=130))
def test_compiled_othello_equals_the_python_game_on_random_games(rules, choices):
    twin = compiled_twin(GAME).twin
    state = GAME.initial_state()
    words = twin.to_words(state)
    assert rules.words(rules.initial_state()).tolist() == words.tolist()
    for choice in choices:
        assert twin.from_words(words) == state
        mirrored = tuple(int(word) for word in words)
        assert rules.is_terminal(mirrored) == GAME.is_terminal(state)
        assert rules.to_move(mirrored) == GAME.to_move(state)
        assert rules.key(mirrored) == GAME.key(state)
        for player in (0, 1):
            assert rules.evaluate(mirrored, player) == GAME.evaluate(state, player)
        assert rules.noisy_moves(mirrored) == GAME.noisy_moves(state)
        if GAME.is_terminal(state):
            for player in (0, 1):
                assert rules.utility(mirrored, player) == GAME.utility(state, player)
            return
        legal = GAME.legal_moves(state)
        assert rules.legal_moves(mirrored) == legal
        move = legal[choice % len(legal)]
        state = GAME.result(state, move)
        words = np.array(rules.result(mirrored, move), np.uint64)
    raise AssertionError("an Othello game longer than 130 moves")


def test_compiled_othello_passes_the_checked_mode():
    check(compiled_twin(GAME))


def test_positions_that_must_pass_are_a_pass_in_both(rules):
    passes = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = GAME.initial_state()
        while not GAME.is_terminal(state):
            mirrored = tuple(int(word) for word in compiled_twin(GAME).twin.to_words(state))
            if state[3] == 1 << PASS:
                passes += 1
                assert rules.legal_moves(mirrored) == [PASS]
                assert not rules.is_terminal(mirrored)
            state = GAME.result(state, rng.choice(GAME.legal_moves(state)))
        assert rules.is_terminal(tuple(int(w) for w in compiled_twin(GAME).twin.to_words(state)))
    assert passes > 3


def test_perft_from_the_start_gives_the_published_counts_to_depth_9():
    state = GAME.initial_state()
    assert [perft(GAME, state, depth).nodes for depth in range(10)] == list(PERFT)


@pytest.mark.parametrize(
    ("moves", "depth", "switches"),
    [
        ("", 5, {}),
        ("f5d6c3d3c4f4f6f3e6e7", 5, {}),
        ("f5d6c3d3c4f4f6f3e6e7", 4, {"null_window": False, "killers": False}),
        ("f5d6c3d3c4f4f6f3e6e7g4g7e3h3g3b2g6c5g8f2", 4, {}),
        ("f5d6c3d3c4f4f6f3e6e7g4g7e3h3g3b2g6c5g8f2", 4, {"quiescence": False}),
    ],
)
def test_at_fixed_depth_the_compiled_engine_visits_the_python_engines_nodes(moves, depth, switches):
    state = GAME.parse_state(moves)
    python = Engine(GAME, table_mb=4, **switches).search(state, depth=depth)
    compiled = CompiledEngine(GAME, table_mb=4, **switches).search(state, depth=depth)
    assert (compiled.score, compiled.pv, compiled.exact) == (python.score, python.pv, python.exact)
    assert compiled.stats == python.stats
    assert compiled.table == python.table
    assert [(i.depth, i.score, i.pv, i.nodes) for i in compiled.iterations] == [
        (i.depth, i.score, i.pv, i.nodes) for i in python.iterations
    ]


@pytest.mark.parametrize(("left", "seed"), [(10, 1), (10, 2), (11, 3), (12, 5), (12, 6)])
def test_late_positions_searched_to_the_end_have_plain_alphabetas_value(left, seed):
    state = late_position(left, seed)
    result = CompiledEngine(GAME, table_mb=4).search(state)
    assert result.exact
    assert result.value == alphabeta(GAME, state).value
