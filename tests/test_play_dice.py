"""Playing the dice games: Pig against the solved policy, backgammon against expectiminimax."""

import itertools


def test_pig_game_to_10_runs_to_the_end_with_dice_and_an_explained_hold(cli):
    answers = itertools.chain(["h", "walk"], itertools.cycle(["r", "r", "h"]))
    code, out, _ = cli("play", "pig", "--target", "10", "--seed", "4", answers=answers)
    assert code == 0
    assert "You are P0, the program is P1." in out
    assert "you cannot hold before rolling at least once this turn. Try again." in out
    assert "'walk' is not a move: type roll (r) or hold (h). Try again." in out
    assert "Chance: rolled " in out
    assert "wins: you win!" in out or "wins: the program wins." in out


def test_pig_program_at_a_depth_plays_by_expectiminimax(cli):
    argv = ["play", "pig", "--target", "8", "--depth", "2", "--first", "ai", "--seed", "1"]
    code, out, _ = cli(*argv, answers=itertools.cycle(["r", "h"]))
    assert code == 0
    assert "The program (P0) plays roll." in out


def test_pig_target_must_be_a_number(cli):
    message = "pig option target: target must be an integer, got 'many'"
    assert message in cli.error("play", "pig", "--target", "many")
    assert message in cli.error("play", "pig(target=many)")


def test_backgammon_shows_the_dice_and_explains_an_illegal_move(cli):
    answers = ["24/18", "24/13", "q"]
    code, out, _ = cli("play", "backgammon", "--seed", "2", answers=answers)
    assert code == 0  # X opens with 6-5 on this seed
    assert "X rolled 6-5" in out
    assert "you must play 2 dice here, not 1. Try again." in out
    assert "The program (O) plays" in out
    assert "Game left unfinished." in out


def test_backgammon_draws_the_board_once_a_turn_with_the_dice_on_it(cli):
    code, out, _ = cli("play", "backgammon", "--seed", "2", answers=["24/13", "q"])
    assert code == 0
    boards = out.count(" 13  14  15  16  17  18")
    assert boards == out.count("Chance: rolled ") == 3  # X's opening, O's reply, X's second turn
    assert "to roll" not in out  # no board is drawn while the dice are still to be rolled


def test_pig_draws_the_board_once_before_each_decision(cli):
    answers = ["r", "r", "r", "q"]
    code, out, _ = cli("play", "pig", "--target", "10", "--seed", "3", answers=answers)
    assert code == 0
    assert out.count("Pig to 10") == out.count("Chance: rolled ") + 1 == 4
    assert ", rolling" not in out
