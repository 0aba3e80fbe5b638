"""The seeds' tic-tac-toe experiments, count for count."""

from zerosum.games.tictactoe import TicTacToe
from zerosum.search import alphabeta, minimax

GAME = TicTacToe()
EMPTY = GAME.initial_state()


def test_minimax_reaches_255168_finished_games_and_a_draw():
    result = minimax(GAME, EMPTY)
    assert result.value == 0
    assert result.stats.terminals == 255_168


def test_alphabeta_square_order_reaches_7330_finished_games():
    result = alphabeta(GAME, EMPTY)
    assert result.value == 0
    assert result.stats.terminals == 7_330
