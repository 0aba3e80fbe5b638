"""Pig: the rules, the exact solution checked two ways, and `zerosum solve pig`."""

import pytest

from zerosum.games.pig import HOLD, ROLL, Pig
from zerosum.search.expectiminimax import expectiminimax
from zerosum.solve.pig import solve_pig
from zerosum.solve.value_iteration import value_iteration


def test_a_turn_starts_with_a_roll_and_may_hold_after_one():
    game = Pig(20)
    start = game.initial_state()
    assert game.legal_moves(start) == (ROLL,)
    rolling = game.result(start, ROLL)
    assert game.is_chance(rolling)
    assert [face for face, _ in game.chance_outcomes(rolling)] == [1, 2, 3, 4, 5, 6]
    after_four = game.result(rolling, 4)
    assert after_four == (0, 0, 0, 4, False)
    assert game.legal_moves(after_four) == (ROLL, HOLD)
    assert game.result(after_four, HOLD) == (1, 4, 0, 0, False)


def test_a_one_loses_the_turn_total_and_passes_the_turn():
    game = Pig(20)
    state = game.parse_state("5 7 9 0")
    assert game.result(game.result(state, ROLL), 1) == (1, 5, 7, 0, False)


def test_reaching_the_target_wins_at_once():
    game = Pig(20)
    state = game.result(game.parse_state("7 12 3 1"), ROLL)
    final = game.result(state, 5)
    assert game.is_terminal(final)
    assert game.utility(final, 1) == 1 and game.utility(final, 0) == -1


@pytest.mark.parametrize(
    "text, reason",
    [
        ("5", "expected 'score0 score1'"),
        ("5 7 1 0", "cannot be 1"),
        ("5 7 3 2", "the player is 0 or 1"),
        ("15 7 6 0", "15 + 6 reaches the target 20"),
    ],
)
def test_bad_pig_position_is_refused_with_its_reason(text, reason):
    with pytest.raises(ValueError) as error:
        Pig(20).parse_state(text)
    assert reason in str(error.value)


def test_evaluation_at_the_depth_limit_is_taken_before_the_die_falls():
    game = Pig(20)
    assert expectiminimax(game, game.parse_state("18 18 0 0"), depth=1).value == 0


def test_holding_before_rolling_is_explained():
    with pytest.raises(ValueError, match="cannot hold before rolling"):
        Pig().parse_move(Pig().initial_state(), "h")


@pytest.mark.parametrize("target", [1, 2])
def test_targets_one_and_two_first_player_wins_six_sevenths(target):
    # Any face but 1 wins at once: P = 5/6 + 1/6 (1 - P), so P = 6/7.
    assert solve_pig(target).win_probability() == pytest.approx(6 / 7, abs=1e-12)


@pytest.mark.parametrize("target", [3, 5, 8, 12])
def test_pig_solution_agrees_with_plain_value_iteration(target):
    direct = solve_pig(target).win_probability()
    iterated = value_iteration(Pig(target), tolerance=1e-13).root_value
    assert direct == pytest.approx((1 + iterated) / 2, abs=1e-9)


def test_pig_to_100_first_player_wins_0_5306():
    assert solve_pig(100).win_probability() == pytest.approx(0.530592725, abs=1e-9)


def test_every_pig_position_value_agrees_with_value_iteration_target_6():
    solution = solve_pig(6)
    game = Pig(6)
    values = value_iteration(game, tolerance=1e-13).values
    for (player, score0, score1, turn, rolling), value in values.items():
        if rolling or game.is_terminal((player, score0, score1, turn, rolling)):
            continue
        mine, theirs = (score0, score1) if player == 0 else (score1, score0)
        own = value if player == 0 else -value
        assert solution.win_probability(mine, theirs, turn) == pytest.approx(
            (1 + own) / 2, abs=1e-9
        )


def test_expectiminimax_two_plies_from_18_18_to_20_is_five_sixths():
    # Rolling: five faces win at once; a 1 hands over an even race, and the opponent's roll
    # (the second ply) is evaluated before the die falls: a lead of 0.
    game = Pig(20)
    result = expectiminimax(game, game.parse_state("18 18 0 0"), depth=2)
    assert result.best_move == ROLL
    assert result.value == pytest.approx(5 / 6, abs=1e-12)


def test_star_pruning_on_pig_keeps_the_value_and_saves_nodes():
    game = Pig(20)
    state = game.parse_state("10 12 8 0")
    full = expectiminimax(game, state, depth=4, pruning="none")
    star1 = expectiminimax(game, state, depth=4, pruning="star1")
    assert star1.value == pytest.approx(full.value, abs=1e-12)
    assert star1.stats.nodes < full.stats.nodes


def test_solve_pig_json_gives_the_win_probability(cli):
    report = cli.json("solve", "pig", "--target", "2")
    assert report["win_probability"] == pytest.approx(6 / 7, abs=1e-12)
    assert report["best_move"] == "roll"


def test_solve_pig_from_a_position_in_text(cli):
    code, out, _ = cli("solve", "pig", "--target", "20", "--position", "10 15 4 1")
    assert code == 0
    assert "P1 to move: expected value 0.7803 under best play" in out
    assert "wins with probability 0.8901" in out and "hold once the turn total reaches 5" in out


def test_solve_pig_bad_target_is_one_line_exit_2(cli):
    code, _, err = cli.process("solve", "pig", "--target", "0")
    assert code == 2
    assert err == "zerosum: error: the target must be at least 1 point, got 0\n"


def test_target_option_of_another_game_is_refused(cli):
    err = cli.error("solve", "tictactoe", "--target", "5")
    assert "tictactoe has no option 'target' (its options: none)" in err


def test_counting_chance_levels_as_plies_stops_one_node_sooner():
    # Roll from 18-18 to 20: with the die counted as a ply, the turn passed on a 1 is evaluated
    # where it stands; uncounted, the search goes on to the opponent's roll.
    game = Pig(20)
    state = game.parse_state("18 18 0 0")
    counted = expectiminimax(game, state, depth=2, count_chance=True)
    uncounted = expectiminimax(game, state, depth=2)
    assert counted.value == uncounted.value == pytest.approx(5 / 6)
    assert (counted.stats.nodes, uncounted.stats.nodes) == (8, 9)


def test_transposition_table_keeps_the_value_and_saves_nodes():
    game = Pig(20)
    state = game.parse_state("10 12 8 0")
    plain = expectiminimax(game, state, depth=5, transposition=False)
    table = expectiminimax(game, state, depth=5)
    assert table.value == pytest.approx(plain.value, abs=1e-12)
    assert (plain.stats.nodes, table.stats.nodes) == (450, 263)
