"""Compiled chess: python-chess's rules move for move on random games (the moves in their order,
the key, the end of the game, the evaluation to the last bit, the noisy moves, MVV-LVA and the
static exchange), the published perft counts, and the compiled engine searching node for node
as the Python engine does.

Compiling the rules, perft and the engine costs about a minute of processor the first time
(numba caches it on disk), a second a process after.
"""

from __future__ import annotations

import random

import chess
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import oracle_path
from test_engine_switches import CHESS_ENDING_NODES

from zerosum.compiled.engine import Engine as CompiledEngine
from zerosum.compiled.perft import perft
from zerosum.compiled.protocol import compiled_twin
from zerosum.games import compiled_chess as twin
from zerosum.games.chess import Chess, Position
from zerosum.search.engine import Engine

GAME = Chess()
RULES = compiled_twin(GAME)

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
ENDING = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
STARTS = [
    chess.STARTING_FEN,
    KIWIPETE,
    ENDING,
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "4k3/1P6/8/3pP3/8/8/6p1/4K3 w - d6 0 1",  # promotions both ways, en passant
]
MOST_MOVES = "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1"
"""A position with 218 legal moves, the most known of a legal position."""


def compiled_moves(function, words):
    out = np.zeros(2 * RULES.max_moves, np.int64)
    return [twin.numbered_move(int(move)) for move in out[: function(words, out)]]


def same_position(state: Position, words: np.ndarray) -> None:
    """Every function of the compiled rules agrees with python-chess and `Chess` on `state`."""
    used = twin.HISTORY + int(words[twin.COUNT])  # `play` writes only the words in use
    assert twin.to_words(state)[:used].tolist() == words[:used].tolist()
    back = twin.from_words(words)
    assert (back.board.fen(), back.key, back.history) == (
        state.board.fen(),
        state.key,
        state.history,
    )
    assert twin.key(words) == state.key
    assert bool(twin.terminal(words)) == GAME.is_terminal(state)
    assert twin.to_move(words) == GAME.to_move(state)
    assert bool(twin.in_check(words)) == GAME.in_check(state)
    assert twin.path_key(words) == twin.path_key(twin.to_words(state))
    for player in (0, 1):
        assert twin.evaluate(words, player) == GAME.evaluate(state, player)
    if GAME.is_terminal(state):
        for player in (0, 1):
            assert twin.utility(words, player) == GAME.utility(state, player)
        return
    legal = GAME.legal_moves(state)
    assert compiled_moves(twin.moves, words) == legal
    assert compiled_moves(twin.noisy, words) == GAME.noisy_moves(state)
    for move in legal:
        number = twin.move_number(move)
        assert twin.exchange(words, number) == pytest.approx(GAME.exchange(state, move), abs=1e-9)
        taken = GAME.capture(state, move)
        scored = twin.capture(words, number)
        if taken is None:
            assert scored == twin.QUIET
        else:
            assert scored > twin.QUIET
    passed = GAME.null_move(state)
    child = np.zeros(RULES.words, np.uint64)
    assert bool(twin.pass_move(words, child)) == (passed is not None)
    if passed is not None:
        assert twin.from_words(child).board.fen() == passed.board.fen()
        assert twin.key(child) == passed.key


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(STARTS))
def test_compiled_rules_equal_python_chess_along_random_games(seed, fen):
    rng = random.Random(seed)
    state = GAME.parse_state(fen)
    words = twin.to_words(state)
    child = np.zeros(RULES.words, np.uint64)
    for _ in range(120):
        same_position(state, words)
        if GAME.is_terminal(state):
            break
        moves = GAME.legal_moves(state)
        board = state.board
        # favour captures, castling, promotions and en passant: the moves rules get wrong
        special = [m for m in moves if board.is_capture(m) or board.is_castling(m) or m.promotion]
        move = rng.choice(special if special and rng.random() < 0.5 else moves)
        twin.play(words, twin.move_number(move), child)
        state = GAME.result(state, move)
        words = child.copy()


def test_the_position_of_218_moves_and_the_most_any_position_can_have():
    state = GAME.parse_state(MOST_MOVES)
    assert len(compiled_moves(twin.moves, twin.to_words(state))) == 218
    assert RULES.max_moves > 218


def test_repetition_and_the_fifty_move_rule_end_the_game_in_both():
    state = GAME.parse_state("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    for uci in ["a1a2", "e8d8", "a2a1", "d8e8"] * 2:
        state = GAME.result(state, chess.Move.from_uci(uci))
    assert GAME.is_terminal(state)
    same_position(state, twin.to_words(state))
    clock = GAME.parse_state("4k3/8/8/8/8/8/8/R3K3 w - - 99 80")
    state = GAME.result(clock, chess.Move.from_uci("a1a2"))
    assert GAME.is_terminal(state) and twin.terminal(twin.to_words(state))


def test_the_path_key_tells_apart_equal_positions_reached_by_other_ways():
    start = GAME.parse_state("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    direct = GAME.result(start, chess.Move.from_uci("a1a2"))
    around = start
    for uci in ["a1a3", "e8d8", "a3a1", "d8e8", "a1a2"]:
        around = GAME.result(around, chess.Move.from_uci(uci))
    assert direct.key == around.key
    assert GAME.path_key(direct) != GAME.path_key(around)
    assert twin.path_key(twin.to_words(direct)) != twin.path_key(twin.to_words(around))


def rules_alone(fen: str, depth: int) -> bool:
    """Whether no line of `depth` moves from `fen` can end the game by the game's own rules
    (perft's published counts know none): more pawns, rooks and queens than moves (insufficient
    material needs them gone, a capture takes one), a clock that stays below 100, and fewer
    than 8 plies (the shortest way to a third occurrence)."""
    board = chess.Board(fen)
    heavy = chess.popcount(board.pawns | board.rooks | board.queens)
    return heavy > depth and board.halfmove_clock + depth < 100 and depth < 8


def suite(most, alone=True):
    """(FEN, depth, count) of the perft suite with counts up to `most` positions, each where the
    game cannot end before perft does (`alone`) or each where it might (not `alone`)."""
    cases = []
    for name in ["cpw_perft_results.epd", "perftsuite.epd"]:
        for line in oracle_path("chess", name).read_text().splitlines():
            fen, *parts = line.split(";")
            for part in parts:
                if part.strip().startswith("D"):
                    depth, count = part.split()
                    if int(count) <= most and rules_alone(fen, int(depth[1:])) == alone:
                        cases.append((fen.strip(), int(depth[1:]), int(count)))
    return cases


def test_perft_counts_the_published_numbers_where_the_game_cannot_end_first():
    cases = suite(1_000_000)
    assert len(cases) > 100
    for fen, depth, count in cases:
        state = Position.from_board(chess.Board(fen))  # some are not reachable by a game
        assert perft(GAME, state, depth).nodes == count, (fen, depth)


def game_perft(state, depth):
    """The lines of `depth` moves by the Python game's rules (none through a finished game)."""
    if depth == 0:
        return 1
    return sum(game_perft(GAME.result(state, m), depth - 1) for m in GAME.legal_moves(state))


def test_perft_counts_the_python_games_lines_where_the_game_may_end_first():
    cases = suite(3_000, alone=False)
    assert len(cases) > 100
    for fen, depth, _ in cases:
        if chess.Board(fen).status() != chess.STATUS_VALID:
            continue  # an impossible check: refused, as in the next test
        state = Position.from_board(chess.Board(fen))  # some are not reachable by a game
        assert perft(GAME, state, depth).nodes == game_perft(state, depth), (fen, depth)


DEEP_PERFT = {
    chess.STARTING_FEN: (5, 4_865_609),
    KIWIPETE: (4, 4_085_603),
    ENDING: (5, 674_624),
    STARTS[3]: (4, 422_333),
    STARTS[4]: (4, 2_103_487),
    STARTS[5]: (4, 3_894_594),
}
"""The standard perft positions one to six at the depth where they pass a million (the
Chess Programming Wiki's published counts)."""


@pytest.mark.parametrize(("fen", "depth", "count"), [(f, *c) for f, c in DEEP_PERFT.items()])
def test_perft_of_the_six_standard_positions_past_a_million(fen, depth, count):
    assert perft(GAME, GAME.parse_state(fen), depth).nodes == count


@pytest.mark.parametrize("fen", STARTS[:4])
@pytest.mark.parametrize("depth", [1, 2, 3, 4])
@pytest.mark.parametrize("table", [True, False])
def test_at_fixed_depth_the_compiled_engine_searches_as_the_python_engine(fen, depth, table):
    state = GAME.parse_state(fen)
    python = Engine(GAME, table=table, table_mb=4).search(state, depth=depth)
    compiled = CompiledEngine(GAME, table=table, table_mb=4).search(state, depth=depth)
    assert (compiled.score, compiled.pv, compiled.exact) == (python.score, python.pv, python.exact)
    assert compiled.best_move == python.best_move
    assert compiled.stats == python.stats
    assert [(i.depth, i.score, i.pv, i.nodes) for i in compiled.iterations] == [
        (i.depth, i.score, i.pv, i.nodes) for i in python.iterations
    ]


@pytest.mark.parametrize(("switches", "nodes"), CHESS_ENDING_NODES)
def test_each_switch_gives_the_python_engines_nodes_in_the_chess_ending(switches, nodes):
    result = CompiledEngine(GAME, **switches).search(GAME.parse_state(ENDING), depth=4)
    assert result.stats.nodes == nodes


def test_a_singular_extension_gives_the_python_engines_search_of_the_chess_ending():
    state = GAME.parse_state(ENDING)
    expected = Engine(GAME, singular_extensions=True).search(state, depth=7)
    result = CompiledEngine(GAME, singular_extensions=True).search(state, depth=7)
    assert (result.value, result.pv, result.stats) == (expected.value, expected.pv, expected.stats)
    assert [i.nodes for i in result.iterations] == [i.nodes for i in expected.iterations]
    assert result.stats.nodes == 37751


def test_mates_are_found_and_scored_by_their_distance():
    one = GAME.parse_state("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
    result = CompiledEngine(GAME).search(one, depth=3)
    assert (GAME.format_move(one, result.best_move), result.plies) == ("Qxf7#", 1)
    two = GAME.parse_state("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 10")
    result = CompiledEngine(GAME).search(two, depth=5)
    assert (GAME.format_move(two, result.best_move), result.plies, result.value) == (
        "Nf6+",
        3,
        1000,
    )


def test_a_position_the_compiled_rules_cannot_hold_is_refused_in_one_line():
    impossible = Position.from_board(chess.Board("B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1"))
    with pytest.raises(ValueError, match="a check no last move can have given"):
        twin.to_words(impossible)
    with pytest.raises(ValueError, match="bad FEN"):
        GAME.parse_state("B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1")


def test_the_magic_numbers_are_found_again_and_index_python_chess_attacks():
    from zerosum.games import compiled_chess_attacks as attacks

    for masks, steps, magics in [
        (attacks.BISHOP_MASKS, attacks.BISHOP_STEPS, attacks.BISHOP_MAGICS),
        (attacks.ROOK_MASKS, attacks.ROOK_STEPS, attacks.ROOK_MAGICS),
    ]:
        assert attacks.find_magics(masks, steps, attacks.MAGIC_START).tolist() == magics.tolist()
    rng = random.Random(7)
    for _ in range(2000):
        square, occupied = rng.randrange(64), rng.getrandbits(64) & rng.getrandbits(64)
        diagonal = chess.BB_DIAG_ATTACKS[square][occupied & chess.BB_DIAG_MASKS[square]]
        straight = (
            chess.BB_RANK_ATTACKS[square][occupied & chess.BB_RANK_MASKS[square]]
            | chess.BB_FILE_ATTACKS[square][occupied & chess.BB_FILE_MASKS[square]]
        )
        assert int(attacks.bishop_attacks(square, np.uint64(occupied))) == diagonal
        assert int(attacks.rook_attacks(square, np.uint64(occupied))) == straight
        assert int(attacks.queen_attacks(square, np.uint64(occupied))) == diagonal | straight
