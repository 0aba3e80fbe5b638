"""Compiled games: the same rules as their Python twins on random games, and the checked mode
naming the function of a game that breaks the protocol.

Compiling the rules costs a few seconds a game size (numba, once a process): the games are
made once a module.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numba import njit

from zerosum.compiled.checked import check
from zerosum.compiled.protocol import CompiledGame, compiled_twin
from zerosum.compiled.rules import python_rules
from zerosum.games.compiled_tictactoe import initial, key, moves, play, terminal, to_move, utility
from zerosum.games.connect4 import ConnectFour
from zerosum.games.tictactoe import TicTacToe

SIZES = [(7, 6, 4), (5, 4, 3), (1, 63, 5)]  # the standard board, a line of 3, shifts of 64
GAMES = [TicTacToe(), *(ConnectFour(*size) for size in SIZES)]


@pytest.fixture(scope="module", params=GAMES, ids=lambda game: type(game).__name__)
def twins(request):
    game = request.param
    return game, python_rules(compiled_twin(game))


def same_rules_along(game, rules, choices):
    """Play `game` and its compiled rules side by side, choosing moves by `choices`; assert
    they agree at every position."""
    state = game.initial_state()
    compiled = compiled_twin(game)
    words = compiled.twin.to_words(state)
    assert rules.words(rules.initial_state()).tolist() == words.tolist()
    for choice in choices:
        assert rules.words(compiled.twin.to_words(state)).tolist() == words.tolist()
        assert compiled.twin.from_words(words) == state
        mirrored = tuple(int(word) for word in words)
        assert rules.is_terminal(mirrored) == game.is_terminal(state)
        assert rules.to_move(mirrored) == game.to_move(state)
        assert rules.key(mirrored) == game.key(state)
        if hasattr(game, "evaluate"):
            for player in (0, 1):
                assert rules.evaluate(mirrored, player) == game.evaluate(state, player)
            assert rules.noisy_moves(mirrored) == list(game.noisy_moves(state))
        if game.is_terminal(state):
            for player in (0, 1):
                assert rules.utility(mirrored, player) == game.utility(state, player)
            return
        legal = list(game.legal_moves(state))
        assert rules.legal_moves(mirrored) == legal
        move = legal[choice % len(legal)]
        state = game.result(state, move)
        words = np.array(rules.result(mirrored, move), np.uint64)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(choices=st.lists(st.integers(0, 1000), min_size=70, max_size=70))
def test_compiled_rules_equal_the_python_game_on_random_games(twins, choices):
    game, rules = twins
    same_rules_along(game, rules, choices)


def test_compiled_tictactoe_searched_by_python_alphabeta_gives_the_textbook_count():
    from zerosum.search import alphabeta

    rules = python_rules(compiled_twin(TicTacToe()))
    result = alphabeta(rules, rules.initial_state())
    assert (result.value, result.stats.terminals) == (0, 7330)


def test_compiled_games_pass_the_checked_mode():
    for game in GAMES:
        check(compiled_twin(game))


def test_compiled_twin_finds_the_rules_of_a_python_game():
    assert compiled_twin(TicTacToe()).name == "tictactoe"
    assert compiled_twin(object()) is None
    rules = compiled_twin(TicTacToe())
    assert compiled_twin(rules) is rules


def test_a_board_wider_than_64_bits_is_refused():
    with pytest.raises(ValueError, match="does not fit in 64 bits"):
        compiled_twin(ConnectFour(9, 7))


@njit
def moves_out_of_bounds(state, out):
    count = 0
    for square in range(10):  # one square past the nine
        out[count] = square
        count += 1
    return count


@njit
def moves_none(state, out):
    return 0


@njit
def play_in_place(state, move, child):
    state[0] |= np.uint64(1) << np.uint64(move)
    child[0] = state[0]
    child[1] = state[1]


@njit
def utility_not_zero_sum(state, player):
    return 1


def broken(**functions):
    rules = dict(
        initial=initial, to_move=to_move, moves=moves, play=play, terminal=terminal,
        utility=utility, key=key,
    )  # fmt: skip
    rules.update(functions)
    return CompiledGame("broken", 2, 9, 9, 9, **rules)


@pytest.mark.parametrize(
    ("functions", "message"),
    [
        ({"moves": moves_out_of_bounds}, r"broken: moves failed \(run from Python\): IndexError"),
        ({"moves": moves_none}, "moves returned 0 for a state that is not terminal"),
        ({"play": play_in_place}, "play changed the state it was given"),
        ({"utility": utility_not_zero_sum}, "utility is not zero-sum"),
    ],
)
def test_checked_mode_names_the_function_that_breaks_the_protocol(functions, message):
    with pytest.raises(ValueError, match=message):
        check(broken(**functions))


def test_a_function_that_is_not_compiled_is_refused():
    with pytest.raises(ValueError, match="broken: key must be a numba-compiled function"):
        broken(key=lambda state: 0)


def test_a_search_given_a_game_that_breaks_its_rules_refuses_it_before_compiling():
    from zerosum.compiled.engine import Engine

    with pytest.raises(ValueError, match="broken: moves returned 0"):
        Engine(broken(moves=moves_none))
