"""Chess's static exchange: what a capture or promotion wins once every capture on its square is
played out, in pawns, for the side making it (`Chess.exchange`)."""

import random

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum.games.chess import Chess
from zerosum.games.chess.rules import PIECE_VALUES

GAME = Chess()


@pytest.mark.parametrize(
    ("fen", "move", "gain"),
    [
        # an undefended pawn: the rook keeps it
        ("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5", 1.0),
        # knight, rook and queen behind it against knight, bishop and the queen behind that:
        # white stops after black's knight retakes, a pawn for a knight
        ("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "d3e5", 1.0 - 3.2),
        # the king takes back a rook nothing defends ...
        ("8/8/4k3/3p4/8/8/3R4/4K3 w - - 0 1", "d2d5", 1.0 - 5.0),
        # ... and not one the bishop on b3 defends
        ("8/8/4k3/3p4/8/1B6/3R4/4K3 w - - 0 1", "d2d5", 1.0),
        # en passant takes the pawn beside the square
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 1.0),
        # a promotion wins a queen for its pawn
        ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", 8.0),
        # taking a rook as it promotes, the new queen lost to the king: a rook for the pawn
        ("1rk5/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8q", 5.0 - 1.0),
        # a pawn retaking on the last rank becomes a queen, which the king takes: the rook and
        # the queen's pawn for the knight and the queen
        ("r2Nk3/2P5/8/8/8/8/8/4K3 b - - 0 1", "a8d8", 3.2 - 5.0 - 8.0 + 9.0),
        # a quiet move exchanges nothing
        (chess.STARTING_FEN, "e2e4", 0.0),
    ],
)
def test_the_exchange_on_a_square(fen, move, gain):
    state = GAME.parse_state(fen)
    assert GAME.exchange(state, chess.Move.from_uci(move)) == pytest.approx(gain)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32))
def test_a_capture_wins_at_most_its_victim_and_loses_at_most_its_piece(seed):
    rng = random.Random(seed)
    state = GAME.initial_state()
    for _ in range(120):
        moves = GAME.legal_moves(state)
        if not moves:
            break
        board = state.board
        for move in moves:
            if not board.is_capture(move) or chess.square_rank(move.to_square) in (0, 7):
                continue  # on the last ranks a pawn that retakes becomes a queen: no such bound
            victim = PIECE_VALUES[board.piece_type_at(move.to_square) or chess.PAWN]
            piece = board.piece_type_at(move.from_square)
            gain = GAME.exchange(state, move)
            if piece == chess.KING:  # a legal king capture is never taken back
                assert gain == pytest.approx(victim)
            else:
                assert victim - PIECE_VALUES[piece] - 1e-9 <= gain <= victim + 1e-9
        state = GAME.result(state, rng.choice(moves))
