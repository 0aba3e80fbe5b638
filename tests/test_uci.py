"""`zerosum uci` driven by python-chess's engine client, as a GUI would drive it."""

from __future__ import annotations

import sys
import time

import chess
import chess.engine
import chess.polyglot
import chess.syzygy
import pytest
from oracles import oracle_path

from zerosum.cli.uci import UciSession, think_time

MATE_IN_ONE = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"  # Ra8#
MATE_IN_TWO = "7k/8/8/8/8/8/R7/1R4K1 w - - 0 1"  # the two rooks' ladder: Ra7 then Rb8#


@pytest.fixture
def engine():
    uci = chess.engine.SimpleEngine.popen_uci([sys.executable, "-m", "zerosum", "uci"])
    try:
        yield uci
    finally:
        uci.quit()


def session_lines(*commands: str) -> list[str]:
    """What a session answers to `commands`, waiting for its searches to end."""
    lines: list[str] = []
    session = UciSession(lines.append)
    for command in commands:
        session.handle(command)
    session.stop()
    return lines


def test_the_engine_introduces_itself_with_its_four_options(engine):
    assert engine.id["name"] == "zerosum"
    assert {"Hash", "OwnBook", "BookFile", "SyzygyPath"} <= set(engine.options)
    assert engine.options["Hash"].type == "spin"
    assert engine.options["OwnBook"].type == "check"


def test_play_at_depth_two_after_moves_returns_a_legal_move(engine):
    board = chess.Board()
    for move in ("e2e4", "e7e5", "g1f3"):
        board.push_uci(move)
    result = engine.play(board, chess.engine.Limit(depth=2))
    assert result.move in board.legal_moves


def test_play_with_a_clock_returns_a_legal_move(engine):
    board = chess.Board()
    limit = chess.engine.Limit(white_clock=2, black_clock=2, white_inc=0.1, black_inc=0.1)
    result = engine.play(board, limit)
    assert result.move in board.legal_moves


def test_a_gui_asking_for_no_depth_nodes_or_time_still_gets_a_legal_move(engine):
    board = chess.Board()
    for limit in (
        chess.engine.Limit(depth=0),
        chess.engine.Limit(nodes=0),
        chess.engine.Limit(time=0),
        chess.engine.Limit(depth=10**20, nodes=1),
    ):
        assert engine.play(board, limit).move in board.legal_moves


def test_stop_during_go_infinite_answers_with_a_legal_best_move(engine):
    board = chess.Board()
    with engine.analysis(board) as analysis:
        time.sleep(0.5)
        analysis.stop()
        best = analysis.wait()
    assert best.move in board.legal_moves


def test_mate_in_one_is_played_and_scored_mate_1(engine):
    board = chess.Board(MATE_IN_ONE)
    info = engine.analyse(board, chess.engine.Limit(depth=2))
    assert info["score"].relative == chess.engine.Mate(1)
    assert info["pv"][0] == chess.Move.from_uci("a1a8")


def test_mate_in_two_is_found_and_scored_mate_2(engine):
    board = chess.Board(MATE_IN_TWO)
    info = engine.analyse(board, chess.engine.Limit(depth=4))
    assert info["score"].relative == chess.engine.Mate(2)
    board.push(info["pv"][0])
    board.push(info["pv"][1])
    board.push(info["pv"][2])
    assert board.is_checkmate()


def test_the_polyglot_book_gives_the_first_move(engine):
    path = oracle_path("chess", "polyglot", "performance-start.bin")
    engine.configure({"OwnBook": True, "BookFile": str(path)})
    board = chess.Board()
    with chess.polyglot.open_reader(path) as reader:
        book = {entry.move for entry in reader.find_all(board)}
    result = engine.play(board, chess.engine.Limit(depth=1), info=chess.engine.INFO_ALL)
    assert result.move in book
    assert result.info["string"] == f"book move {result.move.uci()}"


def test_syzygy_tables_give_a_move_that_keeps_the_win(engine):
    path = oracle_path("chess", "syzygy")
    engine.configure({"SyzygyPath": str(path)})
    board = chess.Board("8/8/8/4k3/8/8/8/KR6 w - - 0 1")  # KRvK
    result = engine.play(board, chess.engine.Limit(depth=1), info=chess.engine.INFO_ALL)
    assert result.info["string"].startswith(f"syzygy move {result.move.uci()}")
    with chess.syzygy.open_tablebase(str(path)) as tables:
        before = tables.probe_dtz(board)
        board.push(result.move)
        assert tables.probe_wdl(board) == -2
        assert tables.probe_dtz(board) == -(before - 1)  # one ply nearer to the win


def test_a_missing_syzygy_path_is_refused_and_the_engine_still_plays():
    lines = session_lines(
        "setoption name SyzygyPath value /no/such/folder", "position startpos", "go depth 1"
    )
    assert lines[0].startswith(
        "info string ignored 'setoption name SyzygyPath value /no/such/folder':"
        " SyzygyPath '/no/such/folder' unreadable: "
    )
    assert lines[0].endswith("; SyzygyPath stays empty")
    assert lines[-1].startswith("bestmove ")


def test_a_book_gone_after_setoption_is_reported_and_the_engine_still_plays(tmp_path):
    book = tmp_path / "book.bin"
    book.write_bytes(oracle_path("chess", "polyglot", "performance-start.bin").read_bytes())
    lines: list[str] = []
    session = UciSession(lines.append)
    session.handle("setoption name OwnBook value true")
    session.handle(f"setoption name BookFile value {book}")
    assert lines == []
    book.unlink()
    session.handle("go depth 1")
    session.stop()
    assert f"info string book '{book}' unreadable: No such file or directory" in lines
    assert lines[-1].startswith("bestmove ")


def test_unknown_and_malformed_commands_are_ignored_and_isready_answered():
    lines = session_lines("xyzzy", "position nonsense", "position startpos moves e2e5", "isready")
    assert lines == [
        "info string ignored 'position nonsense': expected position startpos or position fen"
        " FEN, then moves",
        "info string ignored 'position startpos moves e2e5': e2e5 is not legal in"
        " rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "readyok",
    ]  # xyzzy is silently ignored


def test_a_position_repeated_by_the_moves_is_played_on_not_resigned():
    shuffle = "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8"
    lines = session_lines(f"position startpos moves {shuffle}", "go depth 2")
    assert lines[-1] != "bestmove 0000"


def test_think_time_keeps_a_margin_and_shares_the_clock():
    assert think_time({"movetime": 1000}, white=True) == pytest.approx(0.9)
    assert think_time({"movetime": 200}, white=True) == pytest.approx(0.18)
    assert think_time({"wtime": 30000, "btime": 1000}, white=True) == pytest.approx(1.4)
    black = think_time({"wtime": 30000, "btime": 1000, "movestogo": 1}, white=False)
    assert black == pytest.approx(0.3)
    assert think_time({"depth": 5}, white=True) is None
