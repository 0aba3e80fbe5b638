"""Playing Nim in a real pseudo-terminal against Bouton's perfect player."""

from zerosum.games.nim import Nim
from zerosum.players import player_maker


def test_the_program_opens_358_with_bouton_s_move_and_wins(terminal):
    child = terminal.play("nim", "3", "5", "8", "--first", "ai")
    child.expect_exact("The program (first) plays 3:2.")  # (3, 5, 8) -> (3, 5, 6)
    child.expect_exact("heap 3: |||||| (6)")
    child.expect_exact("Your move (second): ")
    child.sendline("3 6")  # (3, 5, 0)
    child.expect_exact("The program (first) plays 2:2.")  # (3, 3, 0)
    child.expect_exact("Your move (second): ")
    child.sendline("1:3")  # (0, 3, 0)
    child.expect_exact("The program (first) plays 2:3.")
    child.expect_exact("first wins: the program wins.")
    assert terminal.exit_status(child) == 0


def test_bad_heap_and_count_are_explained_and_asked_again(terminal):
    child = terminal.play("nim", "3", "5")
    child.expect_exact("Your move (first): ")
    child.sendline("4 1")
    child.expect_exact("there is no heap 4: choose a heap from 1 to 2. Try again.")
    child.sendline("1 9")
    child.expect_exact("heap 1 has 3: take from 1 to 3. Try again.")
    child.sendline("q")
    assert terminal.exit_status(child) == 0


def test_misere_program_leaves_an_odd_number_of_single_objects(terminal):
    child = terminal.play("nim", "1", "1", "3", "--misere", "--first", "ai")
    child.expect_exact("The program (first) plays 3:2.")  # leaves 1 1 1
    child.sendline("q")
    assert terminal.exit_status(child) == 0


def test_perfect_move_from_a_p_position_takes_one_from_the_largest_heap():
    game = Nim((2, 2))
    assert player_maker("perfect", game)(0)(game.initial_state()) == (0, 1)
    misere = Nim((1, 1, 3), misere=True)
    assert player_maker("perfect", misere)(0)(((1, 1, 3), 0)) == (2, 2)
