"""Nim by Bouton, normal and misère, against the exact search; the textbook's numbers."""

from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum.games.nim import Nim
from zerosum.search import alphabeta, minimax
from zerosum.theory.impartial import Grundy, count_plays, nim_sum
from zerosum.theory.nim import NimHeaps, NimMove, outcome, winning_move


def searched_outcome(heaps, misere=False):
    game = Nim(heaps, misere)
    return "N" if alphabeta(game, game.initial_state()).value > 0 else "P"


def test_all_120_positions_of_three_heaps_up_to_7_agree_with_alphabeta():
    positions = list(combinations_with_replacement(range(8), 3))
    assert len(positions) == 120
    assert all(searched_outcome(p) == outcome(p) for p in positions)


def test_nim_358_winning_move_takes_2_from_the_8_leaving_356():
    assert nim_sum((3, 5, 8)) == 14
    assert winning_move((3, 5, 8)) == NimMove(heap=2, remove=2, result=(3, 5, 6))
    assert nim_sum((3, 5, 6)) == 0


def test_nim_9_19_26_is_p_and_25_15_18_is_n():
    assert outcome((9, 19, 26)) == "P"
    assert winning_move((9, 19, 26)) is None
    assert outcome((25, 15, 18)) == "N"


def test_nim_18_45_53_goes_to_18_39_53():
    assert winning_move((18, 45, 53)) == NimMove(heap=1, remove=6, result=(18, 39, 53))


def test_51823082_distinct_games_from_358_by_a_memoised_count():
    assert count_plays(NimHeaps(), (3, 5, 8)) == 51_823_082


def test_nim_heaps_grundy_value_is_the_nim_sum():
    grundy = Grundy(NimHeaps())
    assert grundy((3, 5, 8)) == 14
    assert grundy((7,)) == 7


heap_lists = st.lists(st.integers(0, 60), min_size=1, max_size=6)


@given(heap_lists)
def test_bouton_move_always_leaves_xor_0(heaps):
    move = winning_move(heaps)
    if nim_sum(heaps) == 0:
        assert move is None
    else:
        assert 1 <= move.remove <= heaps[move.heap]
        assert nim_sum(move.result) == 0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=1, max_size=3))
def test_misere_nim_agrees_with_alphabeta(heaps):
    assert outcome(heaps, misere=True) == searched_outcome(heaps, misere=True)


@given(st.lists(st.integers(0, 9), min_size=1, max_size=6))
def test_misere_winning_move_leaves_a_misere_p_position(heaps):
    move = winning_move(heaps, misere=True)
    if outcome(heaps, misere=True) == "P" or not any(heaps):
        assert move is None
    else:
        assert 1 <= move.remove <= heaps[move.heap]
        assert outcome(move.result, misere=True) == "P"


def test_misere_differs_only_when_no_heap_has_more_than_one():
    assert outcome((1, 1, 1), misere=True) == "P" and outcome((1, 1, 1)) == "N"
    assert outcome((1, 1), misere=True) == "N" and outcome((1, 1)) == "P"
    assert outcome((0, 0), misere=True) == "N"
    assert outcome((2, 2), misere=True) == "P" == outcome((2, 2))
    assert winning_move((1, 1, 5), misere=True).result == (1, 1, 1)
    assert winning_move((1, 5), misere=True).result == (1, 0)


@pytest.mark.parametrize("heaps", [(-1, 3), (2.5,), ("3",)])
def test_heap_sizes_must_be_non_negative_integers(heaps):
    with pytest.raises(ValueError, match="non-negative integer"):
        outcome(heaps)


def test_nim_game_reads_heap_and_count_one_based():
    game = Nim((3, 5, 8))
    state = game.initial_state()
    assert game.parse_move(state, "2 3") == (1, 3)
    assert game.parse_move(state, " 3:8 ") == (2, 8)
    assert game.format_move(state, (1, 3)) == "2:3"
    assert game.result(state, (1, 3)) == ((3, 2, 8), 1)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("4 1", "there is no heap 4: choose a heap from 1 to 3"),
        ("0 1", "there is no heap 0"),
        ("1 4", "heap 1 has 3: take from 1 to 3"),
        ("1 0", "heap 1 has 3: take from 1 to 3"),
        ("2", "is not a move"),
        ("a b", "is not a move"),
        ("4 empty", "is not a move"),
        ("² 1", "is not a move"),
    ],
)
def test_nim_game_explains_a_bad_move(text, reason):
    game = Nim((3, 5, 8))
    with pytest.raises(ValueError, match=reason):
        game.parse_move(game.initial_state(), text)


def test_nim_game_refuses_a_move_from_an_empty_heap():
    game = Nim((0, 2))
    with pytest.raises(ValueError, match="heap 1 is empty"):
        game.parse_move(game.initial_state(), "1 1")


def test_nim_game_renders_heaps_with_numbers_and_sizes():
    game = Nim((3, 0, 5))
    assert game.render(game.initial_state()) == "heap 1: ||| (3)\nheap 2: - (0)\nheap 3: ||||| (5)"


def test_nim_game_parses_a_position():
    assert Nim().parse_state("3, 5 8") == ((3, 5, 8), 0)
    with pytest.raises(ValueError, match="non-negative integer"):
        Nim().parse_state("3 -5")


def test_nim_game_utilities_normal_and_misere():
    end = ((0, 0), 1)  # player 0 took the last object
    assert Nim((1, 1)).utility(end, 0) == 1
    assert Nim((1, 1), misere=True).utility(end, 0) == -1


def test_count_plays_equals_the_finished_games_minimax_reaches():
    game = Nim((1, 2, 3))
    assert minimax(game, game.initial_state()).stats.terminals == count_plays(NimHeaps(), (1, 2, 3))
