"""Chess as a Game: the incremental key equals Polyglot's, the rules, the evaluation's signs."""

import random

import chess
import chess.polyglot
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import oracle_path

from zerosum.games.chess import WIN, Chess, Position
from zerosum.search import alphabeta

GAME = Chess()

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 2**32),
    st.sampled_from(
        [
            chess.STARTING_FEN,
            KIWIPETE,
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbqkbnr/pp1ppppp/8/2pP4/8/8/PPP1PPPP/RNBQKBNR b KQkq - 0 2",
        ]
    ),
)
def test_incremental_key_equals_the_polyglot_hash_along_random_games(seed, fen):
    rng = random.Random(seed)
    state = GAME.parse_state(fen)
    board = chess.Board(fen)
    for _ in range(80):
        assert state.key == chess.polyglot.zobrist_hash(board)
        moves = GAME.legal_moves(state)
        if not moves:
            break
        # favour captures, castling, promotions and en passant: the moves a key can get wrong
        special = [m for m in moves if board.is_capture(m) or board.is_castling(m) or m.promotion]
        move = rng.choice(special if special and rng.random() < 0.6 else moves)
        state = GAME.result(state, move)
        board.push(move)


def test_castling_en_passant_and_promotion_keys():
    lines = {
        "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1": ["e1g1", "e1c1"],
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1": ["e5d6"],
        "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1": ["a7a8q", "a7b8n"],
    }
    for fen, moves in lines.items():
        for uci in moves:
            board = chess.Board(fen)
            state = GAME.result(GAME.parse_state(fen), chess.Move.from_uci(uci))
            board.push_uci(uci)
            assert state.key == chess.polyglot.zobrist_hash(board), (fen, uci)


def perft(state, depth):
    if depth == 0:
        return 1
    return sum(perft(GAME.result(state, m), depth - 1) for m in GAME.legal_moves(state))


@pytest.mark.parametrize(
    "line", oracle_path("chess", "cpw_perft_results.epd").read_text().splitlines()
)
def test_perft_counts_match_the_published_ones_to_depth_2(line):
    fen, *fields = line.split(";")
    counts = {f.split()[0]: int(f.split()[1]) for f in fields if f.strip().startswith("D")}
    state = GAME.parse_state(fen.strip())
    assert perft(state, 2) == counts["D2"]


def test_checkmate_scores_win_for_the_mating_side():
    state = GAME.parse_state("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    assert GAME.is_terminal(state)
    assert GAME.utility(state, 0) == -WIN and GAME.utility(state, 1) == WIN


def test_stalemate_insufficient_material_and_fifty_moves_are_draws():
    for fen in (
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
        "8/8/4k3/8/8/3K4/8/R7 w - - 100 80",
    ):
        state = GAME.parse_state(fen)
        assert GAME.is_terminal(state)
        assert GAME.utility(state, 0) == 0


def test_threefold_repetition_ends_the_game_in_a_draw():
    state = GAME.initial_state()
    for uci in ["g1f3", "g8f6", "f3g1", "f6g8"] * 2:
        assert not GAME.is_terminal(state)
        state = GAME.result(state, chess.Move.from_uci(uci))
    assert GAME.is_terminal(state) and GAME.utility(state, 0) == 0


def test_noisy_moves_are_captures_by_mvv_lva_or_every_evasion_in_check():
    state = GAME.parse_state("4k3/8/8/3q4/4P3/2n5/1P6/4K3 w - - 0 1")
    noisy = [m.uci() for m in GAME.noisy_moves(state)]
    assert noisy == ["e4d5", "b2c3"]  # the queen first
    check = GAME.parse_state("4k3/8/8/8/8/8/4q3/R3K3 w Q - 0 1")
    assert set(GAME.noisy_moves(check)) == set(check.board.legal_moves)


def test_evaluation_is_symmetric_and_counts_material():
    start = GAME.initial_state()
    assert GAME.evaluate(start, 0) == pytest.approx(0.0)
    up_a_knight = GAME.parse_state("rnbqkb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    assert 2.5 < GAME.evaluate(up_a_knight, 0) < 4.0
    assert GAME.evaluate(up_a_knight, 1) == -GAME.evaluate(up_a_knight, 0)
    mirrored = GAME.parse_state(chess.Board(KIWIPETE).mirror().fen())
    assert GAME.evaluate(mirrored, 1) == pytest.approx(GAME.evaluate(GAME.parse_state(KIWIPETE), 0))


def test_mate_in_one_is_found_by_a_two_ply_search():
    state = GAME.parse_state("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    result = alphabeta(GAME, state, depth=1, distance=True)
    assert GAME.format_move(state, result.best_move) == "Ra8#"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("Ke2", "Ke2 is not legal here"),
        ("e5", "e5 is not legal here"),
        ("e2e5", "e2e5 is not legal here"),
        ("zz", "'zz' is not a move"),
    ],
)
def test_bad_moves_are_explained(text, reason):
    with pytest.raises(ValueError, match=reason):
        GAME.parse_move(GAME.initial_state(), text)


def test_an_ambiguous_move_asks_for_the_piece():
    state = GAME.parse_state("4k3/8/8/8/8/8/8/1N1K1N2 w - - 0 1")  # Nb1 and Nf1 both reach d2
    with pytest.raises(ValueError, match="ambiguous"):
        GAME.parse_move(state, "Nd2")
    assert GAME.parse_move(state, "Nbd2").uci() == "b1d2"


def test_bad_fen_is_refused_with_the_reason():
    with pytest.raises(ValueError, match="bad FEN"):
        GAME.parse_state("not a fen")
    with pytest.raises(ValueError, match="bad FEN"):
        GAME.parse_state("8/8/8/8/8/8/8/8 w - - 0 1")
    with pytest.raises(ValueError, match="a halfmove clock over 150"):
        GAME.parse_state("4k3/8/8/8/8/8/8/4K3 w - - 151 200")
    with pytest.raises(ValueError, match="a move number over 10,000"):
        GAME.parse_state("4k3/8/8/8/8/8/8/4K3 w - - 0 10001")
    assert GAME.parse_state("4k3/8/8/8/8/8/8/4K3 w - - 150 10000").board.halfmove_clock == 150


def test_position_from_board_keeps_no_move_stack():
    board = chess.Board()
    board.push_uci("e2e4")
    assert Position.from_board(board).board.move_stack == []
