"""Tic-tac-toe: the textbook's numbers, count for count, and the rules."""

import random

import pytest

from zerosum.games.tictactoe import TicTacToe
from zerosum.search import alphabeta, by_priority, minimax, negamax

GAME = TicTacToe()
EMPTY = GAME.initial_state()
CENTRE_AND_CORNERS = [4, 0, 2, 6, 8, 1, 3, 5, 7]
EDGES_FIRST = [1, 3, 5, 7, 0, 2, 6, 8, 4]


def leaves_in_order(order):
    return alphabeta(GAME, EMPTY, order=by_priority(order)).stats.terminals


@pytest.mark.parametrize("search", [minimax, negamax], ids=["minimax", "negamax"])
def test_minimax_and_negamax_reach_255168_finished_games_and_a_draw(search):
    result = search(GAME, EMPTY)
    assert result.value == 0
    assert result.stats.terminals == 255_168


def test_alphabeta_square_order_reaches_7330_games_34_8_times_fewer():
    result = alphabeta(GAME, EMPTY)
    assert result.value == 0
    assert result.stats.terminals == 7_330
    assert round(255_168 / result.stats.terminals, 1) == 34.8


def test_centre_and_corners_first_reaches_2893_and_edges_first_17002():
    assert leaves_in_order(CENTRE_AND_CORNERS) == 2_893
    assert leaves_in_order(EDGES_FIRST) == 17_002


def test_twenty_random_orders_range_from_2603_to_13358_and_one_beats_the_reasoned_order():
    counts = []
    for seed in range(20):
        order = list(range(9))
        random.Random(seed).shuffle(order)
        counts.append(leaves_in_order(order))
    assert (min(counts), max(counts)) == (2_603, 13_358)
    assert sum(count < 2_893 for count in counts) == 1


def test_5478_distinct_positions_are_reachable_from_the_empty_board():
    seen = {GAME.key(EMPTY)}
    frontier = [EMPTY]
    while frontier:
        state = frontier.pop()
        for move in GAME.legal_moves(state):
            child = GAME.result(state, move)
            if GAME.key(child) not in seen:
                seen.add(GAME.key(child))
                frontier.append(child)
    assert len(seen) == 5_478


def test_in_xox_o_only_bottom_centre_holds_the_draw():
    state = GAME.parse_state("XOX.O....")
    assert GAME.to_move(state) == 0
    values = {
        move: -alphabeta(GAME, GAME.result(state, move)).value for move in GAME.legal_moves(state)
    }
    assert values == {3: -1, 5: -1, 6: -1, 7: 0, 8: -1}
    assert alphabeta(GAME, state).best_move == 7


def test_the_textbook_tutorial_positions():
    # X to move after X0 O1: the only forced result is a win for X, starting with square 3 or 4
    state = GAME.parse_state("XO.......")
    assert alphabeta(GAME, state).value == 1
    # X0 O1 X3 O4: X completes the left column at 6
    state = GAME.parse_state("XO.XO....")
    assert alphabeta(GAME, state, distance=True).best_move == 6


def test_distance_aware_search_takes_the_quickest_win_and_reports_its_plies():
    # X can win at once on 2 (top row), or later; plain search takes the first winning square
    state = GAME.parse_state("XX.OO....")
    quick = alphabeta(GAME, state, distance=True)
    assert (quick.value, quick.best_move, quick.plies) == (1, 2, 1)


def test_distance_aware_search_delays_a_loss():
    # O to move after X0 O1 X4 loses whatever it does; only blocking at 8 lasts four plies
    state = GAME.parse_state("XO..X....")
    result = alphabeta(GAME, state, distance=True)
    assert (result.value, result.best_move, result.plies) == (-1, 8, 4)
    assert len(result.pv) == 4


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("XOX", "nine characters"),
        ("XOX.O...Z", "nine characters"),
        ("OO.......", "as many marks"),
        ("XXX......", "as many marks"),
        ("XXXOOO...", "both sides"),
        ("XXXOO.O..", "after the game was won"),
    ],
)
def test_malformed_positions_are_refused_with_the_reason(text, reason):
    with pytest.raises(ValueError, match=reason):
        GAME.parse_state(text)


def test_moves_text_names_the_problem():
    state = GAME.parse_state("X........")
    with pytest.raises(ValueError, match="already taken"):
        GAME.parse_move(state, "0")
    with pytest.raises(ValueError, match="from 0 to 8"):
        GAME.parse_move(state, "nine")
    assert GAME.parse_move(state, " 4 ") == 4


def test_a_won_position_has_no_moves_and_scores_for_the_winner():
    state = GAME.parse_state("XXXOO....")
    assert GAME.is_terminal(state)
    assert GAME.legal_moves(state) == ()
    assert GAME.utility(state, 0) == 1 and GAME.utility(state, 1) == -1
    assert GAME.winner(state) == 0
