"""Backgammon: every rule of a legal turn on hand-made positions, scoring, notation, search."""

import pytest

from zerosum.games.backgammon import BAR, OFF, Backgammon
from zerosum.search.expectiminimax import expectiminimax

GAME = Backgammon()


def moves(state):
    return {GAME.format_move(state, move) for move in GAME.legal_moves(state)}


def test_the_opening_roll_is_never_a_double_and_later_rolls_are_21():
    opening = GAME.chance_outcomes(GAME.initial_state())
    assert len(opening) == 15 and all(high != low for (high, low), _ in opening)
    opened = GAME.result(GAME.initial_state(), (3, 1))
    later = GAME.chance_outcomes(GAME.result(opened, GAME.legal_moves(opened)[0]))
    assert len(later) == 21
    assert sum(p for _, p in later) == pytest.approx(1)
    assert dict(later)[(6, 6)] == pytest.approx(1 / 36) and dict(later)[(6, 5)] == pytest.approx(
        2 / 36
    )


def test_opening_six_five_has_seven_distinct_plays_including_the_run():
    state = GAME.result(GAME.initial_state(), (6, 5))
    assert "24/18 18/13" in moves(state)
    assert "13/7 13/8" in moves(state)
    assert len(GAME.legal_moves(state)) == 7  # 24/19 and 6/1 are closed points


def test_a_checker_on_the_bar_enters_before_anything_else():
    state = GAME.position({6: 14}, {1: 15}, bar=(1, 0), dice=(6, 5))
    plays = GAME.legal_moves(state)
    assert plays and all(move[0][0] == BAR for move in plays)
    assert moves(state) == {"bar/19 19/14", "bar/19 6/1"}  # bar/20 20/14 is bar/19 19/14


def test_a_closed_home_board_means_the_player_on_the_bar_passes():
    closed = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}
    state = GAME.position({6: 14}, closed, bar=(1, 0), dice=(6, 5))
    assert GAME.legal_moves(state) == [()]
    assert GAME.format_move(state, ()) == "pass"
    after = GAME.result(state, ())
    assert GAME.to_move(after) == 1 and after[2] == (1, 0)


def test_with_one_entry_point_open_only_that_die_enters():
    board = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 13: 5}  # their 6 point (our 19) is open
    state = GAME.position({6: 14}, board, bar=(1, 0), dice=(6, 5))
    assert all(move[0] == (BAR, 19) for move in GAME.legal_moves(state))


def test_landing_on_a_blot_hits_it_to_the_bar():
    state = GAME.position({13: 15}, {17: 1, 24: 14}, dice=(5, 3))  # their 17 is our 8
    assert "13/8* 13/10" in moves(state)
    move = GAME.parse_move(state, "13/8 13/10")
    after = GAME.result(state, move)
    assert after[2] == (0, 1)  # player 1 (O) now has a checker on the bar


def test_a_point_with_two_opposing_checkers_is_closed():
    state = GAME.position({13: 15}, {17: 2, 24: 13}, dice=(5, 3))
    assert not any("13/8" in text for text in moves(state))
    with pytest.raises(ValueError, match="point 8 is closed"):
        GAME.parse_move(state, "13/8 13/10")


def test_both_dice_must_be_played_when_some_order_allows_it():
    # 13/7 is closed; 13/8 then 8/2 plays both dice, so playing the 5 alone is not allowed.
    state = GAME.position({13: 1}, {18: 2, 24: 13}, dice=(6, 5), off=(14, 0))
    assert GAME.legal_moves(state) == [((13, 8), (8, 2))]
    with pytest.raises(ValueError, match="you must play 2 dice here, not 1"):
        GAME.parse_move(state, "13/8")


def test_when_only_one_die_can_be_played_it_must_be_the_larger():
    # 13/7 and 13/8 are each possible, but the point 2 they would both go on to is closed.
    state = GAME.position({13: 1}, {23: 2, 24: 13}, dice=(6, 5), off=(14, 0))
    assert GAME.legal_moves(state) == [((13, 7),)]
    with pytest.raises(ValueError, match="the larger must be played"):
        GAME.parse_move(state, "13/8")


def test_a_double_is_played_four_times():
    state = GAME.position({13: 1}, {1: 15}, dice=(2, 2), off=(14, 0))
    assert GAME.legal_moves(state) == [((13, 11), (11, 9), (9, 7), (7, 5))]
    assert GAME.parse_move(state, "13/5") == ((13, 11), (11, 9), (9, 7), (7, 5))
    assert GAME.parse_move(state, "13/9 9/5") == ((13, 11), (11, 9), (9, 7), (7, 5))


def test_a_double_with_many_checkers_plays_four_steps():
    state = GAME.result(GAME.result(GAME.initial_state(), (3, 1)), ((8, 5), (6, 5)))
    rolled = GAME.result(state, (4, 4))
    assert all(len(move) == 4 for move in GAME.legal_moves(rolled))


def test_bearing_off_with_exact_and_higher_dice_from_the_highest_point():
    state = GAME.position({4: 1, 3: 1}, {1: 15}, dice=(6, 5), off=(13, 0))
    assert GAME.legal_moves(state) == [((4, OFF), (3, OFF))]
    after = GAME.result(state, GAME.legal_moves(state)[0])
    assert GAME.is_terminal(after)


def test_a_higher_die_cannot_bear_off_below_an_occupied_higher_point():
    state = GAME.position({5: 1, 2: 1}, {1: 15}, dice=(6, 1), off=(13, 0))
    assert "2/off 5/4" not in moves(state)
    with pytest.raises(ValueError, match="no die of 2"):
        GAME.parse_move(state, "2/off 5/4")
    assert "5/off 2/1" in moves(state)


def test_no_bearing_off_while_a_checker_is_outside_home():
    state = GAME.position({8: 1, 2: 1}, {1: 15}, dice=(2, 1), off=(13, 0))
    assert not any("off" in text for text in moves(state))
    with pytest.raises(ValueError, match="bear off only when all your checkers are in your home"):
        GAME.parse_move(state, "2/off 8/7")


def test_player_one_moves_the_other_way_in_its_own_numbering():
    state = GAME.result(GAME.result(GAME.initial_state(), (3, 1)), ((8, 5), (6, 5)))
    rolled = GAME.result(state, (6, 5))
    assert GAME.to_move(rolled) == 1
    assert "24/18 18/13" in moves(rolled)  # O's back checkers run exactly like X's


@pytest.mark.parametrize(
    "loser, off, points",
    [
        ({24: 14}, (15, 1), 1),  # the loser bore one off: a single game
        ({24: 15}, (15, 0), 3),  # none off and a checker in the winner's home (its 24 = our 1)
        ({12: 15}, (15, 0), 2),  # none off, nothing in the winner's home: a gammon
    ],
)
def test_single_gammon_and_backgammon_score_1_2_3(loser, off, points):
    state = GAME.position({}, loser, off=off)
    assert GAME.is_terminal(state)
    assert GAME.utility(state, 0) == points and GAME.utility(state, 1) == -points


@pytest.mark.parametrize(
    "text, reason",
    [
        ("24/18 18", "is not a move"),
        ("7/1 13/8", "you have no checker on 7"),
        ("13/15 13/8", "checkers move down"),
        ("24/18 13/7 13/8", "no die of 6 left"),
    ],
)
def test_illegal_turns_are_explained(text, reason):
    state = GAME.result(GAME.initial_state(), (6, 5))
    with pytest.raises(ValueError, match=reason):
        GAME.parse_move(state, text)


def test_a_position_needs_fifteen_checkers_a_side():
    with pytest.raises(ValueError, match="15 checkers"):
        GAME.position({6: 14}, {1: 15}, off=(0, 0))


def test_expectiminimax_one_and_two_plies_choose_legal_opening_plays():
    state = GAME.result(GAME.initial_state(), (6, 5))
    one = expectiminimax(GAME, state, depth=1)
    two = expectiminimax(GAME, state, depth=2)
    assert one.best_move in GAME.legal_moves(state)
    assert two.best_move in GAME.legal_moves(state)
    assert GAME.format_move(state, one.best_move) == "24/18 18/13"
    assert two.stats.evaluations > one.stats.evaluations


def test_two_ply_bear_off_race_star2_matches_no_pruning_with_fewer_nodes():
    state = GAME.position({6: 2, 5: 2, 3: 3}, {6: 2, 4: 3, 2: 2}, dice=(4, 2), off=(8, 8))
    full = expectiminimax(GAME, state, depth=2, pruning="none")
    star = expectiminimax(GAME, state, depth=2, pruning="star2")
    assert star.value == pytest.approx(full.value, abs=1e-12)
    assert star.stats.nodes < full.stats.nodes


def test_render_shows_the_dice_and_the_pip_counts():
    text = GAME.render(GAME.result(GAME.initial_state(), (6, 5)))
    assert "X rolled 6-5" in text
    assert "pips: X 167, O 167" in text


def test_random_games_keep_fifteen_checkers_a_side_and_end_with_a_score():
    import random

    rng = random.Random(11)
    for _ in range(3):
        state = GAME.initial_state()
        while not GAME.is_terminal(state):
            if GAME.is_chance(state):
                rolls, weights = zip(*GAME.chance_outcomes(state), strict=True)
                state = GAME.result(state, rng.choices(rolls, weights)[0])
            else:
                state = GAME.result(state, rng.choice(GAME.legal_moves(state)))
            points, bar, off = state[1], state[2], state[3]
            assert sum(c for c in points if c > 0) + bar[0] + off[0] == 15
            assert -sum(c for c in points if c < 0) + bar[1] + off[1] == 15
        assert GAME.utility(state, 0) in (-3, -2, -1, 1, 2, 3)
