"""The engine on chess: mates found through forward pruning and thanks to check extensions."""

import pytest
from oracles import oracle_path

from zerosum.games.chess import WIN, Chess
from zerosum.search.engine import Engine
from zerosum.search.scores import decode

GAME = Chess()
WAC = {
    line.split('id "')[1].split('"')[0]: line.split(" bm ")[0]
    for line in oracle_path("chess", "wac.epd").read_text().splitlines()
}
# Win At Chess positions where the side to move mates in 3 (5 plies), with the mating move
MATES_IN_3 = {"WAC.057": "Rf8+", "WAC.064": "g4+", "WAC.097": "Qa8+"}


def mate(result):
    """(moves to mate, as a positive number when the side to move mates), or None."""
    decoded = decode(result.score)
    if not decoded.proven:
        return None
    assert abs(decoded.value) == WIN and decoded.plies is not None
    moves = (decoded.plies + 1) // 2
    return moves if decoded.value > 0 else -moves


def position(name):
    return GAME.parse_state(WAC[name] + " 0 1")


@pytest.mark.parametrize("name", sorted(MATES_IN_3))
def test_check_extensions_find_a_mate_in_3_with_a_3_ply_search(name):
    state = position(name)
    result = Engine(GAME).search(state, depth=3)
    assert mate(result) == 3
    assert GAME.format_move(state, result.best_move) == MATES_IN_3[name]


def test_without_check_extensions_a_3_ply_search_does_not_see_the_mate_in_3():
    result = Engine(GAME, check_extensions=False).search(position("WAC.064"), depth=3)
    assert mate(result) is None


def test_null_move_reductions_and_futility_keep_the_mate_in_3_of_a_5_ply_search():
    state = position("WAC.064")
    result = Engine(GAME, check_extensions=False).search(state, depth=5)
    assert mate(result) == 3
    assert GAME.format_move(state, result.best_move) == "g4+"


def test_null_move_is_refused_in_check_and_with_only_king_and_pawns():
    assert GAME.null_move(GAME.parse_state("4k3/8/8/8/8/8/4q3/R3K3 w Q - 0 1")) is None
    assert GAME.null_move(GAME.parse_state("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")) is None
    passed = GAME.null_move(GAME.parse_state("startpos"))
    assert GAME.to_move(passed) == 1 and passed.board.board_fen() == GAME.start.board.board_fen()


def test_quiescence_sees_the_recapture_beyond_the_horizon_and_spares_the_queen():
    state = GAME.parse_state("6k1/5ppp/4p3/3p4/8/8/3Q1PPP/6K1 w - - 0 1")  # e6 guards d5
    blind = Engine(GAME, quiescence=False).search(state, depth=1)
    quiet = Engine(GAME).search(state, depth=1)
    assert GAME.format_move(state, blind.best_move) == "Qxd5"  # a pawn up, at one ply
    assert GAME.format_move(state, quiet.best_move) != "Qxd5"  # ...exd5 takes the queen
    assert quiet.score > -1024 and blind.score > 1024 // 2
