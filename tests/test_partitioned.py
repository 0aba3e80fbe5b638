"""The partitioned build: the same values as today's builder, partition files checked, resumes."""

import json
import os
import socket
import subprocess
from contextlib import contextmanager

import numpy as np
import pytest
from dying_workers import KilledAlways, KilledOnce
from hypothesis import given, settings
from hypothesis import strategies as st
from layered_games import TakeOneTwoFive

from zerosum.games.connect4 import ConnectFour
from zerosum.games.tictactoe import TicTacToe
from zerosum.search import alphabeta
from zerosum.solve import compact, parallel, partitioned, solve
from zerosum.solve.layers import owner
from zerosum.solve.partitioned import build, open_build, parse_bytes, plan


class RestorableOnly:
    """Connect Four without its rules on arrays: expanded one position at a time from keys."""

    def __init__(self, width, height):
        self.width, self.height = width, height
        self.game = ConnectFour(width, height)

    def __getattr__(self, name):
        if name in ("game", "expand_keys", "layers"):
            raise AttributeError(name)
        return getattr(self.game, name)


class RandomLayered:
    """A random layered game whose positions are their keys: `layer << 16 | index`. Each
    position has a side to move of its own (both sides may move within a layer), children
    among the next layer's positions, or else a score for the side to move."""

    def __init__(self, widths, moves, movers, scores):
        self.widths, self.moves, self.movers, self.scores = widths, moves, movers, scores

    def initial_state(self):
        return 0

    def layer(self, state):
        return state >> 16

    def to_move(self, state):
        return self.movers[state >> 16][state & 0xFFFF]

    def legal_moves(self, state):
        return self.moves[state >> 16][state & 0xFFFF]

    def result(self, state, move):
        return move if move >> 16 else ((state >> 16) + 1) << 16 | move  # a layer, or the next

    def is_terminal(self, state):
        return not self.legal_moves(state)

    def utility(self, state, player):
        score = self.scores[state >> 16][state & 0xFFFF]
        return score if player == self.to_move(state) else -score

    def key(self, state):
        return state

    def from_keys(self, keys):
        return [int(key) for key in keys]


class Unlayered:
    """A game seen without its layers, so that the counting propagation solves it."""

    def __init__(self, game):
        self.game = game

    def __getattr__(self, name):
        if name in ("game", "layer", "from_keys", "expand_keys", "layers"):
            raise AttributeError(name)
        return getattr(self.game, name)


@st.composite
def random_layered(draw, skips=False):
    """A random layered game; with `skips`, a move may go to any later layer (a move is then the
    child's key, `layer << 16 | index`), else to the next one (a move is the child's index)."""
    depth = draw(st.integers(1, 5))
    widths = [1] + [draw(st.integers(1, 4)) for _ in range(depth)]
    moves, movers, scores = [], [], []
    for layer, width in enumerate(widths):
        if skips:
            later = [(after << 16) | index for after in range(layer + 1, len(widths))
                     for index in range(widths[after])]  # fmt: skip
        else:
            later = list(range(widths[layer + 1])) if layer + 1 < len(widths) else []
        moves.append(
            [sorted(draw(st.sets(st.sampled_from(later), max_size=3))) if later else []
             for _ in range(width)]
        )  # fmt: skip
        movers.append([draw(st.integers(0, 1)) for _ in range(width)])
        scores.append([draw(st.integers(-2, 2)) for _ in range(width)])
    return RandomLayered(widths, moves, movers, scores)


def reachable(game):
    seen, stack = set(), [game.initial_state()]
    while stack:
        state = stack.pop()
        if state not in seen:
            seen.add(state)
            stack.extend(game.result(state, move) for move in game.legal_moves(state))
    return seen


@pytest.mark.parametrize(
    ("game", "parts"),
    [(TicTacToe(), 1), (TicTacToe(), 3), (ConnectFour(4, 4), 1), (ConnectFour(4, 4), 5),
     (RestorableOnly(4, 3), 4)],
    ids=["tictactoe-1", "tictactoe-3", "c4-4x4-1", "c4-4x4-5", "c4-4x3-keys-4"],
)  # fmt: skip
def test_every_position_has_the_value_and_distance_of_todays_table(game, parts, tmp_path):
    today = solve(game, workers=1).sections
    for keep in (True, False):  # the expansion kept for the propagation, or expanded again
        built = build(game, tmp_path / f"{keep}", partitions=parts, keep_expansions=keep)
        assert built.partitions == parts
        assert built.table().sections == today
        assert not list((tmp_path / f"{keep}").glob("layer-*/asked*"))  # nothing left over


def test_connect4_5x4_in_three_partitions_equals_todays_table(tmp_path):
    game = ConnectFour(5, 4)
    built = build(game, tmp_path / "work", partitions=3)
    assert built.positions == 3_945_711
    assert built.table().sections == solve(game, workers=1).sections


@settings(max_examples=40, deadline=None)
@given(st.booleans().flatmap(lambda skips: random_layered(skips)), st.integers(1, 3))
def test_random_layered_games_equal_the_unlayered_solver_partitioned_compact_and_by_layers(
    tmp_path_factory, game, parts
):
    folder = tmp_path_factory.mktemp("work")
    built = build(game, folder / "work", partitions=parts)
    compact.write(built, folder / "t.zt")
    tables = (built.table(), compact.load(folder / "t.zt", game), solve(game, workers=1))
    flat = solve(Unlayered(game))
    positions = reachable(game)
    assert len(flat) == len(positions) and all(len(table) == len(flat) for table in tables)
    for state in positions:
        assert all(table.lookup(state) == flat.lookup(state) for table in tables)


@pytest.mark.parametrize("parts", [1, 3])
def test_take_one_two_or_five_built_in_partitions_equals_the_unlayered_solver(parts, tmp_path):
    game = TakeOneTwoFive(5, heaps=3)  # a move takes 1, 2 or 5 stones: the layer grows by as many
    positions = reachable(game)
    flat = solve(Unlayered(game))
    for keep in (True, False):  # the expansion kept for the propagation, or expanded again
        built = build(game, tmp_path / f"{keep}", partitions=parts, keep_expansions=keep)
        assert sorted(built.layers) == list(range(16)) and built.positions == len(positions)
        table = built.table()
        for state in positions:
            assert table.lookup(state) == flat.lookup(state)
        assert not list((tmp_path / f"{keep}").glob("layer-*/asked*"))  # nothing left over
    # 5 = 2 (mod 3): each heap's Grundy value is 2, and 2 ^ 2 ^ 2 = 2 wins
    assert table.lookup(game.initial_state())[0] == 1


def test_take_one_two_or_five_built_in_partitions_has_the_values_and_distances_of_alphabeta(
    tmp_path,
):
    game = TakeOneTwoFive(5, heaps=2)
    table = build(game, tmp_path / "work", partitions=2).table()
    for state in reachable(game):
        exact, entry = alphabeta(game, state, distance=True), table.probe(state)
        assert entry.value == exact.value and entry.distance == exact.plies


@pytest.mark.parametrize(("phase", "layer"), [("enumerate", 6), ("propagate", 9)])
def test_take_one_two_or_five_stopped_midway_resumes(tmp_path, phase, layer):
    game, work = TakeOneTwoFive(5, heaps=3), tmp_path / "work"
    with pytest.raises(Stop):
        build(game, work, partitions=2, progress=stop_at(phase, layer))
    resumed = build(game, work, partitions=2)
    assert resumed.resumed > 0
    assert resumed.table().sections == solve(game, workers=1).sections


def test_a_layer_holds_every_position_once_in_the_partition_its_key_hashes_to(tmp_path):
    built = build(TicTacToe(), tmp_path / "work", partitions=4)
    assert built.layers == {0: 1, 1: 9, 2: 72, 3: 252, 4: 756, 5: 1260, 6: 1520, 7: 1140,
                            8: 390, 9: 78}  # fmt: skip
    for layer in built.layers:
        for part in range(4):
            keys, _ = built.partition(layer, part)
            assert np.all(keys[1:] > keys[:-1])
            assert np.all(owner(keys, 4) == part)


class Stop(Exception):
    """Raised from the progress of a build to stop it between two steps."""


def stop_at(phase, layer):
    def progress(report):
        if report.phase == phase and report.layer == layer:
            raise Stop

    return progress


@pytest.mark.parametrize(("phase", "layer"), [("enumerate", 5), ("propagate", 8)])
def test_a_build_stopped_midway_resumes_from_its_finished_layers(tmp_path, phase, layer):
    game, work = ConnectFour(4, 4), tmp_path / "work"
    with pytest.raises(Stop):
        build(game, work, partitions=3, progress=stop_at(phase, layer))
    resumed = build(game, work, partitions=3)
    assert resumed.resumed > 0
    assert resumed.table().sections == solve(game, workers=1).sections


def test_a_damaged_partition_is_refused_and_rebuilt_with_a_message(tmp_path):
    game, work = ConnectFour(4, 4), tmp_path / "work"
    with pytest.raises(Stop):
        build(game, work, partitions=3, progress=stop_at("propagate", 12))
    damaged = work / "layer-006" / "keys-0001.npy"
    data = bytearray(damaged.read_bytes())
    data[-1] ^= 0xFF
    damaged.write_bytes(bytes(data))
    notes = []
    resumed = build(game, work, partitions=3, notice=notes.append)
    assert notes == [
        f"{damaged}: damaged partition (checksum mismatch): layer 6 and the layers after it"
        " are rebuilt"
    ]
    assert resumed.table().sections == solve(game, workers=1).sections


def test_a_partition_file_cut_short_is_not_taken_for_whole(tmp_path):
    game, work = TicTacToe(), tmp_path / "work"
    build(game, work, partitions=2)
    cut = work / "layer-004" / "ranks-0000.npy"
    cut.write_bytes(cut.read_bytes()[:100])
    with pytest.raises(partitioned.DamagedPartition, match="ranks-0000.npy: damaged partition"):
        open_build(game, work).table()
    notes = []
    rebuilt = build(game, work, partitions=2, notice=notes.append)
    assert notes == [f"{cut}: damaged partition (unreadable): the values of layer 4 are rebuilt"]
    assert rebuilt.table().sections == solve(game, workers=1).sections


def test_a_finished_build_is_read_again_without_work(tmp_path):
    game, work = TicTacToe(), tmp_path / "work"
    first = build(game, work, partitions=2)
    again = build(game, work, partitions=2)
    assert again.resumed == 2 * len(first.layers)
    assert open_build(game, work).table().sections == first.table().sections


def test_a_work_directory_of_another_board_is_refused_in_one_line(tmp_path):
    build(ConnectFour(3, 3), tmp_path / "work", partitions=1)
    with pytest.raises(ValueError) as refused:
        build(ConnectFour(4, 3), tmp_path / "work", partitions=1)
    assert str(refused.value) == (
        f"{tmp_path / 'work'} holds a build of ConnectFour(width=3, height=3, connect=4),"
        " not ConnectFour(width=4, height=3, connect=4): give another work directory"
    )


def test_the_partitions_of_a_work_directory_are_kept_when_resumed(tmp_path):
    build(TicTacToe(), tmp_path / "work", partitions=2)
    notes = []
    again = build(TicTacToe(), tmp_path / "work", partitions=5, notice=notes.append)
    assert again.partitions == 2
    assert notes == [f"{tmp_path / 'work'} was made with 2 partitions a layer: kept"]


def test_bad_work_directories_are_one_line_errors(tmp_path):
    afile = tmp_path / "file"
    afile.write_text("x")
    with pytest.raises(ValueError, match="as a work directory: it is a file"):
        build(TicTacToe(), afile)
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "notes.txt").write_text("x")
    with pytest.raises(ValueError, match="it holds other files and no zerosum build"):
        build(TicTacToe(), tmp_path / "full")
    with pytest.raises(ValueError, match="no directory"):
        build(TicTacToe(), tmp_path / "no" / "work")
    (tmp_path / "odd").mkdir()
    (tmp_path / "odd" / "build.json").write_text(json.dumps({"format": 99, "partitions": 1}))
    with pytest.raises(ValueError, match="not a work directory of this zerosum"):
        build(TicTacToe(), tmp_path / "odd")


def test_a_memory_bound_too_small_for_one_batch_is_refused():
    with pytest.raises(ValueError) as refused:
        plan(ConnectFour(5, 4), parse_bytes("100MB"), 1)
    assert str(refused.value) == (
        "a memory bound of 100 MB per worker cannot hold one batch of 1,024 positions:"
        " give at least 161 MB"
    )


def test_the_partitions_grow_as_the_memory_bound_shrinks():
    game = ConnectFour(5, 6)  # 1,044,334,437 positions
    small, large = plan(game, parse_bytes("1GB"), 2), plan(game, parse_bytes("8GB"), 2)
    assert small.partitions > large.partitions >= 4
    positions = game.widest_layer_at_most()  # 728,042,000: fewer than its 1,044,334,437
    batch = large.batch * partitioned.BYTES_PER_EXPANDED
    held = parse_bytes("8GB") - partitioned.PROCESS_BYTES - batch
    assert positions * partitioned.BYTES_PER_POSITION / large.partitions <= held


@pytest.mark.parametrize(
    ("text", "count"),
    [("8GB", 8 << 30), ("512MB", 512 << 20), ("1.5 GiB", 3 << 29), ("4096", 4096), ("2k", 2048)],
)
def test_memory_sizes_read_as_people_write_them(text, count):
    assert parse_bytes(text) == count


@pytest.mark.parametrize("text", ["", "GB", "-1GB", "8XB", "nanGB", "0"])
def test_bad_memory_sizes_are_refused(text):
    with pytest.raises(ValueError, match="bad memory size"):
        parse_bytes(text)


def test_a_game_without_layers_or_keys_is_refused(tmp_path):
    with pytest.raises(ValueError, match="partitioned build"):
        build(Unlayered(TicTacToe()), tmp_path / "work")


def test_only_steps_of_many_positions_go_to_the_workers(tmp_path, monkeypatch):
    sent = []

    @contextmanager
    def recording(workers, scheduler, poll=None):
        def mapping(function, tasks):
            sent.append(function.__name__)
            return (function(*task) for task in tasks)

        yield parallel.Mapper(mapping, 2)

    monkeypatch.setattr(partitioned, "mapper", recording)
    monkeypatch.setattr(partitioned, "HERE_AT_MOST", 1000)
    for keep, expansions in ((True, 1), (False, 2)):
        sent.clear()
        built = build(TicTacToe(), tmp_path / f"{keep}", workers=2, keep_expansions=keep)
        assert built.table().sections == solve(TicTacToe(), workers=1).sections
        # Layers 5 to 7 hold 1,260, 1,520 and 1,140 positions, and layers 3 to 7 have 1,392
        # moves or more: each of layers 5 to 7 is expanded (`route`: once when the expansion
        # is kept, twice if not) and solved (`settle`) on the workers; the layers after 3 to 7
        # are gathered there, and layers 5 to 7 answer there.
        expected = ["route"] * 3 * expansions + ["settle"] * 3 + ["gather"] * 5 + ["answer"] * 3
        assert sorted(sent) == sorted(expected)


def test_a_full_disk_is_a_clear_error_and_the_finished_layers_are_kept(tmp_path, monkeypatch):
    game, work = TicTacToe(), tmp_path / "work"
    real, written = np.save, []

    def filling(handle, array, **options):
        written.append(len(array))
        if len(written) == 40:
            raise OSError(28, "No space left on device")
        real(handle, array, **options)

    monkeypatch.setattr(np, "save", filling)
    with pytest.raises(ValueError, match=r"cannot write .*\.npy: no space left on device"):
        build(game, work, partitions=2)
    assert not list(work.rglob(".*.tmp"))  # nothing half-written left behind
    monkeypatch.setattr(np, "save", real)
    resumed = build(game, work, partitions=2)
    assert resumed.resumed > 0
    assert resumed.table().sections == solve(game, workers=1).sections


def test_a_work_directory_in_use_by_a_running_build_is_refused(tmp_path):
    work = tmp_path / "work"
    build(TicTacToe(), work, partitions=1)
    assert not (work / "build.lock").exists()  # released at the end
    (work / "build.lock").write_text(f"{socket.gethostname()} {os.getpid()}")
    with pytest.raises(ValueError, match=f"in use by another build \\(process {os.getpid()}\\)"):
        build(TicTacToe(), work, partitions=1)
    (work / "build.lock").write_text("elsewhere 12")
    with pytest.raises(ValueError, match="in use by a build on elsewhere: if it has ended"):
        build(TicTacToe(), work, partitions=1)


def test_the_lock_of_a_build_that_has_ended_is_taken_over(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    (work / "build.lock").write_text(f"{socket.gethostname()} {ended_pid()}")
    notes = []
    built = build(TicTacToe(), work, partitions=1, notice=notes.append)
    assert built.positions == 5478 and not (work / "build.lock").exists()
    assert notes == [f"{work / 'build.lock'}: left by a build that has ended: taken over"]


def ended_pid():
    """The id of a process that has ended (and been reaped)."""
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def test_a_damaged_kept_expansion_is_expanded_again(tmp_path):
    game, work = ConnectFour(4, 4), tmp_path / "work"
    with pytest.raises(Stop):
        build(game, work, partitions=2, keep_expansions=True, progress=stop_at("propagate", 12))
    damaged = work / "layer-009" / "asked" / "expanded-children-0001.npy"
    damaged.write_bytes(damaged.read_bytes()[:-8])
    notes = []
    resumed = build(game, work, partitions=2, keep_expansions=True, notice=notes.append)
    assert notes == [f"{damaged}: damaged partition (unreadable): layer 9 is expanded again"]
    assert resumed.table().sections == solve(game, workers=1).sections


def test_a_partition_a_worker_cannot_see_is_told_as_such(tmp_path):
    built = build(TicTacToe(), tmp_path / "work", partitions=1)
    keys = tmp_path / "work" / "layer-003" / "keys-0000.npy"
    keys.unlink()
    with pytest.raises(ValueError, match="keys-0000.npy: not found from .*: is the work directory"):
        built.partition(3, 0)


def test_two_worker_processes_build_todays_table(tmp_path, monkeypatch):
    monkeypatch.setattr(partitioned, "HERE_AT_MOST", 0)  # every step on the workers
    game = ConnectFour(4, 3)
    built = build(game, tmp_path / "work", workers=2)
    assert built.partitions == 4  # two a worker
    assert built.table().sections == solve(game, workers=1).sections


def test_a_worker_process_killed_in_the_middle_of_a_layer_costs_no_value(tmp_path, monkeypatch):
    monkeypatch.setattr(partitioned, "HERE_AT_MOST", 0)
    marker = tmp_path / "killed"
    built = build(KilledOnce(4, 3, 5, str(marker)), tmp_path / "work", partitions=3, workers=2)
    assert marker.exists()  # a worker did die, and its tasks ran again in a new pool
    assert built.table().sections == solve(ConnectFour(4, 3), workers=1).sections


def test_worker_processes_that_keep_dying_stop_the_build_with_one_line(tmp_path, monkeypatch):
    monkeypatch.setattr(partitioned, "HERE_AT_MOST", 0)
    with pytest.raises(ValueError, match=r"^the worker processes died 4 times \(out of memory\?\)"):
        build(KilledAlways(4, 4), tmp_path / "work", partitions=2, workers=2)
    assert (tmp_path / "work" / "layer-003" / "enumerated.json").exists()  # what was finished


def test_the_traffic_of_each_layer_is_its_moves_and_the_distinct_children_sent(tmp_path):
    game = TicTacToe()
    layer, moves = {game.initial_state()}, {}
    for depth in range(1, 10):  # every position by breadth, each layer's moves counted
        children = [
            game.result(state, move)
            for state in layer
            if not game.is_terminal(state)
            for move in game.legal_moves(state)
        ]
        moves[depth], layer = len(children), set(children)
    alone = build(game, tmp_path / "one", partitions=1)
    assert alone.traffic == {depth: (moves[depth], alone.layers[depth]) for depth in moves}
    split = build(game, tmp_path / "four", partitions=4)
    for depth, (found, sent) in split.traffic.items():
        assert found == moves[depth]
        assert split.layers[depth] <= sent <= found  # a child once a partition that reaches it
    assert open_build(game, tmp_path / "four").traffic == split.traffic


def test_a_board_whose_positions_the_disk_cannot_hold_is_refused_before_any_work(tmp_path):
    work = tmp_path / "work"
    with pytest.raises(ValueError, match=r"^4,531,985,219,092 positions need about 54 TB of disk"):
        build(ConnectFour(7, 6), work)
    assert not work.exists()  # nothing made, nothing started


def test_the_command_refuses_a_board_too_large_for_the_disk_in_one_line(cli, tmp_path):
    argv = ["tablebase", "build", "connect4", "-o", str(tmp_path / "c.zt")]
    code, _, err = cli(*argv, "--work-dir", str(tmp_path / "work"))
    assert code == 2 and err.count("\n") == 1
    assert "of disk in the work directory" in err and "--no-limit" in err
