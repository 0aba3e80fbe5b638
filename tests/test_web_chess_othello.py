"""The Play page's chess and Othello boards on the server's side: what the drawers are given.

Each legal move has its own target, and the move a target names is the move the game reads
back from the text the page sends; the FEN, the square in check and the discs are the
position's.
"""

import chess

from zerosum.games.chess import Chess
from zerosum.games.othello import PASS, Othello
from zerosum.notation import format_move, parse_move
from zerosum.web import chess_board, othello_board


def test_chess_start_gives_its_fen_and_20_targets_one_per_move():
    game = Chess()
    state = game.initial_state()
    board = chess_board.describe(game, state, None, 0)
    assert board == {
        "kind": "chess",
        "fen": chess.STARTING_FEN,
        "flip": False,
        "last": None,
        "check": None,
    }
    targets = [chess_board.target(game, state, move) for move in game.legal_moves(state)]
    assert len(targets) == 20
    assert len({(t["from"], t["to"], t["promotion"]) for t in targets}) == 20
    assert {"from": "g1", "to": "f3", "promotion": None} in targets


def test_chess_target_text_reads_back_as_the_same_move():
    game = Chess("r3k2r/pPpp1ppp/8/3Pp3/8/8/8/R3K2R w KQkq e6 0 1")
    state = game.initial_state()
    for move in game.legal_moves(state):
        target = chess_board.target(game, state, move)
        uci = target["from"] + target["to"] + (target["promotion"] or "")
        assert uci == move.uci()
        assert parse_move(game, state, format_move(game, state, move)) == move
    targets = [chess_board.target(game, state, move) for move in game.legal_moves(state)]
    promotions = sorted(t["promotion"] for t in targets if t["from"] == "b7" and t["to"] == "a8")
    assert promotions == ["b", "n", "q", "r"]
    assert {"from": "e1", "to": "g1", "promotion": None} in targets  # castling: the king's squares
    assert {"from": "d5", "to": "e6", "promotion": None} in targets  # en passant


def test_chess_board_marks_the_king_in_check_the_last_move_and_the_side_at_the_bottom():
    game = Chess()
    state = game.initial_state()
    for text in ("e4", "f5", "Qh5+"):
        move = parse_move(game, state, text)
        state = game.result(state, move)
    board = chess_board.describe(game, state, move, 1)
    assert board["check"] == "e8"
    assert board["last"] == ["d1", "h5"]
    assert board["flip"] is True
    assert board["fen"] == "rnbqkbnr/ppppp1pp/8/5p1Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2"


def test_othello_start_has_two_discs_each_and_four_cells_to_play():
    game = Othello()
    state = game.initial_state()
    board = othello_board.describe(game, state, None, 0)
    cells = board["cells"]
    assert board["kind"] == "othello" and board["size"] == 8 and board["last"] is None
    assert len(cells) == 64
    assert [i for i, c in enumerate(cells) if c == "B"] == [28, 35]  # e4, d5
    assert [i for i, c in enumerate(cells) if c == "W"] == [27, 36]  # d4, e5
    targets = {
        format_move(game, state, m): othello_board.target(game, state, m)
        for m in game.legal_moves(state)
    }
    assert targets == {
        "d3": {"cell": 19},
        "c4": {"cell": 26},
        "f5": {"cell": 37},
        "e6": {"cell": 44},
    }


def test_othello_board_after_a_move_counts_the_turned_disc_and_marks_the_square():
    game = Othello()
    state = game.initial_state()
    move = parse_move(game, state, "d3")
    state = game.result(state, move)
    board = othello_board.describe(game, state, move, 0)
    assert board["last"] == 19
    assert board["cells"].count("B") == 4 and board["cells"].count("W") == 1


def test_othello_pass_is_its_own_target_and_no_cell():
    game = Othello()
    # Black (X) to move has no square: every disc but White's corner is Black's.
    state = game.parse_state("O" + "X" * 62 + ". X")
    assert game.legal_moves(state) == [PASS]
    assert othello_board.target(game, state, PASS) == {"pass": True}
    assert othello_board.describe(game, state, PASS, 0)["last"] is None


def test_twelve_pieces_ship_with_the_package():
    import tomllib
    from pathlib import Path
    from xml.etree import ElementTree

    from zerosum.web.app import STATIC

    pieces = sorted(path.name for path in (STATIC / "pieces").glob("*.svg"))
    assert pieces == sorted(f"{colour}{kind}.svg" for colour in "wb" for kind in "KQRBNP")
    for name in pieces:
        drawing = ElementTree.parse(STATIC / "pieces" / name).getroot()
        assert drawing.get("viewBox") == "0 0 100 100", name
    # Every file the server sends is package data (setuptools' globs, from the package's folder).
    root = Path(__file__).resolve().parent.parent
    patterns = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
    package = STATIC.parent.parent
    shipped = {
        path for pattern in patterns["package-data"]["zerosum"] for path in package.glob(pattern)
    }
    assert {path for path in STATIC.rglob("*") if path.is_file()} <= shipped
