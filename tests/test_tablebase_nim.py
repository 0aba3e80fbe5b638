"""Tables of Nim: their losing positions are Bouton's P positions, in normal and misère play."""

from functools import reduce
from itertools import product
from operator import xor

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zerosum.games.nim import Nim
from zerosum.solve import Table, solve
from zerosum.theory.nim import outcome


def every_position(heaps):
    """Every (heaps, player) with each heap at most its starting size."""
    sizes = product(*(range(size + 1) for size in heaps))
    return [(position, player) for position in sizes for player in (0, 1)]


def bouton_p(heaps, misere):
    """Bouton's theorem, and its misère rule when no heap holds more than one object."""
    if misere and max(heaps) <= 1:
        return sum(heaps) % 2 == 1
    return reduce(xor, heaps) == 0


@pytest.mark.parametrize("misere", [False, True])
def test_nim_table_losses_for_the_mover_are_exactly_the_p_positions(misere):
    game = Nim((2, 3, 4), misere)
    positions = every_position(game.heaps)
    table = solve(game, positions)
    assert len(table) == len(positions) == 120
    losses = {state for state in positions if table.probe(state).value < 0}
    p_positions = {state for state in positions if bouton_p(state[0], misere)}
    assert losses == p_positions
    assert all(outcome(heaps, misere) == "P" for heaps, _ in losses)  # the impartial module


def test_nim_358_table_plays_the_one_move_to_zero_xor():
    game = Nim((3, 5, 8))
    table = solve(game)
    assert (table.counts.positions, table.counts.losses) == (424, 46)
    entry = table.probe(game.initial_state())
    assert (entry.value, entry.best_moves) == (1, ((2, 2),))


@given(st.lists(st.integers(0, 40), max_size=5), st.lists(st.integers(0, 40), max_size=5))
def test_nim_keys_differ_whenever_the_heaps_or_their_order_differ(first, second):
    game = Nim()
    for player in (0, 1):
        same = first == second
        assert (game.key((tuple(first), player)) == game.key((tuple(second), player))) == same
        assert game.key((tuple(first), player)) != game.key((tuple(second), 1 - player))


def test_nim_keys_of_four_heaps_up_to_15_fit_in_64_bits():
    assert Nim().key(((15, 15, 15, 15), 1)) < 2**64


def test_cli_builds_and_probes_a_misere_nim_table(cli, tmp_path):
    path = tmp_path / "nim.tb"
    argv = ["tablebase", "build", "nim", "--heaps", "1,2,3", "--misere", "-o", str(path)]
    report = cli.json(*argv, progress=True)
    assert report["parameters"] == {"heaps": [1, 2, 3], "misere": True}
    assert (report["positions"], report["losses"], report["value"]) == (40, 10, -1)
    probe = cli.json("tablebase", "probe", str(path), "--position", "1 1 1")
    assert (probe["value"], probe["plies"], probe["best_moves"]) == (
        -1,
        3,
        ["1:1", "2:1", "3:1"],
    )
    assert Table.load(path, Nim((1, 2, 3), misere=True)).counts.positions == 40


def test_cli_nim_heaps_must_be_numbers_and_only_nim_takes_them(cli, tmp_path):
    output = str(tmp_path / "t.tb")
    assert "a heap size must be a non-negative integer, got 'x'" in cli.error(
        "tablebase", "build", "nim", "--heaps", "3,x", "-o", output
    )
    err = cli.error("tablebase", "build", "connect4", "--heaps", "3", "-o", output)
    assert "connect4 has no option 'heaps' (its options: width, height, connect)" in err
