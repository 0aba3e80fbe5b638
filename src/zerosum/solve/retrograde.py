"""Retrograde analysis: solve every position of a finite game once, from the end backwards.

Two passes, as in the endgame tables of Bellman, Thompson and Stiller. *Enumeration* walks
forward from the start positions and names every reachable position by the game's key (an
integer from 0 to 2**64 - 1). *Propagation* walks backward from the finished games: a position
is settled once its value can no longer change, and every value is from the point of view of
the side to move, with its distance to the end under perfect play (the winner hurries, the
loser delays, a draw takes its shortest line; see `zerosum.solve.outcome`).

- A `Layered` game (every move raises a counter such as the stones on the board by one) is
  solved layer by layer: enumeration expands one layer into the next, in parallel over chunks
  of positions (a pool of processes, or a Dask cluster), and keeps on disk only what each
  position needs later (its mover, its terminal utility, its children's keys); propagation then
  solves the layers from the last one back, a position taking the best of its children, so
  memory holds two layers of positions at a time besides the finished table (11 bytes each).
- Any other game is solved in this process with a count of unsettled successors per position:
  a finished game settles first; a child that gives its parent the best value the game allows
  settles the parent at once (the first such child in distance order is the quickest); the
  last child to settle settles the parent with the best of them all. In a game with cycles the
  positions never settled are draws held by endless play (distance `NO_END`); that is exact for
  win/draw/loss games, and a game with cycles and other scores is refused.
"""

from __future__ import annotations

import os
import tempfile
import time
from array import array
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import islice
from typing import Any, BinaryIO

from zerosum.game import Game, Keyed, Layered, require
from zerosum.solve.outcome import (
    HALF,
    MAX_VALUE,
    NO_END,
    SPAN,
    outcome,
    seen_by_mover,
    seen_by_opponent,
    terminal_rank,
)
from zerosum.solve.parallel import Mapper, mapper
from zerosum.solve.table import Section, Table

__all__ = ["Progress", "solve"]

CHUNK = 20_000
"""Most positions in one task of the parallel enumeration (and between two progress reports)."""
MIN_CHUNK = 4096
"""Fewest positions in one task: a smaller layer is expanded in one task, in this process."""
KEY_LIMIT = 1 << 64
ENDLESS = (MAX_VALUE + 2) * SPAN
"""The rank of a position never settled (a draw by endless play): no outcome has it."""


@dataclass(frozen=True)
class Progress:
    """How far a build has got: `phase` ("enumerate" or "propagate"), the `layer` it is in (None
    for an unlayered game), the `positions` handled so far in this phase, their `rate` a second,
    and the peak resident `memory` of the building process in bytes."""

    phase: str
    layer: int | None
    positions: int
    rate: float
    memory: int


def solve(
    game: Game,
    positions: Iterable[Any] | None = None,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[Progress], None] | None = None,
) -> Table:
    """The table of every position reachable from `positions` (default: the initial position),
    each with its value for the side to move, its distance to the end and its best moves.

    A layered game is expanded on `workers` processes (default: every core) or on the Dask
    cluster whose scheduler listens at `scheduler` (an address such as "tcp://host:8786");
    another game is solved in this process. `progress` is called as the build advances.
    """
    require(game, Keyed, "retrograde analysis")
    starts = [game.initial_state()] if positions is None else list(positions)
    if not starts:
        raise ValueError("no positions to solve")
    meter = _Meter(progress)
    if not isinstance(game, Layered):
        if scheduler is not None:
            raise ValueError(f"{type(game).__name__} has no layers: it is solved in one process")
        return Table(game, [_solve_unlayered(game, starts, meter)])
    with mapper(workers, scheduler) as mapping, tempfile.TemporaryFile() as spill:
        return Table(game, _solve_layered(game, starts, mapping, spill, meter))


def expand(game: Game, layer: int, states: list[Any]) -> tuple:
    """Each state's mover, number of moves, terminal rank (0 unless terminal) and children's
    keys, and the children themselves by key: one task of the layered enumeration."""
    # The hot loop of the build: methods bound once, keys and layers checked after it, in C.
    key, to_move, result = game.key, game.to_move, game.result  # type: ignore[attr-defined]
    is_terminal, legal_moves, utility = game.is_terminal, game.legal_moves, game.utility
    movers, counts, ranks, child_keys = bytearray(), array("I"), array("q"), []
    add_mover, add_count, add_rank, add_child_key = (
        movers.append,
        counts.append,
        ranks.append,
        child_keys.append,
    )
    children: dict[Any, Any] = {}
    for state in states:
        mover = to_move(state)
        add_mover(mover)
        if is_terminal(state):
            add_count(0)
            add_rank(terminal_rank(utility(state, mover)))
            continue
        moves = legal_moves(state) or _no_moves(state)
        add_count(len(moves))
        add_rank(0)
        for move in moves:
            child = result(state, move)
            child_key = key(child)
            add_child_key(child_key)
            if child_key not in children:
                children[child_key] = child
    try:
        keyed = array("Q", child_keys)  # checks every key is an unsigned 64-bit integer
    except (TypeError, OverflowError):
        for child_key in child_keys:
            _check_key(child_key)
        raise
    strays = set(map(game.layer, children.values())) - {layer + 1}  # type: ignore[attr-defined]
    if strays:
        raise ValueError(
            f"a move from layer {layer} reaches layer {min(strays)}:"
            " every move of a layered game must add exactly one"
        )
    return movers, counts, ranks, keyed, children


def _solve_layered(
    game: Game, starts: list[Any], mapping: Mapper, spill: BinaryIO, meter: _Meter
) -> list[Section]:
    pending: dict[int, dict[int, Any]] = {}
    for state in starts:
        pending.setdefault(game.layer(state), {})[_check_key(game.key(state))] = state  # type: ignore[attr-defined]
    meter.start("enumerate")
    enumerated = []
    while pending:
        layer = min(pending)
        current = pending.pop(layer)
        while current:
            following = pending.pop(layer + 1, {})
            columns = _enumerate_layer(game, layer, current, following, mapping, meter)
            enumerated.append(_spill(spill, layer, columns))
            layer, current = layer + 1, following
    meter.start("propagate")
    sections: list[Section] = []
    above: _SolvedLayer | None = None
    for layer, offset, sizes in reversed(enumerated):
        keys, movers, counts, ranks, child_keys = _unspill(spill, offset, sizes)
        if above is not None and above.layer != layer + 1:
            above = None
        _propagate_layer(movers, counts, ranks, child_keys, above)
        sections.append(_section(layer, keys, ranks))
        above = _SolvedLayer(layer, keys, movers, ranks)
        meter.advance(layer, len(keys))
    sections.reverse()
    return sections


def _enumerate_layer(
    game: Game,
    layer: int,
    current: dict[int, Any],
    following: dict[int, Any],
    mapping: Mapper,
    meter: _Meter,
) -> tuple:
    """The columns of one layer in key order (keys, movers, counts, terminal ranks, children's
    keys); adds the next layer's positions to `following`."""
    keys = array("Q", sorted(current))  # in key order, as the table will hold them
    states = list(map(current.__getitem__, keys))
    size = min(CHUNK, max(MIN_CHUNK, -(-len(states) // 8)))
    tasks = [(game, layer, states[i : i + size]) for i in range(0, len(states), size)]
    del states
    movers, counts, ranks, child_keys = bytearray(), array("I"), array("q"), array("Q")
    for part_movers, part_counts, part_ranks, part_child_keys, children in mapping(expand, tasks):
        movers += part_movers
        counts.extend(part_counts)
        ranks.extend(part_ranks)
        child_keys.extend(part_child_keys)
        following.update(children)
        meter.advance(layer, len(part_movers))
    return keys, movers, counts, ranks, child_keys


def _spill(spill: BinaryIO, layer: int, columns: tuple) -> tuple[int, int, tuple[int, int]]:
    """Append a layer's columns to the spill file; where they are and their sizes."""
    offset = spill.seek(0, os.SEEK_END)
    for column in columns:
        spill.write(column)
    return layer, offset, (len(columns[0]), len(columns[4]))


def _unspill(spill: BinaryIO, offset: int, sizes: tuple[int, int]) -> tuple:
    positions, edges = sizes
    spill.seek(offset)
    keys, counts, ranks, child_keys = array("Q"), array("I"), array("q"), array("Q")
    keys.fromfile(spill, positions)
    movers = spill.read(positions)
    counts.fromfile(spill, positions)
    ranks.fromfile(spill, positions)
    child_keys.fromfile(spill, edges)
    return keys, movers, counts, ranks, child_keys


@dataclass
class _SolvedLayer:
    """A solved layer, and its ranks as seen from the layer before, built once per mover."""

    layer: int
    keys: array
    movers: bytes
    ranks: array

    def __post_init__(self) -> None:
        self.views: dict[int, dict[int, int]] = {}

    def seen_by(self, player: int) -> dict[int, int]:
        """Key -> rank of each position for `player` moving into it from the layer before."""
        view = self.views.get(player)
        if view is None:
            # A layer holds few distinct ranks: map each once, then the whole layer in C.
            distinct = set(self.ranks)
            by_mover = {rank: seen_by_mover(rank) for rank in distinct}
            by_opponent = {rank: seen_by_opponent(rank) for rank in distinct}
            if self.movers.count(player) == len(self.movers):
                view = dict(zip(self.keys, map(by_mover.__getitem__, self.ranks), strict=True))
            elif player not in self.movers:
                view = dict(zip(self.keys, map(by_opponent.__getitem__, self.ranks), strict=True))
            else:
                view = {
                    key: (by_mover if mover == player else by_opponent)[rank]
                    for key, mover, rank in zip(self.keys, self.movers, self.ranks, strict=True)
                }
            self.views[player] = view
        return view


def _propagate_layer(
    movers: bytes, counts: array, ranks: array, child_keys: array, above: _SolvedLayer | None
) -> None:
    """Fill in the rank of every unfinished position: the best of its children's."""
    if above is None:
        return
    players = set(movers)
    if len(players) == 1:  # one side moves in the whole layer: one view, one stream of ranks
        seen = map(above.seen_by(players.pop()).__getitem__, child_keys)
        for index, count in enumerate(counts):
            if count:
                ranks[index] = max(islice(seen, count))
        return
    views = [above.seen_by(player) if player in players else None for player in (0, 1)]
    start = 0
    for index, count in enumerate(counts):
        if count:
            end = start + count
            ranks[index] = max(map(views[movers[index]].__getitem__, child_keys[start:end]))
            start = end


def _solve_unlayered(game: Game, starts: list[Any], meter: _Meter) -> Section:
    meter.start("enumerate")
    keys, movers, ranks, offsets, successors = _enumerate_graph(game, starts, meter)
    meter.start("propagate")
    settled = _propagate_graph(movers, ranks, offsets, successors, meter)
    if not all(settled):
        if max(abs(rank) for rank in ranks) > SPAN + HALF:
            raise ValueError(
                f"{type(game).__name__} has cycles and scores other than win, draw and loss:"
                " retrograde analysis solves such games only for win/draw/loss"
            )
        for index, done in enumerate(settled):
            if not done:
                ranks[index] = ENDLESS
    order = sorted(range(len(keys)), key=keys.__getitem__)
    return _section(
        None, array("Q", map(keys.__getitem__, order)), array("q", map(ranks.__getitem__, order))
    )


def _enumerate_graph(game: Game, starts: list[Any], meter: _Meter) -> tuple:
    """Every position reachable from `starts`: keys, movers, terminal ranks, and the indices of
    each position's children (`successors[offsets[i]:offsets[i + 1]]`)."""
    index: dict[int, int] = {}
    states: list[Any] = []
    keys = array("Q")

    def number(state: Any) -> int:
        key = game.key(state)  # type: ignore[attr-defined]
        found = index.get(key)
        if found is None:
            found = index[_check_key(key)] = len(states)
            states.append(state)
            keys.append(key)
        return found

    for state in starts:
        number(state)
    movers, ranks, offsets, successors = bytearray(), array("q"), array("q", [0]), array("q")
    for position, state in enumerate(states):  # grows as children are numbered
        states[position] = None
        mover = game.to_move(state)
        movers.append(mover)
        if game.is_terminal(state):
            ranks.append(terminal_rank(game.utility(state, mover)))
        else:
            ranks.append(0)
            moves = game.legal_moves(state) or _no_moves(state)
            successors.extend(number(game.result(state, move)) for move in moves)
        offsets.append(len(successors))
        if position % CHUNK == CHUNK - 1:
            meter.advance(None, CHUNK)
    meter.advance(None, len(states) % CHUNK)
    return keys, movers, ranks, offsets, successors


def _propagate_graph(
    movers: bytes, ranks: array, offsets: array, successors: array, meter: _Meter
) -> bytearray:
    """Settle ranks from the finished games backwards; the flags of the settled positions."""
    n = len(movers)
    first = array("q", bytes(8 * (n + 1)))  # predecessors of c: parents[first[c]:first[c + 1]]
    for child in successors:
        first[child + 1] += 1
    for c in range(n):
        first[c + 1] += first[c]
    parents, fill = array("q", bytes(8 * len(successors))), array("q", first)
    for parent in range(n):
        for child in successors[offsets[parent] : offsets[parent + 1]]:
            parents[fill[child]] = parent
            fill[child] += 1
    del fill
    unsettled = array("q", (offsets[i + 1] - offsets[i] for i in range(n)))
    settled = bytearray(n)
    queue = deque(i for i in range(n) if not unsettled[i])
    for i in queue:
        settled[i] = 1
    # A child that gives its parent the best value of the game settles the parent at once.
    top = max((abs(ranks[i]) for i in queue), default=0)
    decisive = top - HALF
    best = array("q", [-(MAX_VALUE + 1) * SPAN]) * n
    done = 0
    while queue:
        child = queue.popleft()
        rank, mover = ranks[child], movers[child]
        for_mover, for_opponent = seen_by_mover(rank), seen_by_opponent(rank)
        for parent in parents[first[child] : first[child + 1]]:
            if settled[parent]:
                continue
            seen = for_mover if movers[parent] == mover else for_opponent
            if seen > decisive:
                unsettled[parent] = 0
            else:
                if seen > best[parent]:
                    best[parent] = seen
                unsettled[parent] -= 1
                if unsettled[parent]:
                    continue
                seen = best[parent]
            ranks[parent] = seen
            settled[parent] = 1
            queue.append(parent)
        done += 1
        if done % CHUNK == 0:
            meter.advance(None, CHUNK)
    meter.advance(None, done % CHUNK)
    return settled


def _section(layer: int | None, keys: array, ranks: array) -> Section:
    """The table section of these positions, given in key order."""
    decoded = {rank: (0, NO_END) if rank == ENDLESS else outcome(rank) for rank in set(ranks)}
    value_of = {rank: value for rank, (value, _) in decoded.items()}
    distance_of = {rank: distance for rank, (_, distance) in decoded.items()}
    return Section(
        layer,
        keys,
        array("b", map(value_of.__getitem__, ranks)),
        array("H", map(distance_of.__getitem__, ranks)),
    )


def _no_moves(state: Any) -> Any:
    raise ValueError(f"position {state!r} is not terminal but has no legal moves")


def _check_key(key: Any) -> int:
    if not isinstance(key, int) or not 0 <= key < KEY_LIMIT:
        raise ValueError(f"retrograde analysis needs integer keys from 0 to 2**64 - 1, got {key!r}")
    return key


class _Meter:
    """Counts the positions of a phase and reports `Progress`."""

    def __init__(self, report: Callable[[Progress], None] | None) -> None:
        self.report = report
        self.phase, self.done, self.began = "", 0, 0.0

    def start(self, phase: str) -> None:
        self.phase, self.done, self.began = phase, 0, time.perf_counter()

    def advance(self, layer: int | None, positions: int) -> None:
        self.done += positions
        if self.report is not None:
            elapsed = max(time.perf_counter() - self.began, 1e-9)
            self.report(Progress(self.phase, layer, self.done, self.done / elapsed, _peak_memory()))


def _peak_memory() -> int:
    try:
        import resource
    except ImportError:  # not on Unix
        return 0
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
