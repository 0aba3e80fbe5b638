"""Playing tic-tac-toe in a real pseudo-terminal: moves, a bad move, end of input, Ctrl-C."""

import pytest

from zerosum.cli.play import human_side


def test_a_full_game_against_the_program_ends_in_its_win_after_a_blunder(terminal):
    child = terminal.play("tictactoe")
    child.expect_exact("Your move (X): ")
    child.sendline("0")
    child.expect_exact("The program (O) plays 4.")
    child.expect_exact("Your move (X): ")
    child.sendline("1")  # the program must block at 2
    child.expect_exact("The program (O) plays 2.")
    child.expect_exact("Your move (X): ")
    child.sendline("3")  # ignores O's diagonal 2-4-6
    child.expect_exact("The program (O) plays 6.")
    child.expect_exact("O wins: the program wins.")
    assert terminal.exit_status(child) == 0


def test_an_occupied_square_and_a_word_are_explained_and_asked_again(terminal):
    child = terminal.play("tictactoe")
    child.expect_exact("Your move (X): ")
    child.sendline("4")
    child.expect_exact("The program (O) plays 0.")
    child.expect_exact("Your move (X): ")
    child.sendline("4")
    child.expect_exact("square 4 is already taken. Try again.")
    child.expect_exact("Your move (X): ")
    child.sendline("centre")
    child.expect_exact("'centre' is not a square: type a number from 0 to 8. Try again.")
    child.expect_exact("Your move (X): ")
    child.sendline("8")
    child.expect_exact("The program (O) plays")
    child.sendline("q")
    assert terminal.exit_status(child) == 0


def test_end_of_input_mid_game_leaves_cleanly_with_exit_code_0(terminal):
    child = terminal.play("tictactoe", "--first", "ai")
    child.expect_exact("The program (X) plays 4.")
    child.expect_exact("Your move (O): ")
    child.sendeof()
    child.expect_exact("Game left unfinished.")
    assert terminal.exit_status(child) == 0
    assert "Traceback" not in child.before


def test_ctrl_c_leaves_with_exit_code_130_and_no_traceback(terminal):
    child = terminal.play("tictactoe", "--as", "O")
    child.expect_exact("Your move (O): ")
    child.sendintr()
    assert terminal.exit_status(child) == 130
    assert "Traceback" not in child.before


def test_a_perfect_program_never_loses_to_any_human_line():
    from zerosum import players, registry
    from zerosum.games.tictactoe import TicTacToe

    game = TicTacToe()
    entry = registry.entry_of(game)
    ai = players.player_maker(registry.default_player(entry, game), game)(0)

    def worst_case(state, human):
        """The best result the human can force against the program, from the human's side."""
        if game.is_terminal(state):
            return game.utility(state, human)
        if game.to_move(state) != human:
            return worst_case(game.result(state, ai(state)), human)
        return max(worst_case(game.result(state, m), human) for m in game.legal_moves(state))

    assert worst_case(game.initial_state(), 0) == 0
    assert worst_case(game.initial_state(), 1) == 0


@pytest.mark.parametrize(
    ("first", "mark", "side"),
    [(None, None, 0), ("ai", None, 1), ("human", None, 0), (None, "o", 1), ("ai", "O", 1)],
)
def test_first_and_as_choose_the_humans_side(first, mark, side):
    assert human_side(first, mark, ("X", "O")) == side
