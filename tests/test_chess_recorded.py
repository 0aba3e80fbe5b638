"""Facts that the speed work on chess must keep: the evaluation's values and the noisy moves
(in their order) on recorded positions, the board and key that `play` makes (python-chess's
`push` and Polyglot hash along random games), and perft counts of the published suite.

The values were recorded with the evaluation of `zerosum.games.chess.evaluation` (centipawns
of its own arithmetic, read in pawns); they are compared exactly, so any change of the
evaluation shows here, and a change meant must record them again.
"""

import random

import chess
import chess.polyglot
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import oracle_path

from zerosum.games.chess import Chess, Position

GAME = Chess()

# (FEN, evaluation for White, noisy moves in the order given) recorded from random games
RECORDED = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0.0, ""),
    ("rnbqkb1r/pppppp2/5n1p/6p1/4Q3/1PP5/P2PPPPP/RNB1KBNR b KQkq - 1 4", -0.21, "f6e4"),
    (
        "1q2kb1r/1Qppp1p1/2n2n2/5p1p/2P5/r4N2/1P1PPPPP/1RB1KB1R w Kk - 0 10",
        0.61,
        "b7b8 b2a3 b7c6 b7c7",
    ),
    ("Bn3bn1/NQ2p1pr/4kp1p/8/P1p5/1PP5/3PNK2/1RB5 b - - 0 17", 12.57, "c4b3"),
    ("8/4p1b1/2k5/1n6/8/8/5P2/4K3 w - - 2 31", -6.37, ""),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        0.55,
        "e2a6 f3f6 d5e6 g2h3 e5f7 e5d7 e5g6 f3h3",
    ),
    (
        "1r2k2r/p2nqpb1/b1P1pnp1/1B6/1p2P3/2N2Q1p/PPPB1PPP/1R2K2R b Kk - 0 4",
        -1.58,
        "b4c3 a6b5 b8b5 h3g2 f6e4",
    ),
    (
        "r3kB1r/p1p2p1n/4p3/2NP4/np2p1b1/8/PPP2P1P/2R1K1Nr w kq - 0 10",
        -10.19,
        "c5a4 d5e6 c5e6 c5e4",
    ),
    ("4k3/p1p5/2p3p1/4b3/1r6/7R/PPP1KP2/1R6 b - - 0 17", 2.24, "e5b2 b4b2"),
    ("5k2/8/8/1N1p4/BP6/6K1/7P/R7 w - - 7 31", 12.15, ""),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", -0.02, "b4f4"),
    ("8/2p5/3p4/1K6/4P1k1/8/6P1/8 b - - 0 4", -0.42, ""),
    ("8/1K6/3p4/2p2k2/8/6P1/8/8 w - - 5 10", -1.26, ""),
    ("1K6/8/8/8/2k5/8/6Q1/8 b - - 0 17", 8.97, ""),
    ("8/3K4/8/8/8/8/8/4qk2 w - - 0 31", -9.88, ""),
    (
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        1.63,
        "g1h1 b4c5 f3d4 f1f2 c4c5 d2d4",
    ),
    (
        "r3k2N/Pppp2pp/5nb1/nPb5/BBPPP3/8/q2N2PP/n2Q1RK1 b q - 2 4",
        1.67,
        "c5b4 a2a4 a2d2 f6e4 a5c4 g6e4 c5a7 c5d4 a8a7 a2c4",
    ),
    ("R1kr3r/1ppp1ppp/1b3nbN/nPB5/B1P1P3/q4N2/Pp1P2PP/R2Q1RK1 b - - 0 2", 1000, ""),
    ("R7/Pp2k2p/7p/8/1P6/6Pb/P2R3P/7K b - - 0 17", 12.06, ""),
    ("8/8/1k6/8/8/8/P5PK/8 w - - 4 31", 1.75, ""),
    (
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        0.84,
        "d7c8q d7c8r d7c8b d7c8n e1f2 c4f7",
    ),
    ("rn1q1kr1/1p2bppp/p1Q5/3B4/5B2/8/PPP1N1PP/RN1QK2n b Q - 1 11", 11.56, "b7c6 b8c6 d8d5"),
    ("7k/p4pp1/2pq1b2/2B4p/p1B5/8/1PP1NKPP/RN5R w - - 0 17", 7.82, "c5d6 c5a7 c4f7 a1a4"),
    ("r3k3/1b6/p1p5/8/6P1/P1P5/B7/RN3K1n b - - 0 24", 1.57, ""),
    ("8/8/8/2pK2p1/P6k/1P6/N2N4/8 w - - 2 38", 5.83, "d5c5"),
    (
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        0.0,
        "g5f6 f3e5 c4f7 c4a6",
    ),
    (
        "5rk1/rBp1qppp/2npb3/2bnp1B1/4P2N/P2P4/1PP1QPPP/R4RK1 b - - 0 13",
        -2.11,
        "a7b7 e7g5 c5a3 c5f2 a7a3",
    ),
    ("r4r2/2p2pkp/p1np4/4p3/4P3/P2P1P2/RPPQ1K1P/8 w - - 0 19", 2.25, ""),
    ("1r6/1p3r2/p2p1pkp/8/3pP3/P5P1/1P5P/1R3K1R b - - 1 26", -1.24, ""),
    ("r6b/5k2/3P4/4p2P/8/2P5/8/6K1 w - - 3 40", -4.95, ""),
    ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 0, ""),
    ("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", -1000, ""),
    ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", 3.4, "a7a8q a7a8r a7a8b a7a8n"),
    ("4k3/8/8/8/8/8/4q3/R3K3 w Q - 0 1", -4.96, "e1e2"),
    ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", 0.2, "e5d6"),
]


@pytest.mark.parametrize(("fen", "value", "noisy"), RECORDED)
def test_recorded_evaluation_and_noisy_moves_are_unchanged(fen, value, noisy):
    state = GAME.parse_state(fen)
    assert GAME.evaluate(state, 0) == value
    assert GAME.evaluate(state, 1) == -value
    assert " ".join(move.uci() for move in GAME.noisy_moves(state)) == noisy


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([fen for fen, _, _ in RECORDED[:25:4]]))
def test_noisy_moves_are_the_legal_captures_and_promotions_or_every_evasion(seed, fen):
    rng = random.Random(seed)
    state = GAME.parse_state(fen)
    for _ in range(40):
        board = state.board
        legal = list(board.legal_moves)
        noisy = GAME.noisy_moves(state)
        if board.is_check():
            assert noisy == legal
        else:
            assert set(noisy) == {m for m in legal if m.promotion or board.is_capture(m)}
            assert len(noisy) == len(set(noisy))
        assert GAME.is_terminal(state) == (not legal or board.is_insufficient_material()
                                           or board.halfmove_clock >= 100
                                           or state.repetitions() >= 2)  # fmt: skip
        if GAME.is_terminal(state):
            break
        state = GAME.result(state, rng.choice(legal))


FIELDS = ("pawns", "knights", "bishops", "rooks", "queens", "kings", "occupied", "promoted",
          "turn", "castling_rights", "ep_square", "halfmove_clock", "fullmove_number")  # fmt: skip


def fields(board):
    return [getattr(board, name) for name in FIELDS] + list(board.occupied_co)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 2**32),
    st.sampled_from(
        [fen for fen, _, _ in RECORDED[::3]]
        + ["r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"]
    ),
)
def test_play_makes_the_board_python_chess_push_makes(seed, fen):
    rng = random.Random(seed)
    state = GAME.parse_state(fen)
    board = chess.Board(fen)
    for _ in range(60):
        moves = state.legal_moves()
        assert moves == list(board.legal_moves)
        if not moves:
            break
        # favour captures, castling, promotions and en passant: the moves a board can get wrong
        special = [m for m in moves if board.is_capture(m) or board.is_castling(m) or m.promotion]
        move = rng.choice(special if special and rng.random() < 0.6 else moves)
        state = state.play(move)
        board.push(move)
        assert fields(state.board) == fields(board)
        assert state.board.fen() == board.fen()
        assert state.key == chess.polyglot.zobrist_hash(board)


def perft(state, depth):
    """The leaves of the move tree, by the rules alone (the game ends on bare kings: perft does
    not), through `Position.play`."""
    if depth == 0:
        return 1
    return sum(perft(state.play(m), depth - 1) for m in state.legal_moves())


def cheap_perft_lines(limit=3000):
    """(FEN, depth, count) of the suite's positions whose deepest count up to `limit` leaves."""
    cases = []
    for line in oracle_path("chess", "perftsuite.epd").read_text().splitlines():
        fen, *parts = line.split(";")
        counts = [(int(p.split()[0][1:]), int(p.split()[1])) for p in parts if p.strip()]
        fitting = [(depth, count) for depth, count in counts if count <= limit]
        if fitting:
            cases.append((fen.strip(), *max(fitting)))
    return cases


def test_perft_counts_of_the_published_suite_up_to_3000_leaves():
    cases = cheap_perft_lines()
    assert len(cases) > 100
    for fen, depth, count in cases:
        assert perft(Position.from_board(chess.Board(fen)), depth) == count, (fen, depth)
