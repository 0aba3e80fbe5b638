"""`zerosum play chess` and `zerosum analyze chess`: the engine in the terminal."""

from __future__ import annotations

import json

from terminal import play_typed

from zerosum.cli import main

MATE_IN_ONE = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
FOOLS_MATE_SETUP = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2"


def play(monkeypatch, capsys, moves, *options):
    return play_typed(monkeypatch, capsys, "chess", moves, *options)


def test_the_program_mates_in_one_when_it_can(monkeypatch, capsys):
    code, out, _ = play(monkeypatch, capsys, [], "--fen", FOOLS_MATE_SETUP, "--as", "White",
                        "--depth", "2")  # fmt: skip
    assert code == 0
    assert "The program (Black) plays Qh4#." in out
    assert "Black wins: the program wins." in out


def test_an_illegal_move_is_explained_and_asked_again(monkeypatch, capsys):
    code, out, _ = play(monkeypatch, capsys, ["e2e5", "Nf3", "q"], "--depth", "1")
    assert code == 0
    assert "e2e5 is not legal here. Try again." in out
    assert "The program (Black) plays" in out
    assert "Game left unfinished." in out


def test_a_bad_fen_is_refused_before_the_game(monkeypatch, capsys):
    code, _, err = play(monkeypatch, capsys, [], "--fen", "not a fen")
    assert code == 2 and "bad FEN 'not a fen'" in err


def test_analyze_chess_finds_the_back_rank_mate(capsys):
    code = main(["analyze", "chess", "--fen", MATE_IN_ONE, "--depth", "2", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0
    assert report["best_move"] == "Ra8#"
    assert report["value"] == 1000 and report["plies"] == 1


def test_a_fen_is_a_position_like_any_other(capsys):
    assert main(["analyze", "connect4", "--fen", "x"]) == 2
    assert "bad moves 'x' at move 1" in capsys.readouterr().err
    assert main(["analyze", "chess", MATE_IN_ONE, "--fen", MATE_IN_ONE]) == 2
    assert "give the position once" in capsys.readouterr().err


def test_the_program_plays_from_the_syzygy_tables_of_a_path(monkeypatch, capsys):
    from oracles import oracle_path

    path = oracle_path("chess", "syzygy")
    knights = "7k/8/8/5p2/3N4/4N3/8/2K5 b - - 0 1"  # after ...f4, Nxf4 would leave a draw
    code, out, _ = play(monkeypatch, capsys, ["f4", "q"], "--fen", knights, "--as", "Black",
                        "--depth", "3", "--syzygy", str(path))  # fmt: skip
    assert code == 0
    assert "The program (White) plays N" in out and "xf4" not in out


def test_a_bad_syzygy_path_is_refused_before_the_game(monkeypatch, capsys):
    code, _, err = play(monkeypatch, capsys, [], "--syzygy", "/no/such/folder")
    assert code == 2 and "--syzygy '/no/such/folder' unreadable" in err
