"""Retrograde analysis: solve every position of a finite game once, from the end backwards.

Two passes, as in the endgame tables of Bellman, Thompson and Stiller. *Enumeration* walks
forward from the start positions and names every reachable position by the game's key (an
integer from 0 to 2**64 - 1). *Propagation* walks backward from the finished games: a position
is settled once its value can no longer change, and every value is from the point of view of
the side to move, with its distance to the end under perfect play (the winner hurries, the
loser delays, a draw takes its shortest line; see `zerosum.solve.outcome`).

- A `Layered` game (every move raises a counter such as the stones on the board or the
  stones taken, by one or by more) is solved layer by layer, each layer in tasks run in
  parallel (a pool of processes, or a Dask cluster). Enumeration expands one layer into the
  later ones: a task sends each child to the task of its layer that its key hashes to, so that
  copies of a position reached from several tasks, or from several layers, merge there. A
  `Vectorized` game expands a task's positions at once, as numpy arrays of keys; for another
  game, a child travels between processes as its 8-byte key when the game rebuilds positions
  from keys (`Restorable`), else pickled (and this process only routes the bytes).
  This process keeps on disk only what each position needs later (its mover, its terminal
  utility, its children's keys). Propagation then solves the layers from the last one back:
  the values of a layer depend only on the later layers its moves reach, so each task gets
  those solved layers whole and a share of the positions, each taking the best of its
  children. Memory holds, besides the finished table (11 bytes a position), the layer being
  solved and the solved layers a move from an earlier one reaches: two layers at a time when
  every move adds one.
- Any other game is solved in this process with a count of unsettled successors per position:
  a finished game settles first; a child that gives its parent the best value the game allows
  settles the parent at once (the first such child in distance order is the quickest); the
  last child to settle settles the parent with the best of them all. In a game with cycles the
  positions never settled are draws held by endless play (distance `NO_END`); that is exact for
  win/draw/loss games, and a game with cycles and other scores is refused.

A build is bounded (`POSITIONS`, and `MOVES` for a game expanded position by position): a game
that says how many positions it can reach (`reachable_at_most()`, as Nim and Connect Four do)
is refused before anything is enumerated, and any other build stops with the same message as
soon as the positions enumerated pass the limit, long before the memory runs out. `no_limit`
lifts both.
"""

from __future__ import annotations

import os
import pickle
import tempfile
import time
from array import array
from collections import deque
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from itertools import pairwise
from typing import IO, Any, Protocol

import numpy as np

from zerosum.game import Game, Keyed, Layered, Restorable, Vectorized, has_chance, require
from zerosum.limits import Limit, clipped
from zerosum.solve.layers import (
    best_of_children,
    expand_layer,
    owner,
    refuse_earlier,
    sorted_unique,
    split_by_owner,
)
from zerosum.solve.outcome import (
    HALF,
    MAX_VALUE,
    NO_END,
    SPAN,
    outcomes,
    seen_by_mover,
    seen_by_opponent,
    terminal_rank,
)
from zerosum.solve.parallel import Mapper, mapper, peak_memory
from zerosum.solve.table import Section, Table

__all__ = ["Progress", "solve"]

CHUNK = 20_000
"""Positions between two progress reports of the unlayered build."""
CHUNK_MOVES = 1 << 20
"""Moves found between two reports of the unlayered enumeration at most (so that its limits are
checked often in a game of many moves a position)."""
MIN_CHUNK = 4096
"""Fewest positions in one task: a smaller layer is handled in one task, in this process."""
MAX_CHUNK = 1 << 16
"""Most positions valued in one task, so that the arrays of their children stay small."""
TASKS_PER_WORKER = 2
"""Tasks a layer is split into for each process, so that a slow one holds up less."""
_COLUMNS = ("Q", "B", "I", "q", "Q")
"""Array kinds of a layer's columns: keys, movers, counts, terminal ranks, children's keys."""
KEYS, PICKLED, STATES, VECTORS = "keys", "pickled", "states", "vectors"
"""How positions travel between the tasks of a layer (`_carry`)."""
KEY_LIMIT = 1 << 64
SPILL_IN_MEMORY = 16 << 20
"""Bytes of enumerated layers kept in memory before they go to a temporary file."""
ENDLESS = (MAX_VALUE + 2) * SPAN
"""The rank of a position never settled (a draw by endless play): no outcome has it."""

POSITIONS = Limit(
    "a table's positions",
    150_000_000,
    "a build keeps about 30 bytes a position (Connect Four 5x5, 69,763,700 positions: 133 s and"
    " 1.9 GB here), more in a game whose rules work one position at a time",
)
"""The most positions a build enumerates: every board of Connect Four up to 4x7 (135,385,909
positions, about 4 minutes and 4 GB here), not 5x6 (1,044,334,437) nor 7x4 (2,265,792,710)."""

MOVES = Limit(
    "the moves of a table built position by position",
    30_000_000,
    "such a build goes through 100,000 to 250,000 moves a second here, about 20 bytes each"
    " (Nim 50,50,50: 20 million moves, 76 s)",
)
"""The most moves (edges between positions) a build of a game without array rules enumerates:
a few minutes at most (Nim 50,50,50, 265,294 positions and 20 million moves: 76 s and 330 MB
at the peak; Nim 3,3,3,3,3,3,3,3,3, 523,776 positions and 7 million moves: 58 s). Each position
but the start is reached by a move, so this bounds its positions too."""

ARRAY_BYTES_PER_POSITION = 30
"""Measured peak memory of a build on arrays, per position (Connect Four 4x6 and 5x5)."""
BYTES_PER_POSITION, BYTES_PER_MOVE = 150, 20
"""Measured peak memory of a build position by position (Nim, three heaps and many)."""


class KeyedGame(Game[Any, Any], Keyed, Protocol):
    """What retrograde analysis needs of every game: the rules and a key for each position."""


class LayeredGame(KeyedGame, Layered, Protocol):
    """A keyed game whose moves each go to a later layer: solved layer by layer."""


@dataclass(frozen=True)
class Parts:
    """How many tasks share each later layer of a layered enumeration: a layer reached before
    keeps its number (`known`), so that the copies of a position sent from several layers meet
    in one task; a layer reached first is shared by `first`."""

    known: dict[int, int]
    first: int

    def of(self, layer: int) -> int:
        return self.known.get(layer, self.first)


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
    no_limit: bool = False,
) -> Table:
    """The table of every position reachable from `positions` (default: the initial position),
    each with its value for the side to move, its distance to the end and its best moves.

    A layered game is expanded and valued on `workers` processes or on the Dask cluster whose
    scheduler listens at `scheduler` (an address such as "tcp://host:8786"); another game is
    solved in this process. By default a game expanded position by position uses every core,
    and a `Vectorized` game one process: its rules on arrays cost less than sending the arrays
    between processes (5x4 Connect Four: 3 s in one process, 5.5 s in two). `progress` is
    called as the build advances.

    ValueError when the build would pass `POSITIONS` (or `MOVES`, for a game without rules on
    arrays): before it starts when the game says how many positions it reaches
    (`reachable_at_most`), else as soon as the enumeration passes the limit; `no_limit` lifts
    them.
    """
    require(game, Keyed, "retrograde analysis")
    assert isinstance(game, Keyed)  # as `require` has just checked, for the type checker
    if has_chance(game):
        raise ValueError(
            f"{type(game).__name__} has dice: retrograde analysis solves games without chance"
            " (a game with dice and cycles: zerosum.solve.value_iteration)"
        )
    starts = [game.initial_state()] if positions is None else list(positions)
    if not starts:
        raise ValueError("no positions to solve")
    if positions is None:
        check_size(game, no_limit=no_limit)
    meter = _Meter(progress, None if no_limit else _Bound(game))
    if not isinstance(game, Layered):
        if scheduler is not None:
            raise ValueError(f"{type(game).__name__} has no layers: it is solved in one process")
        return Table(game, [_solve_unlayered(game, starts, meter)])
    if workers is None and scheduler is None and isinstance(game, Vectorized):
        workers = 1
    with (
        mapper(workers, scheduler) as mapping,
        tempfile.SpooledTemporaryFile(SPILL_IN_MEMORY) as spill,
    ):
        return Table(game, _solve_layered(game, starts, mapping, spill, meter))


def reachable_at_most(game: Game) -> tuple[int, int] | None:
    """Upper bounds on the positions reachable from the start of `game` and on the moves among
    them, when the game gives them (`reachable_at_most()`), else None."""
    bound = getattr(game, "reachable_at_most", None)
    if not callable(bound):
        return None
    positions, moves = bound()
    return int(positions), int(moves)


def check_size(game: Game, *, no_limit: bool = False) -> None:
    """ValueError, before any work, when the game says it reaches more positions (or moves,
    for a game without rules on arrays) than a build takes (`POSITIONS`, `MOVES`); the message
    says the memory they would need."""
    bound = reachable_at_most(game)
    if bound is None:
        return
    positions, moves = bound
    arrays = isinstance(game, Vectorized)
    needs = positions * ARRAY_BYTES_PER_POSITION
    if not arrays:
        needs = positions * BYTES_PER_POSITION + moves * BYTES_PER_MOVE
    memory = _memory(needs)
    POSITIONS.check(positions, lifted=no_limit, needs=memory)
    if not arrays:
        MOVES.check(moves, lifted=no_limit, needs=memory)


def _memory(count: int) -> str:
    """Bytes of memory as a person reads them: `about 14 GB`, nothing under a gigabyte."""
    gigabytes = count >> 30
    if not gigabytes:
        return ""
    if gigabytes.bit_length() > 64:
        return "more memory than any machine has"
    return f"about {gigabytes:,} GB of memory"


def expand(game: LayeredGame, layer: int, payloads: list[Any], parts: Parts, carry: str) -> tuple:
    """One task of the layered enumeration. Its positions are those of `payloads` (see
    `_split`); their keys, movers, numbers of moves, terminal ranks (0 unless terminal) and
    children's keys, and their children by layer, each layer's split by key into
    `parts.of(layer)` payloads (None for an empty one)."""
    if carry == VECTORS:
        return _expand_vectors(game, layer, payloads, parts)
    keys, states = _merge(game, payloads, carry)
    # The hot loop of the build: methods bound once, keys and layers checked after it, in C.
    key, to_move, result = game.key, game.to_move, game.result
    is_terminal, legal_moves, utility = game.is_terminal, game.legal_moves, game.utility
    movers, counts, ranks = bytearray(), array("I"), array("q")
    child_keys: list[Any] = []  # the game's keys, checked to be 64-bit after the loop
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
            children[child_key] = child
    try:
        keyed = array("Q", child_keys)  # checks every key is an unsigned 64-bit integer
    except (TypeError, OverflowError):
        for child_key in child_keys:
            _check_key(child_key)
        raise
    layer_of = game.layer
    by_layer: dict[int, dict[Any, Any]] = {}
    for child_key, child in children.items():
        by_layer.setdefault(layer_of(child), {})[child_key] = child
    refuse_earlier(np.fromiter(by_layer, np.int64, len(by_layer)), layer)
    following = {later: _split(held, parts.of(later), carry) for later, held in by_layer.items()}
    return keys, movers, counts, ranks, keyed, following


def _expand_vectors(game: LayeredGame, layer: int, payloads: list[Any], parts: Parts) -> tuple:
    """`expand` for a `Vectorized` game: the task's positions expanded at once, in numpy."""
    keys = sorted_unique(np.concatenate(payloads))
    movers, counts, ranks, child_keys, child_layers = expand_layer(game, layer, keys)
    groups = {}
    if len(child_keys) and child_layers.min() == child_layers.max():  # one layer, as usual
        groups = {int(child_layers[0]): child_keys}
    elif len(child_keys):
        groups = {int(later): child_keys[child_layers == later] for later in set(child_layers)}
    return (
        array("Q", keys.tobytes()),
        bytearray(movers.tobytes()),
        array("I", counts.astype(np.uint32).tobytes()),
        array("q", ranks.tobytes()),
        array("Q", child_keys.tobytes()),
        {
            later: split_by_owner(sorted_unique(held), parts.of(later))
            for later, held in groups.items()
        },
    )


def _carry(game: Game, width: int) -> str:
    """How positions travel between the tasks of a layered build on `width` processes: as
    arrays of keys for a `Vectorized` game, which expands them as such (`VECTORS`); in one
    process as dicts from key to state (`STATES`); across processes as arrays of keys (`KEYS`)
    for a `Restorable` game, else as those dicts pickled (`PICKLED`)."""
    if isinstance(game, Vectorized):
        return VECTORS
    if width == 1:
        return STATES
    return KEYS if isinstance(game, Restorable) else PICKLED


def _split(positions: dict[int, Any], parts: int, carry: str) -> list[Any]:
    """`positions` (a dict from key to state) in `parts` payloads by a hash of the key, each
    carried as `carry` says (see `_carry`), None when empty: every task sends a position to
    the same part, where its copies merge."""
    if carry in (KEYS, VECTORS):
        return split_by_owner(np.fromiter(positions, np.uint64, len(positions)), parts)
    if parts == 1:
        split = [positions]
    else:
        split = [{} for _ in range(parts)]
        for key, state in positions.items():
            split[owner(key, parts)][key] = state
    return [
        (pickle.dumps(part, pickle.HIGHEST_PROTOCOL) if carry == PICKLED else part)
        if part
        else None
        for part in split
    ]


def _merge(game: LayeredGame, payloads: list[Any], carry: str) -> tuple[array, list[Any]]:
    """The keys and states of a task's positions from its payloads (see `_split`), each
    position once."""
    if carry == KEYS:
        assert isinstance(game, Restorable)  # positions travel as KEYS only for one (`_carry`)
        keys = sorted_unique(np.concatenate(payloads))
        return array("Q", keys.tobytes()), game.from_keys(keys)
    merging = map(pickle.loads, payloads) if carry == PICKLED else iter(payloads)
    positions = next(merging)  # the first payload takes in the others (payloads are used up)
    for payload in merging:
        positions.update(payload)
    return array("Q", positions), list(positions.values())  # sorted by key at the end


def _parts(width: int, positions: int) -> int:
    """How many tasks share a layer of about `positions` positions on `width` processes."""
    return 1 if width == 1 else max(1, min(TASKS_PER_WORKER * width, positions // MIN_CHUNK))


def _solve_layered(
    game: LayeredGame, starts: list[Any], mapping: Mapper, spill: IO[bytes], meter: _Meter
) -> list[Section]:
    starting: dict[int, dict[int, Any]] = {}
    for state in starts:
        starting.setdefault(game.layer(state), {})[_check_key(game.key(state))] = state
    carry = _carry(game, mapping.width)  # pickled states are only routed here, never unpickled
    meter.start("enumerate")
    pending: dict[int, list[list[Any]]] = {}  # a later layer's payloads, task by task
    known: dict[int, int] = {}  # the tasks of each layer reached so far
    enumerated, reach = [], {}
    size = 0  # the moves into the layer expanded last: the tasks of a layer it reaches first
    while pending or starting:
        layer = min(pending.keys() | starting.keys())
        current = pending.pop(layer, None) or [[]]
        if layer in starting:
            split = _split(starting.pop(layer), len(current), carry)
            current = [[*part, payload] for part, payload in zip(current, split, strict=True)]
        current = [[payload for payload in part if payload is not None] for part in current]
        parts = Parts(dict(known), _parts(mapping.width, size))
        tasks = [(game, layer, payloads, parts, carry) for payloads in current if payloads]
        columns, following = _enumerate_layer(layer, tasks, mapping, meter)
        for later, payloads in following.items():
            known.setdefault(later, len(payloads))
            waiting = pending.setdefault(later, [[] for _ in payloads])
            for part, sent in zip(waiting, payloads, strict=True):
                part.extend(sent)
        enumerated.append(_spill(spill, layer, columns))
        reach[layer] = max(following, default=layer)
        size = len(columns[4])
    meter.start("propagate")
    sections: list[Section] = []
    solved: dict[int, tuple] = {}  # the solved layers still reached: keys, movers and ranks
    still_reached = _still_reached(reach)
    for layer, offset, sizes in reversed(enumerated):
        keys, movers, counts, ranks, child_keys = _unspill(spill, offset, sizes)
        if len(child_keys):
            columns = (movers, counts, ranks, child_keys)
            reached = [solved[later] for later in sorted(solved) if later <= reach[layer]]
            ranks = _propagate_layer(layer, columns, _merged(reached), mapping, meter)
        else:  # every position is a finished game: nothing to propagate
            meter.advance(layer, len(keys))
        keys, movers, ranks = _by_key(keys, movers, ranks)
        sections.append(section(layer, keys, ranks))
        solved[layer] = (keys, movers, ranks)
        for later in [later for later in solved if later > still_reached[layer]]:
            del solved[later]
    sections.reverse()
    return sections


def _still_reached(reach: dict[int, int]) -> dict[int, int]:
    """For each layer, the latest layer that a move from an earlier layer reaches (from its
    `reach`, the latest layer its own moves reach): a solved layer after it is needed no more
    once that layer is solved."""
    latest, found = -1, {}
    for layer in sorted(reach):
        found[layer] = latest
        latest = max(latest, reach[layer])
    return found


def _merged(layers: list[tuple]) -> tuple:
    """Solved layers (keys in order, movers, ranks) as one, its keys in order: a key is one
    position's, in one layer."""
    if len(layers) == 1:
        return layers[0]
    keys, movers, ranks = (np.concatenate(column) for column in zip(*layers, strict=True))
    return _by_key(keys, movers, ranks)


def _enumerate_layer(
    layer: int, tasks: list[tuple], mapping: Mapper, meter: _Meter
) -> tuple[tuple, dict[int, list[list[Any]]]]:
    """The columns of one layer (keys, movers, counts, terminal ranks, children's keys) from its
    tasks (the arguments of `expand`); and the later layers' payloads, by layer, each split
    into its tasks (`Parts`)."""
    columns = (array("Q"), bytearray(), array("I"), array("q"), array("Q"))
    following: dict[int, list[list[Any]]] = {}
    for *part_columns, children in mapping(expand, tasks):
        for column, part in zip(columns, part_columns, strict=True):
            column += part
        for later, split in children.items():
            waiting = following.setdefault(later, [[] for _ in split])
            for payloads, payload in zip(waiting, split, strict=True):
                payloads.append(payload)
        meter.advance(layer, len(part_columns[0]), moves=len(part_columns[4]))
    return columns, following


def _spill(spill: IO[bytes], layer: int, columns: tuple) -> tuple[int, int, tuple[int, int]]:
    """Append a layer's columns to the spill file; where they are and their sizes."""
    offset = spill.seek(0, os.SEEK_END)
    for column in columns:
        spill.write(column)
    return layer, offset, (len(columns[0]), len(columns[4]))


def _unspill(spill: IO[bytes], offset: int, sizes: tuple[int, int]) -> tuple:
    """A layer's columns read back from the spill file, as numpy arrays."""
    positions, edges = sizes
    spill.seek(offset)
    return tuple(
        np.frombuffer(spill.read(count * np.dtype(kind).itemsize), kind)
        for kind, count in zip(_COLUMNS, (positions,) * 4 + (edges,), strict=True)
    )


def _propagate_layer(
    layer: int, columns: tuple, above: tuple, mapping: Mapper, meter: _Meter
) -> np.ndarray:
    """The ranks of a layer's positions from its columns (movers, counts, terminal ranks,
    children's keys) and the solved layers its moves reach, `above` (as one: keys in order,
    movers, ranks): a task for each process of the mapper, each given the whole of them."""
    movers, counts, ranks, child_keys = columns
    parts = max(-(-len(counts) // MAX_CHUNK), min(mapping.width, len(counts) // MIN_CHUNK))
    bounds = [len(counts) * part // parts for part in range(parts + 1)]
    edges = np.zeros(len(counts) + 1, np.intp)
    np.cumsum(counts, out=edges[1:])
    tasks = [
        (*above, movers[a:b], counts[a:b], ranks[a:b], child_keys[edges[a] : edges[b]])
        for a, b in pairwise(bounds)
    ]
    solved = []
    for part in mapping(settle, tasks):
        solved.append(part)
        meter.advance(layer, len(part))
    return np.concatenate(solved)


def settle(
    keys: np.ndarray,
    movers: np.ndarray,
    ranks: np.ndarray,
    chunk_movers: np.ndarray,
    counts: np.ndarray,
    chunk_ranks: np.ndarray,
    child_keys: np.ndarray,
) -> np.ndarray:
    """The ranks of a chunk of positions whose children are among the solved positions (`keys`
    in order, `movers`, `ranks`): a finished game keeps its rank, another takes the best of its
    children's ranks as seen from it. One task of the layered propagation."""
    child = np.searchsorted(keys, child_keys)  # every child is among them
    return best_of_children(chunk_movers, counts, chunk_ranks, movers[child], ranks[child])


def _by_key(keys: np.ndarray, *columns: np.ndarray) -> tuple[np.ndarray, ...]:
    """`keys` in ascending order, and `columns` in the same order."""
    order = np.argsort(keys, kind="stable")
    return keys[order], *(column[order] for column in columns)


def _solve_unlayered(game: KeyedGame, starts: list[Any], meter: _Meter) -> Section:
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
    return section(None, *_by_key(np.frombuffer(keys, "Q"), np.frombuffer(ranks, "q")))


def _enumerate_graph(game: KeyedGame, starts: list[Any], meter: _Meter) -> tuple:
    """Every position reachable from `starts`: keys, movers, terminal ranks, and the indices of
    each position's children (`successors[offsets[i]:offsets[i + 1]]`)."""
    index: dict[Hashable, int] = {}
    states: list[Any] = []
    keys = array("Q")

    def number(state: Any) -> int:
        key = game.key(state)
        found = index.get(key)
        if found is None:
            checked = _check_key(key)
            found = index[checked] = len(states)
            states.append(state)
            keys.append(checked)
        return found

    for state in starts:
        number(state)
    movers, ranks, offsets, successors = bytearray(), array("q"), array("q", [0]), array("q")
    reported, report_at = 0, CHUNK_MOVES  # positions reported; moves at the next report
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
        if position - reported == CHUNK - 1 or len(successors) >= report_at:
            meter.advance(None, position + 1 - reported, moves=len(successors), seen=len(states))
            reported, report_at = position + 1, len(successors) + CHUNK_MOVES
    meter.advance(None, len(states) - reported, moves=len(successors), seen=len(states))
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


def section(layer: int | None, keys: np.ndarray, ranks: np.ndarray) -> Section:
    """The table section of these positions, given in key order with their ranks (each for
    its side to move)."""
    values, distances = outcomes(ranks)
    endless = ranks == ENDLESS
    values[endless], distances[endless] = 0, NO_END
    values, distances = values.astype("b"), distances.astype("H")
    return Section(
        layer,
        array("Q", keys.tobytes()),
        array("b", values.tobytes()),
        array("H", distances.tobytes()),
    )


def _no_moves(state: Any) -> Any:
    raise ValueError(f"position {state!r} is not terminal but has no legal moves")


def _check_key(key: Any) -> int:
    if not isinstance(key, int) or not 0 <= key < KEY_LIMIT:
        raise ValueError(
            f"retrograde analysis needs integer keys from 0 to 2**64 - 1, got {clipped(repr(key))}"
        )
    return key


class _Bound:
    """The limits a build is held to while it enumerates: `POSITIONS`, and `MOVES` for a game
    without rules on arrays."""

    def __init__(self, game: Game) -> None:
        self.moves = not isinstance(game, Vectorized)

    def check(self, positions: int, moves: int) -> None:
        stopped = "the enumeration stopped there, before the memory ran out"
        POSITIONS.check(positions, needs=f"more: {stopped}")
        if self.moves:
            MOVES.check(moves, needs=f"more: {stopped}")


class _Meter:
    """Counts the positions of a phase and reports `Progress`; while enumerating, holds the
    build to its limits (`bound`)."""

    def __init__(self, report: Callable[[Progress], None] | None, bound: _Bound | None) -> None:
        self.report, self.bound = report, bound
        self.phase, self.done, self.began = "", 0, 0.0
        self.moves = 0

    def start(self, phase: str) -> None:
        self.phase, self.done, self.began = phase, 0, time.perf_counter()

    def advance(self, layer: int | None, positions: int, *, moves: int = 0, seen: int = 0) -> None:
        """`positions` more are done; while enumerating, `moves` more were found (layer by
        layer), or `moves` and `seen` positions in all (one graph)."""
        self.done += positions
        if self.phase == "enumerate" and self.bound is not None:
            self.moves = moves if seen else self.moves + moves
            self.bound.check(max(self.done, seen), self.moves)
        if self.report is not None:
            elapsed = max(time.perf_counter() - self.began, 1e-9)
            self.report(Progress(self.phase, layer, self.done, self.done / elapsed, peak_memory()))
