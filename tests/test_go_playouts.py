"""Go's playout policy (`Go.playout_moves`, `compiled_go.playout_move`): simple eyes on boards
written out, the compiled policy drawing from the Python policy's moves, playouts that end by
two passes, and the compiled MCTS with either kind of playout."""

from __future__ import annotations

import numpy as np
import pytest
from fuzzing import fuzzing
from hypothesis import given
from hypothesis import strategies as st

from zerosum.cli import main
from zerosum.compiled import choice
from zerosum.compiled.mcts import MCTS
from zerosum.compiled.protocol import PLAYOUTS
from zerosum.games import compiled_go as compiled
from zerosum.games.compiled_go import go_rules
from zerosum.games.go import Go

SMALL = Go(size=5)
BLACK, WHITE = 0, 1


def eyes(game, text, player):
    """The names of the points that are simple eyes of `player` on the board `text`."""
    state = game.parse_state(text)
    return {game.point_name(p) for p in range(game.points) if game.is_eye(state, p, player)}


def draws(words, rng, times):
    """The moves the compiled policy draws in `words`, `times` times."""
    return {int(compiled.playout_move(words, rng)) for _ in range(times)}


def test_a_point_ringed_by_own_stones_is_an_eye_inside_the_board():
    ring = "...../..X../.X.X./..X../..... O"
    assert eyes(SMALL, ring, BLACK) == {"C3"}
    assert eyes(SMALL, ring, WHITE) == set()
    # one White stone on a diagonal leaves it an eye; two make it a false eye
    assert eyes(SMALL, "...../.OX../.X.X./..X../..... O", BLACK) == {"C3"}
    assert eyes(SMALL, "...../.OX../.X.X./..XO./..... O", BLACK) == set()


def test_an_edge_or_corner_point_is_an_eye_only_with_no_opponent_on_a_diagonal():
    assert eyes(SMALL, "...../...../...../XXXX./.X.X. O", BLACK) == {"A1", "C1"}
    # a White stone on C1's diagonal D2 makes C1 a false eye: the corner A1 stays one
    assert eyes(SMALL, "...../...../...../XXXO./.X.X. O", BLACK) == {"A1"}
    # one on B2, the corner's only diagonal and one of C1's, makes both false eyes
    assert eyes(SMALL, "...../...../...../XOXX./.X.X. O", BLACK) == set()


def test_a_point_with_an_empty_or_opponent_neighbour_is_no_eye():
    assert eyes(SMALL, "...../..X../.X.../..X../..... O", BLACK) == set()
    assert eyes(SMALL, "...../..X../.X.O./..X../..... O", BLACK) == set()


def test_the_policy_plays_into_a_false_eye_and_into_the_opponents_eye():
    # C1 is ringed by Black, but White holds both its diagonals B2 and D2: a false eye
    false_eye = SMALL.parse_state("...../...../...../.OXO./XX.X. X")
    assert SMALL.point_of("C1") in SMALL.playout_moves(false_eye)
    # A1 is White's eye (A2, B1, and the diagonal B2 White), whose group has no other liberty:
    # Black takes it there, White never fills it
    theirs = "...../...../XX.../OOX../.OX.. X"
    assert SMALL.is_eye(SMALL.parse_state(theirs), 0, WHITE)
    assert 0 in SMALL.playout_moves(SMALL.parse_state(theirs))
    assert 0 not in SMALL.playout_moves(SMALL.parse_state(theirs[:-1] + "O"))


def test_the_policy_passes_only_when_every_legal_stone_fills_an_own_eye():
    # Black's two eyes, A1 and C1, are the only empty points, and both legal for Black
    text = "XXXXX/XXXXX/XXXXX/XXXXX/.X.XX X"
    state = SMALL.parse_state(text)
    assert SMALL.legal_moves(state) == [0, 2, SMALL.pass_move]
    assert SMALL.playout_moves(state) == [SMALL.pass_move]
    words = go_rules(SMALL).twin.to_words(state)
    rng = np.array([1], np.uint64)
    assert draws(words, rng, 20) == {SMALL.pass_move}
    # a stone of White's in either takes nothing and has no liberty: White may only pass
    white = SMALL.parse_state(text[:-1] + "O")
    assert SMALL.legal_moves(white) == SMALL.playout_moves(white) == [SMALL.pass_move]


@fuzzing(25)
@given(size=st.sampled_from([5, 6, 7, 9]), start=st.integers(1, 2**62))
def test_the_compiled_policy_draws_from_the_python_policys_moves(size, start):
    """Along a game the compiled policy plays, each draw is one of `Go.playout_moves`, every
    one of them is drawn when they are few, and both agree on every point's eyes."""
    game = Go(size=size)
    rules = go_rules(game)
    rng = np.array([start], np.uint64)
    state = game.initial_state()
    while not game.is_terminal(state):
        words = rules.twin.to_words(state)
        allowed = set(game.playout_moves(state))
        drawn = draws(words, rng, 40)
        assert drawn <= allowed
        if len(allowed) <= 3:
            assert drawn == allowed
        for point in range(game.points):
            for player in (BLACK, WHITE):
                assert compiled.is_eye(words, point, player + 1) == game.is_eye(
                    state, point, player
                )
        state = game.result(state, int(compiled.playout_move(words, rng)))


@pytest.mark.parametrize("size", [5, 7, 9])
def test_playouts_end_by_two_passes_with_every_empty_point_an_eye_or_illegal(size):
    game = Go(size=size)
    rules = go_rules(game)
    rng = np.array([size], np.uint64)
    for _ in range(10):
        state = game.initial_state()
        while not game.is_terminal(state):
            move = int(compiled.playout_move(rules.twin.to_words(state), rng))
            before, state = state, game.result(state, move)
        assert state.passes == 2 and state.played < game.move_limit
        assert game.playout_moves(before) == [game.pass_move]


@pytest.mark.parametrize("playouts", PLAYOUTS)
def test_the_compiled_mcts_proves_that_passing_wins_with_either_playouts(playouts):
    # as in test_compiled_go: White has passed and Black leads, so Black's pass wins
    game = Go(size=5, komi=0.5)
    state = game.result(game.parse_state("...../...../.XXX./...../....O O"), game.pass_move)
    result = MCTS(game, iterations=2000, seed=1, playouts=playouts).search(state)
    assert result.best_move == game.pass_move
    assert result.value == 1 and result.proven


def test_unknown_playouts_are_refused():
    with pytest.raises(ValueError, match="playouts must be one of game, random, got 'eyes'"):
        MCTS(SMALL, iterations=10, playouts="eyes")
    with pytest.raises(ValueError, match="compiled MCTS's option"):
        choice.mcts(SMALL, "python", iterations=10, playouts="random")


def test_the_command_line_refuses_unknown_playouts_in_one_line(capsys):
    spec = "mcts:iterations=10,playouts=eyes"
    assert main(["match", "go", "--size", "5", "--a", spec, "--b", "random"]) == 2
    error = capsys.readouterr().err.strip()
    assert "bad value 'eyes' for mcts option 'playouts': game or random" in error
    assert len(error.splitlines()) == 1
