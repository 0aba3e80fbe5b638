"""Syzygy tables inside the search: positions they hold are scored from them, never searched."""

from __future__ import annotations

import sys

import chess
import chess.engine
import pytest
from oracles import oracle_path

from zerosum.cli.uci import uci_score
from zerosum.game import Tablebase
from zerosum.games.chess import WIN, Chess
from zerosum.games.chess.syzygy import Syzygy
from zerosum.search.engine import Engine
from zerosum.search.scores import PROVEN, distance_score

GAME = Chess()
KNN_V_KP = "7k/8/8/5p2/3N4/4N3/8/2K5 w - - 0 1"  # taking the pawn leaves KNNvK: a draw


@pytest.fixture(scope="module")
def tables():
    syzygy = Syzygy.open(str(oracle_path("chess", "syzygy")))
    yield syzygy
    syzygy.close()


def test_lookup_gives_win_draw_or_nothing_for_the_player_to_move_and_no_distance(tables):
    assert isinstance(tables, Tablebase)
    assert tables.lookup(GAME.parse_state("8/8/8/4k3/8/8/8/KR6 w - - 0 1")) == (WIN, None)
    assert tables.lookup(GAME.parse_state("8/8/8/4k3/8/8/8/KR6 b - - 0 1")) == (-WIN, None)
    assert tables.lookup(GAME.parse_state("8/8/8/4k3/8/8/8/KN6 w - - 0 1")) == (0, None)


def test_lookup_leaves_out_what_wdl_cannot_answer_exactly(tables):
    assert tables.lookup(GAME.parse_state("8/8/8/4k3/8/8/8/KR6 w - - 5 9")) is None  # counter
    assert tables.lookup(GAME.parse_state("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")) is None  # castling
    assert tables.lookup(GAME.parse_state(KNN_V_KP)) is None  # five pieces, tables up to four


def test_the_engine_does_not_take_the_pawn_that_leaves_a_drawn_knights_ending(tables):
    state = GAME.parse_state(KNN_V_KP)
    without = Engine(GAME).search(state, depth=3)
    engine = Engine(GAME, tablebase=tables)
    result = engine.search(state, depth=3)
    assert GAME.format_move(state, without.best_move) == "Nexf5"
    assert GAME.format_move(state, result.best_move) != "Nexf5"
    assert engine.tablebase_hits > 0


def test_a_table_win_is_proven_below_every_mate_and_has_no_length(tables):
    state = GAME.parse_state("8/8/8/4k3/8/8/2r5/K2Q4 w - - 0 1")  # Qxc2 leaves KQvK
    result = Engine(GAME, tablebase=tables).search(state, depth=2)
    assert GAME.format_move(state, result.best_move) == "Qxc2"
    assert PROVEN <= result.score < distance_score(WIN, 1000)
    assert (result.value, result.plies) == (WIN, None)
    assert uci_score(result.iterations[-1]) == "cp 100000"  # not a mate in 131,000


def test_a_missing_or_empty_syzygy_path_is_refused_with_the_reason(tmp_path):
    with pytest.raises(ValueError, match="'/no/such/folder' unreadable"):
        Syzygy.open("/no/such/folder")
    with pytest.raises(ValueError, match="holds no Syzygy WDL tables"):
        Syzygy.open(str(tmp_path))


def test_the_python_uci_engine_searches_with_the_tables_and_reports_tbhits(tables):
    command = [sys.executable, "-m", "zerosum", "uci", "--engine", "python"]  # the compiled
    uci = chess.engine.SimpleEngine.popen_uci(command)  # engine reads them at the root only
    try:
        uci.configure({"SyzygyPath": str(oracle_path("chess", "syzygy"))})
        board = chess.Board(KNN_V_KP)
        result = uci.play(board, chess.engine.Limit(depth=3), info=chess.engine.INFO_ALL)
    finally:
        uci.quit()
    assert board.san(result.move) != "Nexf5"
    assert result.info["tbhits"] > 0


def test_analyze_chess_with_syzygy_reports_the_tables_win_and_their_hits(tables, cli):
    path = str(oracle_path("chess", "syzygy"))
    fen = "8/8/8/4k3/8/8/2r5/K2Q4 w - - 0 1"
    report = cli.json("analyze", "chess", "--fen", fen, "--depth", "2", "--syzygy", path)
    assert (report["best_move"], report["value"], report["plies"]) == ("Qxc2", WIN, None)
    assert report["tbhits"] > 0
    code, out, _ = cli("analyze", "chess", "--fen", fen, "--depth", "1", "--syzygy", path)
    assert code == 0
    assert "best move: Qxc2  score: win by the tables (+1000)" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["chess", "--syzygy", "/no/such/folder"], "--syzygy '/no/such/folder' unreadable"),
        (["connect4", "--syzygy", "/tmp"], "--syzygy: connect4 reads no endgame tables"),
    ],
)
def test_analyze_refuses_a_bad_syzygy_path_in_one_line(args, message, cli):
    assert message in cli.error("analyze", *args, "--depth", "1")  # one line, exit code 2
