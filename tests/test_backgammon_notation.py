"""Backgammon positions as text: `parse_state` reads what `format_state` writes, bad refused."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum.games.backgammon import Backgammon, parse_dice

GAME = Backgammon()
START = "24:2 13:5 8:3 6:5 / 24:2 13:5 8:3 6:5"


def test_the_starting_position_without_dice_is_the_initial_state():
    assert GAME.parse_state(f"X: {START}") == GAME.initial_state()
    assert GAME.format_state(GAME.initial_state()) == f"X: {START}"


def test_dice_in_the_text_are_the_rolled_position_higher_die_first():
    rolled = GAME.result(GAME.initial_state(), (6, 5))
    assert GAME.parse_state(f"X 5-6: {START}") == rolled
    assert GAME.format_state(rolled) == f"X 6-5: {START}"


def test_each_side_is_read_in_its_own_numbering_the_rest_borne_off():
    state = GAME.parse_state("o 6-5: 6:2 5:3 / BAR 22:2 1:12")
    player, points, bar, off, dice = state
    assert (player, bar, off, dice) == (1, (1, 0), (0, 10), (6, 5))
    assert points[18] == -2 and points[19] == -3  # O's 6 and 5 points are X's 19 and 20
    assert points[21] == 2 and points[0] == 12  # X's 22 and 1 points
    assert sum(abs(count) for count in points) == 19


def test_a_bare_point_is_one_checker():
    assert GAME.parse_state("X: 6 5:2 / 24") == GAME.parse_state("X: 6:1 5:2 / 24:1")


def test_the_board_drawn_ends_with_the_position_text_that_reads_back():
    state = GAME.parse_state("O 4-4: bar 20:3 6:4 / 24:2 13:5 8:3 6:4 4:1")
    last = GAME.render(state).splitlines()[-1]
    assert last == "position: O 4-4: bar:1 20:3 6:4 / 24:2 13:5 8:3 6:4 4:1"
    assert GAME.parse_state(last.removeprefix("position: ")) == state


def reached_by_random_play(seed: int, plies: int):
    rng = random.Random(seed)
    state = GAME.initial_state()
    for _ in range(plies):
        if GAME.is_terminal(state):
            break
        if GAME.is_chance(state):
            rolls, weights = zip(*GAME.chance_outcomes(state), strict=True)
            state = GAME.result(state, rng.choices(rolls, weights)[0])
        else:
            state = GAME.result(state, rng.choice(GAME.legal_moves(state)))
    return state


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 400))
def test_every_position_of_random_play_reads_back_from_its_text(seed, plies):
    state = reached_by_random_play(seed, plies)
    assert GAME.parse_state(GAME.format_state(state)) == state


def test_a_finished_game_reads_back_with_the_loser_to_move():
    state = reached_by_random_play(3, 10_000)
    assert GAME.is_terminal(state)
    assert GAME.parse_state(GAME.format_state(state)) == state


def test_the_gnubg_id_of_the_start_is_the_published_one():
    assert GAME.position_id(GAME.initial_state()) == "4HPwATDgc/ABMA"
    assert GAME.parse_state("4HPwATDgc/ABMA") == GAME.initial_state()


def test_a_published_gnubg_id_gives_its_pip_counts_and_its_game_plays():
    # A game posted with its gnubg ID: the side on roll (167 pips) to play 4-4 against 152;
    # the game played 21/17*(2) 11/7(2) and gnubg preferred 21/17*(2) 8/4(2).
    state = GAME.parse_state("X 4-4: sG/BgCGMM+YAIw")
    assert (GAME.pip_count(state, 0), GAME.pip_count(state, 1)) == (167, 152)
    assert GAME.format_move(state, GAME.parse_move(state, "21/17*(2) 11/7(2)")).startswith(
        "21/17* 21/17"
    )
    GAME.parse_move(state, "21/17*(2) 8/4(2)")
    assert GAME.position_id(state) == "sG/BgCGMM+YAIw"


def test_a_published_gnubg_id_puts_the_player_on_roll_second():
    state = GAME.parse_state("O: bLsQwCE2dmMGAA")  # posted with 107 pips on roll against 144
    assert (GAME.pip_count(state, 1), GAME.pip_count(state, 0)) == (107, 144)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 400))
def test_every_position_of_random_play_reads_back_from_its_gnubg_id(seed, plies):
    state = reached_by_random_play(seed, plies)
    player, dice = state[0], state[4]
    roll = f" {dice[0]}-{dice[1]}" if dice else ""
    text = f"{'XO'[player]}{roll}: {GAME.position_id(state)}"
    assert GAME.parse_state(text) == state


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("X: 6:16 / 1", "X has 16 checkers on the board and the bar: at most 15"),
        ("X: bar:2 6:14 / 1", "X has 16 checkers"),
        ("X: 6 / 19", "X's 6 point is O's 19 point: it cannot hold checkers of both sides"),
        ("O: 1:3 / 24", "O's 1 point is X's 24 point"),
        ("X 7-1: 6 / 1", "bad dice '7-1': two numbers from 1 to 6"),
        ("X 6: 6 / 1", "bad dice '6'"),
        ("X: 25 / 1", "'25': points are 1 to 24"),
        ("X: 6:0 / 1", "a count is at least 1"),
        ("X: 6 6 / 1", "X's 6 point is listed twice"),
        ("X: bar bar / 1", "X's bar is listed twice"),
        ("X: six / 1", "'six' is not POINT:COUNT, POINT or bar:COUNT"),
        ("X: / 1", "X, to move, has borne off all 15 checkers"),
        ("Z: 6 / 1", "write the side to move"),
        ("X: 6 1", "write the side to move"),
        ("X: 6 / 1 / 2", "write the side to move"),
        ("", "write the side to move"),
        ("X: //////////////", "is not a GNU Backgammon position ID"),
        ("AAAAAAAAAAAAAA", "X, to move, has borne off all 15 checkers"),
    ],
)
def test_bad_positions_are_refused_with_the_reason(text, reason):
    with pytest.raises(ValueError, match=f"^bad position {text!r}: .*{reason}"):
        GAME.parse_state(text)


@pytest.mark.parametrize(("text", "dice"), [("6-5", (6, 5)), ("56", (6, 5)), ("3 3", (3, 3))])
def test_dice_are_written_with_or_without_a_dash(text, dice):
    assert parse_dice(text) == dice


@pytest.mark.parametrize("text", ["0-1", "6-7", "6", "six-five", "6-5-4"])
def test_bad_dice_are_refused(text):
    with pytest.raises(ValueError, match="two numbers from 1 to 6"):
        parse_dice(text)
