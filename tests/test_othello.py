"""Othello: perft, the rules against a square-by-square reading of them, passes and the end,
notation as OpenSpiel writes it, the engine on it and the commands."""

from __future__ import annotations

import json

import pytest
from fuzzing import fuzzing
from hypothesis import given
from hypothesis import strategies as st

from zerosum.games.othello import (
    PASS,
    Othello,
    flipped,
    legal_squares,
    move_name,
    square_name,
    square_of,
)
from zerosum.search import Engine, alphabeta

GAME = Othello()
START = GAME.initial_state()

PASS_AT_PLY_9 = "e6f6g6g7d3h6h8f8"
"""After these eight moves Black (X) has no square and must pass; White can go on."""
WIPEOUT_IN_9 = "d3c3b3d2e1d6d7e3f4"
"""One of the shortest games: White has no disc left after nine moves, 13 to 0."""
ENDGAME = (
    "f5 d6 c4 d3 c6 f4 d7 c5 e6 b4 d2 e2 f2 g5 a4 c8 b5 c3 g4 a5 f6 e1 a3 g2 b2 e7 c2 a2 a6 e3"
    " d8 a7 g1 c7 e8 b6 b3 h3 c1 f7 h4 f3 b1 g3 g6 d1 b8 h7 b7 a8"
)
"""A random game's first 50 moves: ten empty squares left, few enough to search to the end."""


def perft(state, depth):
    """The lines of `depth` moves from `state` (a pass is a move), each move played."""
    if depth == 0:
        return 1
    return sum(perft(GAME.result(state, move), depth - 1) for move in GAME.legal_moves(state))


def play(text, state=START):
    """The position after the moves `text` (squares or pass, separated by spaces)."""
    for word in text.split():
        state = GAME.result(state, GAME.parse_move(state, word))
    return state


def board(*rows, side="X"):
    """A position from eight rows of the board text, top row first, and the side to move."""
    return GAME.parse_state("/".join(rows) + " " + side)


# -- the rules -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("depth", "leaves"),
    list(enumerate([1, 4, 12, 56, 244, 1_396, 8_200, 55_092, 390_216])),
)
def test_perft_from_the_start_counts_the_published_lines(depth, leaves):
    assert perft(START, depth) == leaves


def test_the_start_has_white_on_d4_and_e5_and_black_to_play_d3_c4_f5_e6():
    assert GAME.format_state(START) == "." * 27 + "OX......XO" + "." * 27 + " X"
    assert GAME.to_move(START) == 0
    assert [move_name(m) for m in GAME.legal_moves(START)] == ["d3", "c4", "f5", "e6"]


def test_squares_are_numbered_as_openspiel_numbers_its_actions():
    assert [square_of(name) for name in ("a1", "h1", "d3", "a8", "h8")] == [0, 7, 19, 56, 63]
    assert [square_name(square) for square in (0, 7, 19, 56, 63)] == ["a1", "h1", "d3", "a8", "h8"]
    assert PASS == 64 and move_name(PASS) == "pass"


def reference_moves(black, white, player):
    """The legal squares and what each flips, found by walking the board square by square
    (a second reading of the rules, independent of the bitboards): {square: flipped squares}."""
    grid = {}
    for square in range(64):
        grid[divmod(square, 8)] = (
            "X" if black >> square & 1 else "O" if white >> square & 1 else "."
        )
    mine, theirs = "XO"[player], "OX"[player]
    moves = {}
    for (row, column), cell in grid.items():
        if cell != ".":
            continue
        flips = set()
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                line, r, c = [], row + dr, column + dc
                while (dr or dc) and grid.get((r, c)) == theirs:
                    line.append(8 * r + c)
                    r, c = r + dr, c + dc
                if line and grid.get((r, c)) == mine:
                    flips.update(line)
        if flips:
            moves[8 * row + column] = flips
    return moves


def colours(state):
    mine, theirs, player, _ = state
    return (mine, theirs) if player == 0 else (theirs, mine)


@fuzzing(60)
@given(st.randoms(use_true_random=False))
def test_moves_and_flips_agree_with_a_square_by_square_reading_along_random_games(rng):
    state = START
    while not GAME.is_terminal(state):
        black, white = colours(state)
        player = GAME.to_move(state)
        expected = reference_moves(black, white, player)
        moves = GAME.legal_moves(state)
        if expected:
            assert sorted(moves) == sorted(expected)
            for square, flips in expected.items():
                mine, theirs = (black, white) if player == 0 else (white, black)
                assert flipped(mine, theirs, square) == sum(1 << s for s in flips)
        else:
            assert moves == [PASS]
            assert reference_moves(black, white, 1 - player)  # else the game would be over
        state = GAME.result(state, rng.choice(moves))
    black, white = colours(state)
    assert not reference_moves(black, white, 0) and not reference_moves(black, white, 1)


def test_a_player_without_a_square_must_pass_and_the_other_plays_on():
    state = GAME.parse_state(PASS_AT_PLY_9)
    assert GAME.to_move(state) == 0 and not GAME.is_terminal(state)
    assert GAME.legal_moves(state) == [PASS]
    assert legal_squares(state[0], state[1]) == 0
    after = GAME.result(state, GAME.parse_move(state, "pass"))
    assert GAME.to_move(after) == 1
    assert colours(after) == colours(state)
    assert GAME.legal_moves(after) and PASS not in GAME.legal_moves(after)
    assert GAME.parse_state(PASS_AT_PLY_9 + "pass") == after


def test_a_pass_is_refused_while_there_is_a_square_and_a_square_when_one_must_pass():
    with pytest.raises(ValueError, match=r"^X cannot pass: it can play d3 c4 f5 e6$"):
        GAME.parse_move(START, "pass")
    with pytest.raises(ValueError, match="^X has no square to play and must pass$"):
        GAME.parse_move(GAME.parse_state(PASS_AT_PLY_9), "a1")
    with pytest.raises(ValueError, match="is not a legal move"):
        GAME.result(START, PASS)


def test_the_game_ends_when_neither_side_can_move_before_the_board_is_full():
    wipeout = GAME.parse_state(WIPEOUT_IN_9)
    assert GAME.is_terminal(wipeout) and GAME.legal_moves(wipeout) == []
    assert GAME.disc_difference(wipeout) == 13 and GAME.disc_difference(wipeout, 1) == -13
    assert (GAME.utility(wipeout, 0), GAME.utility(wipeout, 1)) == (1, -1)
    # Both colours on the board, empty squares left, and nobody can flank anything.
    stuck = board(
        "O.......", "........", "........", "...XX...", "...XX...", "........", "........",
        "........", side="O",
    )  # fmt: skip
    assert GAME.is_terminal(stuck)
    assert GAME.disc_difference(stuck, 1) == -3 and GAME.utility(stuck, 1) == -1


def test_a_full_board_of_32_discs_each_is_a_draw_and_the_count_decides_otherwise():
    drawn = board(*["XXXXXXXX"] * 4, *["OOOOOOOO"] * 4)
    assert GAME.is_terminal(drawn)
    assert GAME.disc_difference(drawn) == 0 and GAME.utility(drawn, 0) == 0
    won = board(*["XXXXXXXX"] * 4, "OOOOOOOX", *["OOOOOOOO"] * 3, side="O")
    assert GAME.disc_difference(won) == 2 and GAME.disc_difference(won, 1) == -2
    assert GAME.utility(won, 0) == 1 and GAME.utility(won, 1) == -1


def test_a_move_that_is_not_legal_is_refused_by_result():
    with pytest.raises(ValueError, match="^a1 is not a legal move here$"):
        GAME.result(START, 0)
    with pytest.raises(ValueError, match="^65 is not a move"):
        GAME.result(START, 65)


def test_keys_are_equal_exactly_for_equal_positions_at_depth_5():
    by_key = {}

    def walk(state, depth):
        by_key.setdefault(GAME.key(state), set()).add(GAME.format_state(state))
        if depth:
            for move in GAME.legal_moves(state):
                walk(GAME.result(state, move), depth - 1)

    walk(START, 5)
    assert all(len(texts) == 1 for texts in by_key.values())
    assert len({text for texts in by_key.values() for text in texts}) == len(by_key)
    assert GAME.key(play("d3 c3 c4")) == GAME.key(play("c4 c3 d3"))  # one position, two ways


# -- evaluation ----------------------------------------------------------------------------


@fuzzing(30)
@given(st.randoms(use_true_random=False))
def test_evaluation_is_within_bounds_opposite_for_the_two_and_utility_at_the_end(rng):
    state = START
    while True:
        for_black, for_white = GAME.evaluate(state, 0), GAME.evaluate(state, 1)
        assert for_black == -for_white
        if GAME.is_terminal(state):
            assert for_black == GAME.utility(state, 0)
            return
        assert -0.9 <= for_black <= 0.9
        state = GAME.result(state, rng.choice(GAME.legal_moves(state)))


def test_a_corner_left_open_by_an_x_square_is_noisy_and_taking_it_raises_the_estimate():
    state = play("d3 c3 c4 c5 b2")  # Black on b2 beside the empty a1: White can take it
    assert [move_name(move) for move in GAME.noisy_moves(state)] == ["a1"]
    assert GAME.noisy_moves(START) == []
    assert GAME.legal_moves(state)[0] == square_of("a1")  # corners come first
    taken = GAME.result(state, square_of("a1"))
    assert GAME.evaluate(taken, 1) > GAME.evaluate(state, 1) > 0


# -- notation ------------------------------------------------------------------------------


@fuzzing(40)
@given(st.randoms(use_true_random=False), st.integers(0, 70))
def test_moves_and_positions_read_back_as_they_are_written(rng, length):
    state, words = START, []
    while not GAME.is_terminal(state) and len(words) < length:
        for move in GAME.legal_moves(state):
            assert GAME.parse_move(state, GAME.format_move(state, move)) == move
            assert GAME.parse_move(state, GAME.format_move(state, move).upper()) == move
        move = rng.choice(GAME.legal_moves(state))
        words.append(GAME.format_move(state, move))
        state = GAME.result(state, move)
    assert GAME.parse_state(GAME.format_state(state)) == state
    assert GAME.parse_state("".join(words)) == state
    assert GAME.parse_state(" ".join(words)) == state
    assert GAME.parse_state(",".join(words).upper()) == state


def test_a_board_may_be_written_with_slashes_lowercase_and_openspiel_dashes():
    text = GAME.format_state(play("d3 c5"))
    rows = "/".join(text[i : i + 8] for i in range(0, 64, 8))
    assert GAME.parse_state(rows + " X") == play("d3 c5")
    assert GAME.parse_state(text.lower().replace(".", "-")) == play("d3 c5")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("d3z9", "bad moves 'd3z9': move 2 starts 'z9', not a square a1-h8 or pass"),
        ("d3d3", "bad moves 'd3d3' at move 2: d3 is taken: O can play c3 e3 c5"),
        ("d3 c4", "bad moves 'd3 c4' at move 2: c4 turns no disc: O can play c3 e3 c5"),
        ("d3 pass", "bad moves 'd3 pass' at move 2: O cannot pass: it can play c3 e3 c5"),
        (WIPEOUT_IN_9 + "a1", f"bad moves '{WIPEOUT_IN_9}a1' at move 10: the game is already over"),
        ("." * 64 + "X", "the centre squares d4 e4 d5 e5 are never empty"),
        ("X" * 64, r"then the side to move, X or O \(got 64 characters\)"),
        ("X" * 63 + "Z O", r"\('Z' is not a square's mark\)"),
        ("X" * 64 + ".", r"\(the side to move is '.'\)"),
    ],
)
def test_malformed_positions_are_refused_with_the_reason(text, reason):
    with pytest.raises(ValueError, match=reason):
        GAME.parse_state(text)


@pytest.mark.parametrize("text", ["", "i1", "d9", "d", "passe", "3d"])
def test_a_word_that_is_not_a_square_or_pass_is_not_a_move(text):
    with pytest.raises(ValueError, match="is not a move: type a square a1-h8 or pass$"):
        GAME.parse_move(START, text)


def test_the_board_is_drawn_as_openspiel_numbers_it_with_the_squares_to_play():
    assert GAME.render(START) == "\n".join(
        [
            "  a b c d e f g h",
            "1 . . . . . . . .",
            "2 . . . . . . . .",
            "3 . . . * . . . .",
            "4 . . * O X . . .",
            "5 . . . X O * . .",
            "6 . . . . * . . .",
            "7 . . . . . . . .",
            "8 . . . . . . . .",
            "X 2, O 2: X to move",
        ]
    )
    assert GAME.render(GAME.parse_state(PASS_AT_PLY_9)).endswith("X has no square and must pass")
    assert GAME.render(GAME.parse_state(WIPEOUT_IN_9)).endswith("X 13, O 0: the game is over")


# -- searched ------------------------------------------------------------------------------


@pytest.mark.parametrize("position", ["", "d3c5f6", PASS_AT_PLY_9, ENDGAME])
def test_the_engine_plays_a_legal_move(position):
    state = GAME.parse_state(position)
    result = Engine(GAME).search(state, depth=3)
    assert result.best_move in GAME.legal_moves(state)


def test_the_engine_and_alphabeta_agree_on_an_endgame_searched_to_the_end():
    state = GAME.parse_state(ENDGAME)
    exact = alphabeta(GAME, state)
    engine = Engine(GAME).search(state)
    assert engine.exact and engine.value == exact.value
    assert exact.best_move in GAME.legal_moves(state)


# -- the commands --------------------------------------------------------------------------


def test_play_othello_shows_the_board_and_the_programs_reply(cli):
    code, out, _ = cli("play", "othello", "--depth", "2", answers=["c3", "d3", "q"])
    assert code == 0
    assert "c3 turns no disc: X can play d3 c4 f5 e6. Try again." in out
    assert "3 . . . * . . . ." in out and "X 2, O 2: X to move" in out
    assert len([line for line in out.splitlines() if line.startswith("The program (O) plays")]) == 1
    assert "Game left unfinished." in out


def test_play_othello_takes_pass_when_the_human_must_pass(cli):
    code, out, _ = cli(
        "play", "othello", PASS_AT_PLY_9, "--depth", "1", answers=["d3", "pass", "q"]
    )
    assert code == 0
    assert "X has no square to play and must pass. Try again." in out
    assert "The program (O) plays" in out


def test_analyze_othello_reports_each_depth_and_a_legal_best_move(cli):
    report = cli.json("analyze", "othello", "d3c5", "--depth", "3")
    assert [iteration["depth"] for iteration in report["depths"]] == [1, 2, 3]
    assert report["best_move"] in ("f6", "b4", "d6", "f4", "f3", "c3")  # nothing else is legal
    assert report["pv"][0] == report["best_move"]
    assert report["to_move"] == 0


def test_match_othello_plays_whole_games_between_the_engine_and_random(cli):
    code, out, err = cli(
        "match", "othello", "--a", "engine:depth=1", "--b", "random", "--games", "2", "--json"
    )
    assert code == 0, err
    report = json.loads(out)
    assert report["games"] == 2


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (["analyze", "othello", "d3d3", "--depth", "2"], "d3 is taken"),
        (["analyze", "othello", "." * 64 + "X"], "centre squares d4 e4 d5 e5 are never empty"),
        (["play", "othello", "z9"], "move 1 starts 'z9'"),
        (["analyze", "othello", WIPEOUT_IN_9], "the game is already over"),
        (["solve", "othello", "d3"], "othello has too many positions to solve by searching"),
    ],
)
def test_bad_othello_positions_are_one_line_and_exit_2(cli, argv, reason):
    assert reason in cli.error(*argv)
