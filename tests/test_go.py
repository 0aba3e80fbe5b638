"""Go: captures, suicide, superko, the end and area scoring with komi, GTP coordinates, and the
rules against a plain reading of them on random games."""

from __future__ import annotations

import pytest
from fuzzing import fuzzing
from hypothesis import given
from hypothesis import strategies as st

from zerosum import registry
from zerosum.cli import main
from zerosum.games.go import Go

SMALL = Go(size=5)

KO = "...../..XO./.XO.O/..XO./..... X"
"""A ko on 5x5: Black's D3 takes the White stone on C3, and is itself alone with one liberty,
C3: White's immediate retake would bring back the board before D3."""


def board(game, state):
    """The stones as a dict from point name to mark, for readable assertions."""
    marks = {}
    for point in range(game.points):
        if state.black >> point & 1:
            marks[game.point_name(point)] = "X"
        elif state.white >> point & 1:
            marks[game.point_name(point)] = "O"
    return marks


def played(game, state, *moves):
    for text in moves:
        state = game.result(state, game.parse_move(state, text))
    return state


def test_a_stone_without_liberties_is_taken():
    state = SMALL.parse_state("...../...../..X../.XOX./..... X")
    after = played(SMALL, state, "C1")
    assert board(SMALL, after) == {"C3": "X", "B2": "X", "D2": "X", "C1": "X"}
    assert SMALL.to_move(after) == 1


def test_a_group_is_taken_whole():
    # White's two stones A1 and B1 have one liberty left, C1
    state = SMALL.parse_state("...../...../...../XX.../OO... X")
    after = played(SMALL, state, "C1")
    assert board(SMALL, after) == {"A2": "X", "B2": "X", "C1": "X"}
    assert SMALL.area(after) == (25, 0)


def test_suicide_is_refused_but_a_capture_that_fills_the_last_liberty_is_not():
    state = SMALL.parse_state("...../...../...../X..../.X... O")
    assert 0 not in SMALL.legal_moves(state)  # A1: White's stone would have no liberty
    with pytest.raises(ValueError, match="A1 is suicide"):
        SMALL.parse_move(state, "A1")
    with pytest.raises(ValueError, match="suicide"):
        SMALL.result(state, 0)
    # the same point is legal once it takes: A1 is the last liberty of A2 and of B1
    state = SMALL.parse_state("...../...../O..../XO.../.XO.. O")
    after = played(SMALL, state, "A1")
    assert board(SMALL, after) == {"A3": "O", "B2": "O", "C1": "O", "A1": "O"}


def test_a_group_of_several_stones_may_not_kill_itself():
    # A1, the last liberty of Black's A2 and B2, would leave the three without one
    state = SMALL.parse_state("...../...../OOO../XXO../.OO.. X")
    assert "A1" not in {SMALL.format_move(state, m) for m in SMALL.legal_moves(state)}
    with pytest.raises(ValueError, match="A1 is suicide"):
        SMALL.parse_move(state, "A1")
    # with C1 empty the three keep a liberty whichever of A1 and B1 Black fills
    state = SMALL.parse_state("...../...../OOO../XXO../..O.. X")
    assert {"A1", "B1"} <= {SMALL.format_move(state, m) for m in SMALL.legal_moves(state)}


def test_ko_the_immediate_retake_is_refused_by_positional_superko():
    state = SMALL.parse_state(KO)
    taken = played(SMALL, state, "D3")
    assert "C3" not in board(SMALL, taken) and board(SMALL, taken)["D3"] == "X"
    with pytest.raises(ValueError, match="C3 repeats an earlier position"):
        SMALL.parse_move(taken, "C3")
    assert 12 not in SMALL.legal_moves(taken)  # C3 is point 12
    # after a move each elsewhere the board is new, and the retake is legal
    later = played(SMALL, taken, "A1", "A5", "C3")
    assert board(SMALL, later)["C3"] == "O" and "D3" not in board(SMALL, later)


def test_superko_forbids_any_earlier_board_whoever_was_to_move():
    state = SMALL.parse_state(KO)
    after_d3 = played(SMALL, state, "D3")
    assert (state.black, state.white) in after_d3.seen
    # the board D3 makes, had it stood at any time before (with either side to move), bars D3
    earlier = state._replace(seen=state.seen | {(after_d3.black, after_d3.white)})
    with pytest.raises(ValueError, match="D3 repeats an earlier position"):
        SMALL.parse_move(earlier, "D3")
    assert SMALL.legal_moves(earlier) == [
        move for move in SMALL.legal_moves(state) if SMALL.format_move(state, move) != "D3"
    ]


def test_two_passes_in_a_row_end_the_game_and_one_does_not():
    state = played(SMALL, SMALL.initial_state(), "C3", "pass", "D3", "pass")
    assert not SMALL.is_terminal(state)
    over = played(SMALL, state, "pass")
    assert SMALL.is_terminal(over) and SMALL.legal_moves(over) == []
    with pytest.raises(ValueError, match="the game is over"):
        SMALL.parse_move(over, "A1")


def test_the_move_limit_ends_the_game_as_it_stands():
    assert SMALL.move_limit == 75 and Go().move_limit == 243
    state = played(SMALL, SMALL.initial_state(), "C3")._replace(played=SMALL.move_limit - 1)
    assert not SMALL.is_terminal(state)
    over = played(SMALL, state, "D4")
    assert SMALL.is_terminal(over) and SMALL.legal_moves(over) == []
    assert SMALL.area(over) == (1, 1) and SMALL.score_text(over) == "W+7.5"


def test_area_scoring_with_komi():
    walls = "/".join([".X.O."] * 5) + " X"
    assert SMALL.score(SMALL.initial_state()) == -7.5
    assert SMALL.score_text(SMALL.initial_state()) == "W+7.5"
    assert SMALL.utility(SMALL.initial_state(), 0) == -1
    assert SMALL.utility(SMALL.initial_state(), 1) == 1
    # columns A and B Black's, D and E White's, C touches both: 10 points each
    state = Go(size=5, komi=0).parse_state(walls)
    assert Go(size=5, komi=0).area(state) == (10, 10)
    assert Go(size=5, komi=0).score_text(state) == "0"
    assert Go(size=5, komi=0).utility(state, 0) == 0
    assert Go(size=5, komi=0.5).score_text(state) == "W+0.5"
    assert Go(size=5, komi=-2).score_text(state) == "B+2"
    # column C Black's too: 15 to 10, White wins by 2.5 with komi 7.5
    state = SMALL.parse_state("/".join([".XXO."] * 5) + " O")
    assert SMALL.area(state) == (15, 10)
    assert SMALL.score_text(state) == "W+2.5" and SMALL.utility(state, 1) == 1
    # a lone stone owns the whole board: the one empty region borders it alone
    lone = SMALL.parse_state("...../...../..X../...../..... O")
    assert SMALL.area(lone) == (25, 0)


def test_points_are_written_in_gtp_coordinates():
    big = Go(size=19)
    assert [big.point_name(p) for p in (0, 7, 8, 18, 19, 360)] == [
        "A1", "H1", "J1", "T1", "A2", "T19"
    ]  # fmt: skip
    for point in range(big.points):
        assert big.point_of(big.point_name(point)) == point
        assert big.point_of(big.point_name(point).lower()) == point
    state = Go().initial_state()
    assert Go().parse_move(state, "D4") == 30 and Go().parse_move(state, "PASS") == 81
    assert Go().format_move(state, 81) == "pass" and Go().format_move(state, 30) == "D4"
    for text, reason in [
        ("I5", "not a point"),
        ("K1", "off the 9x9 board"),
        ("A10", "off the 9x9 board"),
        ("A0", "off the 9x9 board"),
        ("D", "not a point"),
        ("resign", "not a point"),
    ]:
        with pytest.raises(ValueError, match=reason):
            Go().parse_move(state, text)
    with pytest.raises(ValueError, match="D4 is taken"):
        Go().parse_move(played(Go(), state, "D4"), "d4")


def test_positions_as_moves_or_as_a_board():
    game = Go()
    assert game.parse_state("") == game.initial_state()
    state = game.parse_state("D4 E5, pass C3")
    assert board(game, state) == {"D4": "X", "E5": "O", "C3": "O"}
    assert game.to_move(state) == 0 and state.played == 4
    again = game.parse_state(game.format_state(state))
    assert again[:3] == state[:3]
    assert game.format_state(again) == game.format_state(state)
    with pytest.raises(ValueError, match="at move 2: D4 is taken"):
        game.parse_state("D4 D4")
    with pytest.raises(ValueError, match="expected 81 points"):
        game.parse_state("XO. X")
    with pytest.raises(ValueError, match="the group at A1 has no liberty"):
        SMALL.parse_state("...../...../...../X..../OX... X")


def test_render_shows_the_board_row_1_at_the_bottom():
    text = SMALL.render(played(SMALL, SMALL.initial_state(), "A1", "E5"))
    lines = text.splitlines()
    assert lines[0] == "   A B C D E"
    assert lines[1] == " 5 . . . . O 5" and lines[5] == " 1 X . . . . 1"
    assert lines[-1] == "area X 1, O 1, komi 7.5: X to move"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ("size=4", "size must be a whole number from 5 to 19, got 4"),
        ("size=20", "size must be a whole number from 5 to 19"),
        ("komi=7.3", "komi must be a multiple of 0.5 from -25 to 25, got 7.3"),
        ("komi=1e400", "komi must be a multiple of 0.5"),
        ('komi="x"', "komi must be a number, got 'x'"),
        ("komi=30", "from -25 to 25"),
    ],
)
def test_bad_options_are_refused_with_the_reason(options, message):
    with pytest.raises(ValueError, match=message):
        registry.setup(f"go(size=5,{options})" if "size" not in options else f"go({options})")


def test_the_registry_makes_go_with_its_options_and_flags():
    game = registry.setup("go(size=7,komi=6.5)").game
    assert isinstance(game, Go) and (game.size, game.komi) == (7, 6.5)
    game = registry.setup("go", "", {"size": "13", "komi": "0.5"}).game
    assert (game.size, game.komi) == (13, 0.5)
    assert registry.setup("go").game.size == 9


def test_a_match_of_go_is_played_to_the_end(capsys):
    assert main(["match", "go(size=5)", "--a", "mcts:iterations=30", "--b", "random",
                 "--games", "2"]) == 0  # fmt: skip
    assert "2 games" in capsys.readouterr().out


# -- the rules against a plain reading of them -------------------------------------------


def plain_play(size, stones, colour, point):
    """The stones (a dict point -> colour) after `colour` puts a stone on `point`, by the
    rules read plainly with sets; None for suicide."""
    stones = dict(stones)
    stones[point] = colour

    def around(p):
        row, column = divmod(p, size)
        if row > 0:
            yield p - size
        if row < size - 1:
            yield p + size
        if column > 0:
            yield p - 1
        if column < size - 1:
            yield p + 1

    def group_and_liberties(p):
        group, liberties, todo = {p}, set(), [p]
        while todo:
            for q in around(todo.pop()):
                if q not in stones:
                    liberties.add(q)
                elif stones[q] == stones[p] and q not in group:
                    group.add(q)
                    todo.append(q)
        return group, liberties

    for q in around(point):
        if q in stones and stones[q] != colour:
            group, liberties = group_and_liberties(q)
            if not liberties:
                for taken in group:
                    del stones[taken]
    if not group_and_liberties(point)[1]:
        return None
    return stones


def stones_of(state):
    found = {}
    for point in range(state.black.bit_length() + state.white.bit_length() + 400):
        if state.black >> point & 1:
            found[point] = 0
        elif state.white >> point & 1:
            found[point] = 1
    return found


@fuzzing(60)
@given(size=st.integers(5, 7), choices=st.lists(st.integers(0, 10**6), max_size=400))
def test_random_games_end_and_every_legal_move_is_the_rules_move(size, choices):
    game = Go(size=size, komi=0.5)
    state = game.initial_state()
    boards = [frozenset(stones_of(state).items())]
    moves = 0
    while not game.is_terminal(state):
        legal = game.legal_moves(state)
        assert legal[-1] == game.pass_move
        stones = stones_of(state)
        expected = []
        for point in range(game.points):
            if point in stones:
                continue
            after = plain_play(size, stones, state.player, point)
            if after is not None and frozenset(after.items()) not in boards:
                expected.append(point)
            else:
                with pytest.raises(ValueError, match="suicide|superko"):
                    game.result(state, point)
        assert legal[:-1] == expected
        choice = choices[moves] if moves < len(choices) else moves * 7919
        move = legal[choice % len(legal)]
        state = game.result(state, move)
        if move != game.pass_move:
            boards.append(frozenset(stones_of(state).items()))
        moves += 1
        assert moves <= game.move_limit
    assert game.legal_moves(state) == []
    assert game.utility(state, 0) == -game.utility(state, 1) != 0  # komi 0.5: never a draw


@pytest.mark.parametrize("command", ["explain", "solve"])  # analyze: by MCTS
def test_the_searches_that_would_not_end_are_refused_in_one_line(command, capsys):
    assert main([command, "go", "--size", "5"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "MCTS plays it (zerosum play go)" in err


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("alphabeta", "MCTS plays it"),
        ("perfect", "play it with MCTS"),
        ("engine:time=1", "MCTS plays it"),
    ],
)
def test_the_players_that_would_search_to_the_end_are_refused(spec, message, capsys):
    argv = ["match", "go", "--size", "5", "--a", spec, "--b", "random", "--games", "2"]
    assert main(argv) == 2
    assert message in capsys.readouterr().err
