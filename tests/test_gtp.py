"""`zerosum gtp`: a scripted conversation answered exactly, the command line around it, and
random conversations of mutated and broken lines (hypothesis) that are always answered in the
protocol's framing, never with a traceback, every `genmove` with a legal move or `pass`.

A few hundred conversations on every run; 10,000 by hand with
`python -m pytest tests/test_gtp.py --hypothesis-profile=long` (tests/fuzzing.py).
"""

from __future__ import annotations

import io
import re

import pytest
from fuzzing import fuzzing
from hypothesis import given
from hypothesis import strategies as st

from zerosum.cli import main
from zerosum.cli.gtp import GtpSession, clean, serve

EXAMPLES = 200
"""Conversations in a run of the tests: each search is two MCTS iterations on a small board."""

EYES = {"A1", "C3", "E5"}
"""The empty points of a 5x5 board that Black fills with every other point: each a lone eye,
so that White's only legal move is a pass."""


def conversation(session, lines):
    return [session.handle(line) for line in lines]


def test_a_scripted_conversation_is_answered_exactly():
    session = GtpSession("mcts:iterations=20")
    black_stones = [
        f"play b {column}{row}"
        for row in range(1, 6)
        for column in "ABCDE"
        if f"{column}{row}" not in EYES
    ]
    script = [
        ("protocol_version", "= 2\n\n"),
        ("1 name", "=1 zerosum\n\n"),
        ("2 known_command genmove", "=2 true\n\n"),
        ("known_command resign", "= false\n\n"),
        ("boardsize 4", "? unacceptable size: 5 to 19\n\n"),
        ("boardsize 5", "=\n\n"),
        ("komi 0.5", "=\n\n"),
        ("komi six", "? syntax error: not a number\n\n"),
        ("komi 6.3", "? syntax error: komi must be a multiple of 0.5 from -25 to 25, got 6.3\n\n"),
        ("\t3  play  B  c3 # a comment", "=3\n\n"),
        ("play w C3", "? illegal move: C3 is taken\n\n"),
        (
            "play w I3",
            "? syntax error: 'I3' is not a point: a column letter A-T without I, then"
            " a row number, like D4\n\n",
        ),
        ("play w F1", "? illegal move: F1 is off the 5x5 board (A1 to E5)\n\n"),
        ("play red C4", "? syntax error: 'red' is not a colour (b, black, w or white)\n\n"),
        ("play b", "? syntax error: play needs a colour and a vertex (play b D4)\n\n"),
        ("final_score", "= B+24.5\n\n"),
        ("undo", "=\n\n"),
        ("undo", "? cannot undo: no move to take back\n\n"),
        ("final_score", "= W+0.5\n\n"),
        ("frobnicate 3", "? unknown command: 'frobnicate'\n\n"),
        ("# only a comment", None),
        ("", None),
        (
            "time_settings 300 10 x",
            "? syntax error: the byo-yomi stones must be a whole number from 0, not 'x'\n\n",
        ),
        ("time_settings 300 10 5", "=\n\n"),
        ("time_left white 12.5 0", "=\n\n"),
        *((line, "=\n\n") for line in black_stones),  # out of turn: Black plays every stone
        ("genmove w", "= pass\n\n"),  # every empty point is an eye of Black's
        ("final_score", "= B+24.5\n\n"),
        ("play w A1", "? illegal move: A1 is suicide: it takes nothing and has no liberty\n\n"),
        (
            "showboard",
            "= \n   A B C D E\n 5 X X X X . 5\n 4 X X X X X 4\n 3 X X . X X 3\n"
            " 2 X X X X X 2\n 1 . X X X X 1\n   A B C D E\n"
            "area X 25, O 0, komi 0.5: X to move, the last move a pass\n\n",
        ),
        ("play b pass", "=\n\n"),
        ("genmove w", "= pass\n\n"),  # the game was over: a stone would resume it, none is legal
        ("clear_board", "=\n\n"),
        ("final_score", "= W+0.5\n\n"),
        ("quit", "=\n\n"),
    ]
    for line, answer in script:
        assert session.handle(line) == answer, line
    assert not session.running


def test_a_board_too_small_for_the_komi_is_refused_and_the_game_kept():
    session = GtpSession("random")
    assert session.handle("komi 80.5") == "=\n\n"
    assert session.handle("play b D4") == "=\n\n"
    assert session.handle("boardsize 5") == (
        "? unacceptable size: the komi 80.5 is more than the 25 points of 5x5 (change the komi"
        " first)\n\n"
    )
    assert session.game.size == 9 and session.state.played == 1
    assert session.handle("komi 0") == "=\n\n" and session.handle("boardsize 5") == "=\n\n"


def test_list_commands_names_every_command_and_each_is_known():
    session = GtpSession("random")
    answer = session.handle("list_commands")
    names = answer[2:-2].split("\n")
    assert set(names) == {
        "protocol_version", "name", "version", "known_command", "list_commands", "quit",
        "boardsize", "clear_board", "komi", "play", "genmove", "undo", "showboard",
        "final_score", "time_settings", "time_left",
    }  # fmt: skip
    assert all(session.handle(f"known_command {name}") == "= true\n\n" for name in names)


def test_genmove_plays_its_move_and_undo_takes_it_back():
    session = GtpSession("mcts:iterations=30")
    assert session.handle("boardsize 7") == "=\n\n"
    answer = session.handle("genmove b")
    assert answer.startswith("= ") and answer.endswith("\n\n")
    move = answer[2:-2]
    game = session.game
    assert move == "pass" or game.point_of(move) in game.legal_moves(game.initial_state())
    assert session.state.player == 1 and session.state.played == 1
    assert session.handle("undo") == "=\n\n" and session.state == game.initial_state()


def test_a_clock_cuts_the_time_of_a_move():
    session = GtpSession("mcts:time=100")
    session.handle("boardsize 5")
    assert session._budget(0) is None
    session.handle("time_settings 0 30 10")
    assert session._budget(0) == pytest.approx(2.9)  # 30 s for 10 stones, less the margin
    session.handle("time_left b 100 0")
    assert session._budget(0) == pytest.approx(100 / 10 - 0.1)  # main time: at least 10 moves
    session.handle("time_left b 0 0")
    assert session._budget(0) == 0.01
    assert session.handle("genmove b").startswith("= ")  # in a hundredth of a second


def test_a_clock_of_years_is_cut_to_what_a_player_may_think():
    said = []
    session = GtpSession("mcts:iterations=5", log=said.append)
    session.handle("boardsize 5")
    session.handle("time_left b 100000000000 0")
    assert session._budget(0) == 3600
    assert session.handle("genmove b").startswith("= ") and said == []


def test_the_command_line_speaks_gtp_on_standard_input(capsys, monkeypatch):
    lines = "boardsize 5\n2 genmove b\nfinal_score extra words\nquit\nname\n"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(lines.encode())))
    assert main(["gtp", "--player", "random"]) == 0
    out = capsys.readouterr().out
    answers = out.split("\n\n")
    assert answers[0] == "=" and answers[1].startswith("=2 ") and answers[3] == "="
    assert answers[2].startswith(("= B+", "= W+"))  # komi 7.5: never 0
    assert len(answers) == 5 and answers[4] == ""  # nothing after quit


def test_a_player_that_cannot_play_go_is_refused_in_one_line(capsys):
    assert main(["gtp", "--player", "nosuch"]) == 2
    assert capsys.readouterr().err.startswith("zerosum: error: unknown player 'nosuch'")
    assert main(["gtp", "--player", "mcts:iterations=0"]) == 2


def test_a_line_too_long_is_refused_without_being_held():
    source = io.BytesIO(b"name " + b"x" * 200_000 + b"\nname\n")
    output = io.BytesIO()
    assert serve(GtpSession("random"), source, output) == 0
    assert output.getvalue() == (
        b"? syntax error: a line of 200,006 bytes, the longest read is 65,536\n\n= zerosum\n\n"
    )


# -- random conversations ------------------------------------------------------------------

COMMANDS = list(GtpSession.COMMANDS)

WORDS = st.one_of(
    st.sampled_from(["b", "w", "black", "WHITE", "x", "pass", "PASS", "resign", "D4", "a1",
                     "E5", "T19", "I3", "Z0", "c3", "5", "7", "9", "4", "-1", "0.5", "6.3",
                     "nan", "inf", "1e400", "9" * 30, "80.5", "-81", "", "#", "\t", "\x00", "é",
                     "٣"]),
    st.text(max_size=6),
)  # fmt: skip
"""What an argument may be: a colour, a vertex, a number, or none of these."""


@st.composite
def lines(draw: st.DrawFn) -> str:
    """A command line: a command with arguments drawn among the right and the wrong, perhaps
    an id first; or garbage."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.text(max_size=30))
    command = draw(st.sampled_from([*COMMANDS, "genmove", "play", "play", "frob"]))
    if command == "quit":  # the conversation's end is tested apart
        command = "undo"
    if command == "boardsize":
        args = [draw(st.sampled_from(["5", "6", "7", "9", "4", "20", "x", "", "0", "9" * 30]))]
    elif command in ("play", "genmove"):
        colour = draw(st.sampled_from(["b", "w", "black", "white", "B", "x", ""]))
        vertex = draw(st.sampled_from(["A1", "B2", "C3", "D4", "E5", "pass", "G7", "J9"]))
        args = [colour, vertex] if command == "play" else [colour]
        args += draw(st.lists(WORDS, max_size=1))
    else:
        args = draw(st.lists(WORDS, max_size=3))
    words = [command, *args]
    if draw(st.booleans()):
        words.insert(0, str(draw(st.integers(0, 10**6))))
    separator = draw(st.sampled_from([" ", "  ", "\t"]))
    return separator.join(words)


@fuzzing(EXAMPLES)
@given(script=st.lists(lines(), max_size=30))
def test_every_line_is_answered_in_the_framing_and_every_genmove_is_legal(script):
    said = []
    session = GtpSession("mcts:iterations=2", log=said.append)
    for line in script:
        before = session.state
        answer = session.handle(line)
        words = clean(line).split()
        if not words:  # nothing but spaces, control characters or a comment: no answer
            assert answer is None, (line, answer)
            continue
        assert answer is not None and answer[0] in "=?" and answer.endswith("\n\n"), line
        assert "\n\n" not in answer[:-2], (line, answer)
        assert not re.match(r"\?[0-9]* failed", answer), (line, answer)  # no fault of ours
        if words[0].isascii() and words[0].isdigit():
            assert answer[1:].startswith(words[0]), (line, answer)  # the id echoed
            words = words[1:]
        if words[:1] == ["genmove"] and answer.startswith("="):
            move = answer.split()[1]
            colour = 0 if words[1].lower().startswith("b") else 1
            state = before._replace(player=colour)
            state = state._replace(passes=0) if state.passes >= 2 else state
            game = session.game
            legal = {game.format_move(state, m) for m in game.legal_moves(state)}
            assert move == "pass" or move in legal, (line, move)
            assert session.state.played == before.played + (not game.is_terminal(state))
    assert session.running
    assert said == []  # no search failed (a failure passes, and says why on the log)


def test_two_engines_play_a_whole_game_through_the_protocol():
    """As a referee (gogui-twogtp) runs a game: each engine's move played on the other's
    board, until two passes in a row; both boards agree, and so do their scores."""
    engines = [GtpSession("mcts:iterations=30"), GtpSession("random")]
    for engine in engines:
        assert engine.handle("boardsize 5") == "=\n\n"
        assert engine.handle("komi 0.5") == "=\n\n"
    colours = ("b", "w")
    passes = moves = 0
    while passes < 2:
        mover = moves % 2
        answer = engines[mover].handle(f"genmove {colours[mover]}")
        assert answer.startswith("= ") and answer.endswith("\n\n"), answer
        vertex = answer[2:-2]
        assert engines[1 - mover].handle(f"play {colours[mover]} {vertex}") == "=\n\n", vertex
        passes = passes + 1 if vertex == "pass" else 0
        moves += 1
        assert moves <= 75 + 2  # past the move limit of 5x5 both engines pass
    first, second = (engine.state for engine in engines)
    assert first[:5] == second[:5]
    assert engines[0].handle("final_score") == engines[1].handle("final_score")
    assert engines[0].game.is_terminal(first)
