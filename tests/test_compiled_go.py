"""Go's compiled rules: the Python game's moves, ends and scores on random games of every size
tried, superko kept, the checked mode passed, perft equal, and the compiled MCTS proving a
won pass."""

from __future__ import annotations

import numpy as np
import pytest
from fuzzing import fuzzing
from hypothesis import given
from hypothesis import strategies as st

from zerosum.cli import main
from zerosum.compiled import choice
from zerosum.compiled.checked import check
from zerosum.compiled.mcts import MCTS
from zerosum.games import compiled_go as compiled
from zerosum.games.compiled_go import go_rules
from zerosum.games.go import Go

KO = "...../..XO./.XO.O/..XO./..... X"


def agree(game, rules, state, words):
    """The words and the Python position describe the same game: fields, board, the history's
    boards (as keys, in any order)."""
    assert compiled.to_move(words) == game.to_move(state)
    assert compiled.terminal(words) == game.is_terminal(state)
    assert rules.twin.from_words(words)[:5] == state[:5]
    mapped = rules.twin.to_words(state)
    history = compiled.POINTS + 2 * game.points + 1
    seen = int(words[compiled.SEEN])
    assert mapped[:history].tolist() == words[:history].tolist()
    assert sorted(mapped[history : history + seen]) == sorted(words[history : history + seen])


@fuzzing(40)
@given(
    size=st.sampled_from([5, 6, 7, 9]),
    komi=st.sampled_from([0, 0.5, 7.5, -3]),
    choices=st.lists(st.integers(0, 10**6), max_size=300),
)
def test_the_compiled_rules_are_the_python_rules_on_random_games(size, komi, choices):
    game = Go(size=size, komi=komi)
    rules = go_rules(game)
    state, words = game.initial_state(), rules.initial_words()
    out = np.empty(rules.max_moves, np.int64)
    plies = 0
    while True:
        agree(game, rules, state, words)
        legal = game.legal_moves(state)
        assert out[: compiled.moves(words, out)].tolist() == legal
        if not legal:
            break
        choice_ = choices[plies] if plies < len(choices) else plies * 7919
        move = legal[choice_ % len(legal)]
        child = np.zeros(rules.words, np.uint64)
        compiled.play(words, move, child)
        state, words = game.result(state, move), child
        plies += 1
    for player in (0, 1):
        assert compiled.utility(words, player) == game.utility(state, player)
    assert compiled.area(words) == game.area(state)


def test_the_compiled_rules_refuse_the_ko_retake_and_allow_it_later():
    game = Go(size=5)
    rules = go_rules(game)
    out = np.empty(rules.max_moves, np.int64)
    taken = game.result(game.parse_state(KO), game.point_of("D3"))
    words = rules.twin.to_words(taken)
    assert game.point_of("C3") not in out[: compiled.moves(words, out)].tolist()
    later = game.parse_state(KO)
    for text in ("D3", "A1", "A5"):
        later = game.result(later, game.point_of(text))
    words = rules.twin.to_words(later)
    assert game.point_of("C3") in out[: compiled.moves(words, out)].tolist()


def test_the_compiled_rules_pass_the_checked_mode():
    check(go_rules(Go(size=5)), games=2)


def test_perft_counts_the_python_games_lines(capsys):
    game = Go(size=5)

    def perft(state, depth):
        if depth == 0:
            return 1
        return sum(perft(game.result(state, move), depth - 1) for move in game.legal_moves(state))

    assert main(["perft", "go", "--size", "5", "--depth", "3"]) == 0
    assert f"nodes {perft(game.initial_state(), 3):,}" in capsys.readouterr().out


def test_go_is_searched_by_the_compiled_mcts_by_default():
    assert choice.implementation(Go()) == "compiled"


def test_the_compiled_mcts_proves_that_passing_wins():
    # White has passed; Black leads by 3 points to 1 on area (the empty region touches both),
    # so Black's pass ends the game won: the solver proves it
    game = Go(size=5, komi=0.5)
    state = game.result(game.parse_state("...../...../.XXX./...../....O O"), game.pass_move)
    assert game.score(state) > 0
    result = MCTS(game, iterations=2000, seed=1).search(state)
    assert result.best_move == game.pass_move
    assert result.value == 1 and result.proven


@pytest.mark.parametrize("size", [5, 9, 19])
def test_words_fit_every_board(size):
    rules = go_rules(Go(size=size))
    points = size * size
    assert rules.words == compiled.POINTS + 2 * points + 1 + 3 * points + 1
    assert rules.max_moves == rules.move_space == points + 1
    assert rules.max_plies == 3 * points
