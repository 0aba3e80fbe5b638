"""The exact Connect Four solver: the score of a position under perfect play, and its best move.

Scores follow the published test sets (`shared/oracles/connect4/README.md`), from the point of
view of the player to move: 0 a draw; `(cells + 1 - n) // 2` for a win with the very next of
`n + 1` stones, one less for each later pair of moves; negative when the opponent wins.

The search is negamax alpha-beta over bitboards, with the ideas of Pascal Pons's solver, each
measured in `benchmarks/`:

- null-window searches narrowing the score from both sides (`solve`), probing first near 0
  where most scores lie;
- anticipation: a node first computes its non-losing moves (it must block a single playable
  threat of the opponent, loses at once against two, and never plays right under an
  opponent's threat), so the losses one move ahead are never searched;
- threat ordering: moves that create the most threats first, ties in centre-first order;
- a table of lower and upper bounds per position, bounded (see `BoundTable`);
- the score interval a position can still reach from its number of stones narrows the window.

An opening book (`zerosum.solve.connect4_book`: the package has one for 7x6) gives the exact
score of every position of its first plies: the solver answers those at once, and a search
meeting one of them (a node of at most the book's plies) takes its score and goes no deeper.

The inner loop (`make_kernel`) works only on integers and one flat table: a compiled kernel
with the same signature can replace it without touching its callers.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from zerosum.compiled.cache import told
from zerosum.games.connect4 import ConnectFour, State
from zerosum.limits import Limit, check_megabytes
from zerosum.search.table import DEFAULT_MEGABYTES, ENTRY_BYTES, next_prime, slots_for
from zerosum.solve import connect4_book, parallel
from zerosum.solve.answer import ExactAnswer, ExactSolver, MoveValues
from zerosum.solve.connect4_book import OpeningBook, mirror_key

Kernel = Callable[[int, int, int, int, int], int]
"""`negamax(position, mask, moves, alpha, beta) -> score` for a position whose player to move
cannot win at once; fail-hard within `[alpha, beta]`."""

SOLVER_ENTRY_BYTES = 100
"""Measured cost of one bound entry (a dict slot and one integer)."""

NO_LOWER, NO_UPPER = -32, 31
"""Bounds that say nothing (scores lie in -21..21 on the largest boards solved)."""


@dataclass(frozen=True)
class Solution:
    """The exact `score` of a position for the player to move (see the module), its `best_move`
    (a column, 0 on the left; None when not asked for), the `nodes` searched and `seconds`.
    With `weak`, `score` is only -1, 0 or 1."""

    score: int
    best_move: int | None
    nodes: int
    seconds: float
    weak: bool = False


class BoundTable:
    """Lower and upper bounds on scores by position key, in a fixed number of slots.

    The slots go in pairs, a bucket: a key goes to bucket `key % buckets` (a prime number of
    them), and may sit in either slot. A new entry goes to the first slot when that is empty,
    holds the same key, or a position with as many stones or more (a smaller search, cheaper
    to do again); otherwise to the second, replacing what it held. So the costliest results
    stay, and the most recent ones too. An entry packs the key, the stones of its position
    and both bounds in one integer: `key << 18 | stones << 12 | (lower + 32) << 6 |
    (upper + 32)`. The compiled kernel keeps the same entries in arrays (`ArrayTable`).
    """

    def __init__(self, megabytes: float = DEFAULT_MEGABYTES, slots: int | None = None) -> None:
        slots = slots or slots_for(megabytes) * ENTRY_BYTES // SOLVER_ENTRY_BYTES
        self.buckets = buckets_for(slots)
        self.slots = 2 * self.buckets
        self.entries: dict[int, int] = {}

    def clear(self) -> None:
        self.entries.clear()


class ArrayTable:
    """The compiled kernel's table: the `BoundTable`'s slots in one preallocated array of 64-bit
    words (`zerosum.solve.compiled_connect4`), each entry packed as the `BoundTable` packs it
    but keeping only the low `KEPT_KEY_BITS` bits of its key, which tell apart the keys one
    bucket can hold when there are more than `2 ** (key_bits - KEPT_KEY_BITS)` buckets: a table
    is never smaller. A word of 0 is an empty slot."""

    def __init__(
        self, megabytes: float = DEFAULT_MEGABYTES, slots: int | None = None, *, key_bits: int
    ) -> None:
        """A table of `megabytes` (or exactly `slots` entries, rounded up to two a prime number
        of buckets) for keys of `key_bits` bits (a board's `width * stride`)."""
        if slots is None:
            slots = int(megabytes * 2**20) // ARRAY_ENTRY_BYTES
            if slots < 2:
                raise ValueError(f"a table of {megabytes:g} MB holds no entry")
        from zerosum.solve.compiled_connect4 import KEPT_KEY_BITS

        fewest = 2 * ((1 << max(0, key_bits - KEPT_KEY_BITS)) + 1)
        self.buckets = buckets_for(max(slots, fewest))
        self.slots = 2 * self.buckets
        # filled now, so that the first search does not pay the system for each page it touches
        self.words = np.full(self.slots, 0, np.uint64)

    def clear(self) -> None:
        self.words[:] = 0


ARRAY_ENTRY_BYTES = 8
"""A compiled table entry: one 64-bit word."""


def buckets_for(slots: int) -> int:
    """The number of buckets (a prime) of a table of about `slots` slots, two a bucket."""
    return next_prime(max(1, slots // 2))


NODES = Limit(
    "the nodes of a Connect Four solve",
    5_000_000_000,
    "the compiled solver searches 4 to 6 million nodes a second here: a quarter of an hour (the"
    " empty 7x6 board took 513 million with a 256 MB table), and the Python kernel of boards"
    " wider than 64 bits thirty times as long",
)


DEFAULT_TABLE_MB = 64.0
"""The megabytes of the solver's table when none are asked for: a larger one saves few nodes
and costs a cache miss at each probe (benchmarks/LOG.md)."""

SHIPPED_BOOK = "shipped"
"""A solver's `book` when none is given: the opening book that comes with the package for its
board (`zerosum.solve.connect4_book.shipped`), if one does."""

NEAR_ZERO_PROBES = 2
"""`score`'s first null-window tests: at 0, then at 1 or -1 (most scores are near 0)."""

MIRRORED_BELOW = 22
"""Positions of fewer stones than this share their table entries with their mirror image."""


CUTOFF_ABOVE = 9
"""Nodes with more empty cells than this look their children up in the table before searching
any: a child already known to lose by enough for the opponent cuts the node at once (the
enhanced transposition cutoff of chess programs)."""


class Stopped(Exception):
    """The kernel passed its most nodes (`counter[1]`)."""


def make_kernel(
    game: ConnectFour, table: BoundTable, counter: list[int], book: OpeningBook | None = None
) -> Kernel:
    """The solver's negamax for boards of `game`'s size; it counts its nodes in `counter[0]`
    and stops (`Stopped`) past `counter[1]` of them; a node of at most `book.plies` stones
    takes its exact score from `book` when it has one."""
    height, cells = game.height, game.cells
    stride = height + 1
    bottom, board = game.bottom_row, game.board
    columns = [game.column_mask[c] for c in game.order]
    entries, buckets = table.entries, table.buckets
    get = entries.get
    up, left, down = stride, height, stride + 1  # shifts: horizontal and the two diagonals
    width = game.width
    mirrored_below, cutoff_above = MIRRORED_BELOW, CUTOFF_ABOVE
    book_plies = -1 if book is None else book.plies
    book_score = None if book is None else book.score_of_key

    def mirror(key: int) -> int:
        """The key of the position's mirror image (columns right to left)."""
        return mirror_key(key, width, stride)

    def find(bucket: int, key: int) -> int | None:
        """The entry of `key` in `bucket`, its own, None if neither slot holds it."""
        entry = get(bucket)
        if entry is None or entry >> 18 != key:
            entry = get(bucket + 1)
        return entry if entry is not None and entry >> 18 == key else None

    def store(bucket: int, entry: int) -> None:
        """Keep `entry` in `bucket` (see `BoundTable`)."""
        first = get(bucket)
        if first is None or first >> 18 == entry >> 18 or (first >> 12) & 63 >= (entry >> 12) & 63:
            entries[bucket] = entry
        else:
            entries[bucket + 1] = entry

    def winning(stones: int, mask: int) -> int:
        """Empty cells where one more of `stones` completes four in a row."""
        r = (stones << 1) & (stones << 2) & (stones << 3)
        for s in (up, left, down):
            p = (stones << s) & (stones << 2 * s)
            r |= p & (stones << 3 * s) | p & (stones >> s)
            p = (stones >> s) & (stones >> 2 * s)
            r |= p & (stones << s) | p & (stones >> 3 * s)
        return r & (board ^ mask)

    def negamax(position: int, mask: int, moves: int, alpha: int, beta: int) -> int:
        counter[0] += 1
        if counter[0] > counter[1]:
            raise Stopped
        possible = (mask + bottom) & board
        threats = winning(position ^ mask, mask)
        forced = possible & threats
        if forced:
            if forced & (forced - 1):  # two threats to stop at once
                return -((cells - moves) // 2)
            possible = forced
        safe = possible & ~(threats >> 1)  # never play right under a threat
        if not safe:
            return -((cells - moves) // 2)
        if moves >= cells - 2:  # nobody can win any more
            return 0
        key = position + mask
        if moves < mirrored_below:  # a position and its mirror image share their entries
            key = min(key, mirror(key))
        if moves <= book_plies:  # the opening book knows the exact score
            assert book_score is not None
            known = book_score(key)
            if known is not None:
                return known
        lower = -((cells - 2 - moves) // 2)
        upper = (cells - 1 - moves) // 2
        bucket = key % buckets << 1
        entry = find(bucket, key)
        if entry is not None:
            lower = max(lower, ((entry >> 6) & 63) - 32)
            upper = min(upper, (entry & 63) - 32)
            known_lower, known_upper = lower, upper
        else:
            known_lower, known_upper = NO_LOWER, NO_UPPER
        if alpha < lower:
            alpha = lower
            if alpha >= beta:
                return alpha
        if beta > upper:
            beta = upper
            if alpha >= beta:
                return beta
        opponent = position ^ mask
        if cells - moves > cutoff_above:  # a child's bound may cut at once
            for column in columns:
                move = safe & column
                if move:
                    child = opponent + (mask | move)
                    if moves + 1 < mirrored_below:
                        child = min(child, mirror(child))
                    entry = find(child % buckets << 1, child)
                    if entry is not None and 32 - (entry & 63) >= beta:
                        return 32 - (entry & 63)  # the child's upper bound, negated
        own = winning(position, mask)  # threats before moving
        ranked = []
        for rank, column in enumerate(columns):
            move = safe & column
            if move:
                threats = winning(position | move, mask).bit_count()
                if own & move << 1:  # right under its own threat: one less
                    threats -= 1
                ranked.append((threats + 1) << 4 | 15 - rank)
        ranked.sort(reverse=True)
        for code in ranked:
            move = safe & columns[15 - (code & 15)]
            score = -negamax(opponent, mask | move, moves + 1, -beta, -alpha)
            if score >= beta:
                store(bucket, key << 18 | moves << 12 | (score + 32) << 6 | (known_upper + 32))
                return score
            if score > alpha:
                alpha = score
        store(bucket, key << 18 | moves << 12 | (known_lower + 32) << 6 | (alpha + 32))
        return alpha

    return negamax


class ConnectFourSolver:
    """Exact scores of Connect Four positions (four in a row, any board up to 9 x 7)."""

    def __init__(
        self,
        game: ConnectFour | None = None,
        table_mb: float = DEFAULT_TABLE_MB,
        *,
        impl: str | None = None,
        slots: int | None = None,
        book: OpeningBook | None | str = SHIPPED_BOOK,
    ) -> None:
        """A solver for `game`'s board with a table of `table_mb` megabytes (or exactly `slots`
        entries); `impl` "compiled" (the default where the board fits in 64 bits) or "python"
        (the readable reference: the same nodes, thirty to fifty times slower); `book` the
        opening book whose exact scores it answers and stops its searches at: by default the
        one the package has for the board (`SHIPPED_BOOK`; ValueError if its file is damaged),
        None to search from scratch."""
        game = game if game is not None else ConnectFour()
        if game.connect != 4:
            raise ValueError(f"the solver plays four in a row, not {game.connect}")
        if game.cells > 63 or game.height > 7:
            raise ValueError("the solver handles boards of at most 9 x 7 cells")
        fits = game.width * game.stride <= 64
        if impl is None:
            impl = "compiled" if fits else "python"
        if impl not in ("compiled", "python"):
            raise ValueError(f"impl must be compiled or python, got {impl!r}")
        if impl == "compiled" and not fits:
            raise ValueError(
                f"a {game.width}x{game.height} board does not fit in 64 bits: the compiled"
                " solver needs width * (height + 1) <= 64 (impl=python solves it)"
            )
        self.game, self.impl = game, impl
        self.counter = [0, sys.maxsize]  # nodes searched, the most allowed
        self.table: BoundTable | ArrayTable
        if impl == "compiled":
            self.table = ArrayTable(table_mb, slots, key_bits=game.width * game.stride)
        else:
            self.table = BoundTable(table_mb, slots)
        self.use_book(connect4_book.shipped(game) if book == SHIPPED_BOOK else book)

    def use_book(self, book: OpeningBook | str | None) -> None:
        """Search with `book` from now on (None: from scratch, without one); ValueError when it
        is a book of another board."""
        if isinstance(book, str):
            raise ValueError(f"a solver's book is an OpeningBook, {SHIPPED_BOOK!r} or None")
        game = self.game
        if book is not None and (book.game.width, book.game.height) != (game.width, game.height):
            raise ValueError(
                f"an opening book of the {book.game.width}x{book.game.height} board cannot serve"
                f" the {game.width}x{game.height} one"
            )
        self.book = book
        if self.impl == "compiled":
            from zerosum.solve.compiled_connect4 import make_compiled_kernel

            self.negamax = make_compiled_kernel(
                game,
                self.table,
                self.counter,
                mirrored_below=MIRRORED_BELOW,
                cutoff_above=CUTOFF_ABOVE,
                stopped=Stopped,
                book=book,
            )
        else:
            assert isinstance(self.table, BoundTable)
            self.negamax = make_kernel(game, self.table, self.counter, book)

    def reset(self) -> None:
        """Forget the table (each test-set position is solved from an empty table)."""
        self.table.clear()

    def solve(
        self,
        state: State,
        *,
        weak: bool = False,
        best_move: bool = False,
        limit: Limit | None = None,
    ) -> Solution:
        """The exact score of `state` for the player to move (sign only with `weak`), with the
        best move when asked for; ValueError if the game is over, or (its message) when the
        search passes `limit`'s nodes. The table keeps what a stopped search proved."""
        self._check(state)
        start = time.perf_counter()
        self.counter[:] = [0, sys.maxsize if limit is None else limit.most]
        try:
            score = self.score(state, weak)
            move = self.best_move(state, score, weak) if best_move else None
        except Stopped:
            assert limit is not None
            limit.check(self.counter[0])
            raise  # unreachable: past its most, the limit refuses
        return Solution(score, move, self.counter[0], time.perf_counter() - start, weak)

    def score(self, state: State, weak: bool = False) -> int:
        """The exact score (or its sign, with `weak`) of an unfinished `state`."""
        position, mask, moves, _ = state
        cells = self.game.cells
        if self._winning_moves(state):
            return 1 if weak else (cells + 1 - moves) // 2
        known = None if self.book is None else self.book.score(state)
        if known is not None:  # the opening book's
            return max(-1, min(1, known)) if weak else known
        low, high = (-1, 1) if weak else (-((cells - moves) // 2), (cells + 1 - moves) // 2)
        probes = 0
        while low < high:  # null-window tests
            if probes < NEAR_ZERO_PROBES:  # 0 first, then a step at a time from it
                probe = 0 if probes == 0 else low if low > 0 else high - 1
                probe = min(max(probe, low), high - 1)
            else:  # then halving the interval, leaning towards 0
                probe = low + (high - low) // 2
                if probe <= 0 and int(low / 2) < probe:
                    probe = int(low / 2)
                elif probe >= 0 and high // 2 > probe:
                    probe = high // 2
            probes += 1
            result = self.negamax(position, mask, moves, probe, probe + 1)
            if result <= probe:
                high = result
            else:
                low = result
        return max(-1, min(1, low)) if weak else low

    def best_move(self, state: State, score: int, weak: bool = False) -> int:
        """A column reaching `score` (the exact score of `state`, or its sign with `weak`)."""
        game = self.game
        winning = self._winning_moves(state)
        if winning:
            return winning[0]
        for column in game.legal_moves(state):
            child = game.result(state, column)
            if game.is_terminal(child):  # a full board: a draw
                if score == 0:
                    return column
                continue
            position, mask, moves, _ = child
            target = -score  # the child's score for the opponent must be at most this
            if weak:
                value = -self.score(child, weak=True)
                if value >= score:
                    return column
            elif self._child_at_most(position, mask, moves, target):
                return column
        raise AssertionError("no move reaches the position's score")  # pragma: no cover

    def move_scores(
        self,
        state: State,
        *,
        weak: bool = False,
        on_score: Callable[[int, int], None] | None = None,
    ) -> dict[int, int]:
        """For every legal column of `state`, centre first, the exact score (its sign with
        `weak`) that playing it secures for the player to move; ValueError if the game is over.
        The children share the table, so each is cheaper than alone. `on_score(column, score)`,
        when given, is told each column's score as soon as it is found."""
        self._check(state)
        game, cells, moves = self.game, self.game.cells, state[2]
        scores = {}
        for column in game.legal_moves(state):
            child = game.result(state, column)
            if child[3]:  # a win with this very stone
                scores[column] = 1 if weak else (cells + 1 - moves) // 2
            elif game.is_terminal(child):  # the last cell: a draw
                scores[column] = 0
            else:
                scores[column] = -self.score(child, weak)
            if on_score is not None:
                on_score(column, scores[column])
        return scores

    def principal_variation(self, state: State, score: int, weak: bool = False) -> list[int]:
        """The columns of a line of best play from `state`, whose score is `score`, to the end."""
        game = self.game
        line = []
        while not game.is_terminal(state):
            move = self.best_move(state, score, weak)
            line.append(move)
            state = game.result(state, move)
            score = -score  # the best move keeps the score, seen from the other side
        return line

    def _child_at_most(self, position: int, mask: int, moves: int, target: int) -> bool:
        if self._winning_cells_now(position, mask):
            return (self.game.cells + 1 - moves) // 2 <= target
        return self.negamax(position, mask, moves, target, target + 1) <= target

    def _winning_cells_now(self, position: int, mask: int) -> int:
        game = self.game
        return game.winning_cells(position, mask) & (mask + game.bottom_row) & game.board

    def _winning_moves(self, state: State) -> list[int]:
        cells = self._winning_cells_now(state[0], state[1])
        return [c for c in self.game.order if cells & self.game.column_mask[c]]

    def _check(self, state: State) -> None:
        if self.game.is_terminal(state):
            raise ValueError("the game is already over")


class ConnectFourExact(ExactSolver):
    """The Connect Four solver: scores in the published test sets' convention."""

    weak = True
    has_table = True
    scores_moves = True
    has_book = True

    def __init__(
        self,
        game: ConnectFour,
        table_mb: float = DEFAULT_TABLE_MB,
        book: OpeningBook | str | None = SHIPPED_BOOK,
    ) -> None:
        """The solver of `game`'s board with a table of `table_mb` megabytes and `book` (by
        default the package's for the board, if it has one); ValueError when `table_mb` is not
        a positive number within the machine's memory, or the book's file is damaged.
        Compiled, it is compiled (or read from numba's cache) now, and the listeners of
        `zerosum.compiled.compiling` are told when it really compiles: the seconds it takes are
        not a search's."""
        check_megabytes(table_mb, "table_mb")
        self.game = game
        self.solver = ConnectFourSolver(game, table_mb, book=book)
        self.book = self.solver.book  # what `no_book = False` goes back to
        if self.solver.impl == "compiled":
            with told("compiling the Connect Four solver (once; later runs read the cache)"):
                warm_up(self.solver)

    @property
    def no_book(self) -> bool:
        """True when the solver searches from scratch, without its opening book (`--no-book`)."""
        return self.solver.book is None

    @no_book.setter
    def no_book(self, value: bool) -> None:
        if value != (self.solver.book is None):
            self.solver.use_book(None if value else self.book)

    def read_book(self, path: str) -> None:
        book = OpeningBook.load(path, self.game)
        self.book = book
        self.solver.use_book(book)

    def work(self) -> int:
        return self.solver.counter[0]  # the kernel's node count, read between its steps

    def answer(self, state: Any, *, weak: bool = False) -> ExactAnswer:
        limit = None if self.no_limit else NODES
        solution = self.solver.solve(state, weak=weak, best_move=True, limit=limit)
        try:  # the line is searched within the same limit (the book may answer the score alone)
            pv = tuple(self.solver.principal_variation(state, solution.score, weak=weak))
        except Stopped:
            assert limit is not None
            limit.check(self.solver.counter[0])
            raise  # unreachable: past its most, the limit refuses
        score, moves, cells = solution.score, state[2], self.game.cells
        plies = None
        if score and not weak:  # the score says with which stone the game is won
            winner_moves = moves if score > 0 else moves + 1
            plies = 1 + 2 * ((cells + 1 - winner_moves) // 2 - abs(score)) + (score < 0)
        note = describe_connect4(score, weak, cells)
        return ExactAnswer(
            "connect4 solver",
            (score > 0) - (score < 0),
            solution.best_move,
            pv,
            plies,
            solution.nodes,
            solution.seconds,
            {"score": score, "weak": weak},
            f"score {score}: {note}",
        )

    def best_move(self, state: Any) -> int:
        """The solver's best move: the first column, in the solver's order, that keeps the
        position's score (a win at once first)."""
        limit = None if self.no_limit else NODES
        move = self.solver.solve(state, best_move=True, limit=limit).best_move
        assert move is not None
        return move

    def move_values(self, state: Any, *, weak: bool = False) -> MoveValues:
        """Every legal column's exact score for the player to move (`ConnectFourSolver.
        move_scores`), within `NODES` unless `no_limit`; ValueError when the game is over."""
        start = time.perf_counter()
        counter = self.solver.counter
        counter[:] = [0, sys.maxsize if self.no_limit else NODES.most]
        try:
            scores = self.solver.move_scores(state, weak=weak)
        except Stopped:
            NODES.check(counter[0])
            raise  # unreachable: past its most, the limit refuses
        values: dict[Any, float] = dict(scores)
        cells = self.game.cells
        notes = {move: describe_connect4(score, weak, cells) for move, score in scores.items()}
        seconds = time.perf_counter() - start
        return MoveValues("connect4 solver", values, "score", counter[0], seconds, notes)

    def scored_moves(
        self, state: Any, nodes: int, on_score: Callable[[int, int], None]
    ) -> dict[int, int]:
        """The exact score (in the test sets' convention) of each legal column of `state` for
        the player to move, centre first, each told to `on_score(column, score)` as soon as it
        is proven, until `nodes` nodes are searched in all or `stop()` is called: the columns
        proven by then (all of them when the search ends first). ValueError when the game is
        over. What a stopped search proved stays in the table."""
        scores: dict[int, int] = {}

        def found(column: int, score: int) -> None:
            scores[column] = score
            on_score(column, score)

        self.solver.counter[:] = [0, nodes]
        with contextlib.suppress(Stopped):  # the columns proven so far are in `scores`
            self.solver.move_scores(state, on_score=found)
        return scores

    def stop(self) -> None:
        """Ask a running `scored_moves` (from any thread) to return at the solver's next look
        at its node count."""
        self.solver.counter[1] = -1

    def reset(self) -> None:
        self.solver.reset()


def describe_connect4(score: int, weak: bool, cells: int) -> str:
    """A test-set score in words: who wins, and with which of their stones."""
    if score == 0:
        return "a draw with best play"
    who = "the player to move wins" if score > 0 else "the opponent wins"
    if weak:
        return who
    return f"{who} with their stone number {cells // 2 + 1 - abs(score)}"


def warm_up(solver: ConnectFourSolver) -> None:
    """Call `solver`'s kernel once on the empty board, with a window above any score it can
    have, so that it returns at its first node: compiled, the kernel is then compiled (or read
    from numba's cache) before a search, whose progress then counts only searching."""
    cells = solver.game.cells
    solver.negamax(0, 0, 0, cells, cells + 1)
    solver.counter[0] = 0


def build_book(
    game: ConnectFour,
    plies: int,
    work_dir: str | os.PathLike,
    *,
    table_mb: float | None = None,
    progress: Callable[[connect4_book.BuildProgress], None] | None = None,
    no_limit: bool = False,
    workers: int = 1,
) -> connect4_book.Built:
    """The opening book (`zerosum.solve.connect4_book`) of `game`'s board to `plies` stones:
    its frontier solved by this module's solver (without any book) in chunks checkpointed in
    `work_dir` (made if missing; chunks a build there finished are read back, checked, not
    solved again), then minimax down to the empty board. The chunks are solved by `workers`
    processes, each taking the next chunk when it is done with one (one: in this process), each
    with its own solver, whose table has `table_mb` megabytes (by default the book module's
    `BUILD_TABLE_MB`, or `SMALL_BOARD_TABLE_MB` on a small board). ValueError past its `PLIES`
    unless `no_limit`. It lives here, beside the solver, so that the book module, which the
    solver reads, does not import the solver."""
    connect4_book.check_board(game)
    if plies < 0:
        raise ValueError(f"a book of {plies} plies: give 0 or more")
    connect4_book.PLIES.check(plies, lifted=no_limit)
    folder = Path(work_dir)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"cannot make the work directory {folder}: {error.strerror}") from None
    layers = connect4_book.positions_by_ply(game, plies)
    frontier = list(layers[plies].values())
    if table_mb is None:
        small = game.cells <= connect4_book.SMALL_BOARD_CELLS
        table_mb = connect4_book.SMALL_BOARD_TABLE_MB if small else connect4_book.BUILD_TABLE_MB
    keys = np.fromiter(layers[plies], np.uint64, len(frontier))
    scores = np.zeros(len(frontier), np.int8)
    board, size = (game.width, game.height), connect4_book.CHUNK
    tasks, nodes, seconds = [], 0, 0
    for first in range(0, len(frontier), size):
        done = connect4_book.finished_chunk(folder, game, plies, first, keys[first : first + size])
        if done is None:
            tasks.append(
                (board, plies, str(folder), first, frontier[first : first + size], table_mb)
            )
        else:  # solved by an earlier run
            scores[first : first + size], record = done
            nodes, seconds = nodes + record["nodes"], seconds + record["seconds"]
    resumed = len(frontier) - sum(len(task[4]) for task in tasks)
    solved = resumed
    try:
        with parallel.mapper(workers if tasks else 1) as mapper:
            for (_, _, _, first, states, _), (chunk_scores, record) in zip(
                tasks, mapper(solve_chunk, tasks), strict=True
            ):
                scores[first : first + len(states)] = chunk_scores
                nodes, seconds = nodes + record["nodes"], seconds + record["seconds"]
                solved += len(states)
                if progress is not None:
                    progress(
                        connect4_book.BuildProgress(solved, len(frontier), resumed, nodes, seconds)
                    )
    finally:
        _book_solver.cache_clear()  # its table, when this process solved the chunks
    book = connect4_book.back_up(game, layers, keys, scores)
    return connect4_book.Built(book, len(frontier), resumed, nodes, seconds)


def solve_chunk(
    board: tuple[int, int], plies: int, work_dir: str, first: int, states: list[State],
    table_mb: float,
) -> tuple[np.ndarray, dict[str, Any]]:  # fmt: skip
    """The exact scores of a chunk of a book's frontier, `states` from the `first`-th on,
    checkpointed in `work_dir` before they are returned with the record of their cost; by the
    solver this process keeps for the board (`_book_solver`), whose table carries what one
    chunk proved to the next."""
    solver = _book_solver(board, table_mb)
    began, counted = time.perf_counter(), 0
    scores = np.zeros(len(states), np.int8)
    for at, state in enumerate(states):
        solver.counter[:] = [0, sys.maxsize]
        scores[at] = solver.score(state)
        counted += solver.counter[0]
    record: dict[str, Any] = {"nodes": counted, "seconds": round(time.perf_counter() - began, 3)}
    keys = np.array([connect4_book.canonical_key(solver.game, *state[:2]) for state in states],
                    np.uint64)  # fmt: skip
    connect4_book.save_chunk(Path(work_dir), solver.game, plies, first, keys, scores, record)
    return scores, record


@functools.lru_cache(maxsize=1)
def _book_solver(board: tuple[int, int], table_mb: float) -> ConnectFourSolver:
    """The solver a process building a book keeps from one chunk to the next (one at a time)."""
    width, height = board
    return ConnectFourSolver(ConnectFour(width, height), table_mb, book=None)
