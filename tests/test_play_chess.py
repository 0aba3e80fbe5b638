"""`zerosum play chess` and `zerosum analyze chess`: the engine in the terminal."""

from __future__ import annotations

from oracles import oracle_path

MATE_IN_ONE = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
FOOLS_MATE_SETUP = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2"


def test_the_program_mates_in_one_when_it_can(cli):
    options = ["--fen", FOOLS_MATE_SETUP, "--as", "White", "--depth", "2"]
    code, out, _ = cli("play", "chess", *options, answers=[])
    assert code == 0
    assert "The program (Black) plays Qh4#." in out
    assert "Black wins: the program wins." in out


def test_an_illegal_move_is_explained_and_asked_again(cli):
    code, out, _ = cli("play", "chess", "--depth", "1", answers=["e2e5", "Nf3", "q"])
    assert code == 0
    assert "e2e5 is not legal here. Try again." in out
    assert "The program (Black) plays" in out
    assert "Game left unfinished." in out


def test_a_bad_fen_is_refused_before_the_game(cli):
    code, _, err = cli("play", "chess", "--fen", "not a fen", answers=[])
    assert code == 2 and "bad FEN 'not a fen'" in err


def test_analyze_chess_finds_the_back_rank_mate(cli):
    report = cli.json("analyze", "chess", "--fen", MATE_IN_ONE, "--depth", "2")
    assert report["best_move"] == "Ra8#"
    assert report["value"] == 1000 and report["plies"] == 1


def test_a_fen_is_a_position_like_any_other(cli):
    assert "bad moves 'x' at move 1" in cli.error("analyze", "connect4", "--fen", "x")
    assert "give the position once" in cli.error(
        "analyze", "chess", MATE_IN_ONE, "--fen", MATE_IN_ONE
    )


def test_the_program_plays_from_the_syzygy_tables_of_a_path(cli):
    path = oracle_path("chess", "syzygy")
    knights = "7k/8/8/5p2/3N4/4N3/8/2K5 b - - 0 1"  # after ...f4, Nxf4 would leave a draw
    options = ["--fen", knights, "--as", "Black", "--depth", "3", "--syzygy", str(path)]
    code, out, _ = cli("play", "chess", *options, answers=["f4", "q"])
    assert code == 0
    assert "The program (White) plays N" in out and "xf4" not in out


def test_a_bad_syzygy_path_is_refused_before_the_game(cli):
    code, _, err = cli("play", "chess", "--syzygy", "/no/such/folder", answers=[])
    assert code == 2 and "--syzygy '/no/such/folder' unreadable" in err
