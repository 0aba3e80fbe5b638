"""The engine: negamax alpha-beta with the enhancements real game programs build on it.

`Engine(game).search(state, depth=..., time=..., nodes=...)` returns an `EngineResult` whose
`score` is an integer from the point of view of the player to move at the root
(`zerosum.search.scores`, whose `decode` reads it):

- a proven win is `u * SCALE - plies` (a win sooner scores higher), a proven loss
  `-u * SCALE + plies`, a proven draw 0; `plies` gives the distance;
- an estimate is the game's `evaluate` in 1/1024ths of the utility scale, always smaller in
  size than a proven score, so a proven result never hides behind an estimate.

The enhancements are switches of `Settings`, so that the effect of each can be measured
(`Engine(game, hash_move=False)`, or `Engine(game, settings)`); a switch the game cannot serve
is off in the engine's effective `settings` (captures for a game that is not `Capturing`...):

- `iterative`: iterative deepening, depth 1, 2, ... up to the depth asked for, until the value
  is exact (no line ended on an estimate), or until the node or time budget runs out; each
  iteration is reported (`on_iteration`, `iterations`) and the last one is the answer. Each
  iteration searches the previous one's best root move first, with or without a table and
  whatever `hash_move` says: it is what an iteration cut short answers with at the least. The
  first of several iterations always finishes; the budget during a later one cuts it short,
  and so does `stop()` (from any thread, at once, even in the first iteration). A search with
  a single iteration (to the end, for a game without `evaluate`, or with `iterative` off) is
  bounded by the budget from its start. An iteration cut short after it has searched a root
  move to its full depth (the first: the previous iteration's best) is reported as such
  (`Iteration.complete` False) and answers with the best of the root moves it finished: the
  whole budget is used, and a better move found at the new depth is not thrown away. One cut
  short before that is dropped, and the iteration before it answers; with none, the answer is
  the first root move (with no score). Ctrl-C during a later iteration returns the last
  finished one.
- `table`: a transposition table (`zerosum.search.table`) keyed by the game's `key`. Stored
  scores cut nodes off only where their depth suffices and their bound decides; results of
  subtrees that met no estimate are stored as final, valid at any depth. Repetition rules
  (graph-history interaction): where the way to a position decides its outcome
  (`zerosum.game.HistoryDependent`: a draw by repetition, a fifty-move rule), the same key can
  hide two positions of different values, and a score found along one path would corrupt the
  other (a draw by repeating a position that the other path never visited). The game's own
  terminal test sees the path, and runs before the table is probed; a score is stored with
  the game's `path_key` (`zerosum.game.PathKeyed`: for chess, the positions since the last
  capture or pawn move and the fifty-move counter) and reused only for a position reached
  with an equal one, so every reused score is the value of the same position with the same
  future. A history-dependent game without `path_key` gets moves from the table, never scores.
- move ordering: the `hash_move` (the move the table stored for the position, played only if
  it is legal, on any path) first, then captures by MVV-LVA (`captures`, for games that offer
  `zerosum.game.Capturing`), then the two `killers` of the ply, then the rest by the `history`
  heuristic, ties kept in the game's own order of `legal_moves`;
- `null_window`: principal variation search, every move after the first tried with a null
  window and searched again only when it might be better;
- `quiescence`: at the depth limit, the game's `noisy_moves` (`zerosum.game.Noisy`) are played
  out (at most `quiescence_depth` plies) before evaluating, so that the horizon does not fall
  in the middle of an exchange.
- forward pruning, for games that say what it needs, in a depth-limited search, never at the
  root, in check or with a proven score at stake (the window beyond a win or loss):
  `null_move` (`zerosum.game.Passing` and `Evaluating`: if passing, searched 2 or 3 plies less
  deep, still reaches beta, the node is cut off); `late_move_reductions`
  (`zerosum.game.Checking`: a quiet move late in the order, not a capture, noisy move, killer
  or check, is searched a ply less, two when very late, and again at full depth if it beats
  alpha); `futility` (`Checking` and `Evaluating`: at depth 1 or 2, when the evaluation plus
  `futility_margin` per ply, in utility units, stays below alpha, quiet moves that give no
  check are skipped). Each of these counts as an estimate, so a pruned search never calls
  itself exact nor stores a final score; once an iteration meets no horizon, the next ones
  search without forward pruning, so a search to the end still finds the game's value.
- `check_extensions` (`Checking`): a move that gives check is searched a ply deeper, as long
  as the check is given within the iteration's depth (a line is at most twice as long).

`tablebase` (a `zerosum.game.Tablebase`: `zerosum.solve.Table`,
`zerosum.games.chess.syzygy.Syzygy`): a position it holds is scored from it and never searched.
A win or loss it knows without its length is scored at the distance
`zerosum.search.scores.UNKNOWN_DISTANCE`: a proven score below every win of known length, whose
`plies` is None. `trace` (a `zerosum.search.trace.Trace`) records the last iteration of each
search: nodes entered with their window, leaves, cut-offs, table hits and returns, every score
and window the player to move's.

Games where a player may move twice in a row are searched correctly: a child's score is
negated only when the turn passes. Utilities must be integers.
"""

from __future__ import annotations

import threading
import time as clock
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, NoReturn

from zerosum.game import (
    Capturing,
    Checking,
    Evaluating,
    Game,
    Keyed,
    Noisy,
    Passing,
    PathKeyed,
    Player,
    Tablebase,
    is_history_dependent,
    require,
)
from zerosum.search.result import SearchResult, SearchStats
from zerosum.search.scores import (
    EVALUATION_UNIT,
    PROVEN,
    UNKNOWN_DISTANCE,
    decode,
    distance_score,
    heuristic_score,
)
from zerosum.search.table import (
    DEFAULT_MEGABYTES,
    TableStats,
    TranspositionTable,
    bound_type,
    decides,
)
from zerosum.search.trace import CUTOFF, ENTER, EXIT, HIT, LEAF, Trace

__all__ = ["Engine", "EngineResult", "Iteration", "Settings"]

INFINITY = 1 << 40
"""Beyond every score: the window of a full search."""

UNLIMITED = 1 << 30
"""The depth of a search to the end of the game, and of a table entry valid at any depth."""

CHECK_EVERY = 256
"""Nodes between two looks at the clock and the stop request (a chess node costs ~0.2 ms)."""

NULL_MOVE_DEPTH = 3
"""The least depth at which a null move is tried."""

LATE_MOVE = 3
"""Moves searched at full depth before the quiet ones are reduced."""

REDUCTION_DEPTH = 3
"""The least depth at which a late quiet move is searched one ply (two, very late) less."""

FUTILITY_DEPTH = 2
"""The greatest depth at which a quiet move is pruned when even a margin would not reach alpha.
Below `NULL_MOVE_DEPTH`: a node evaluates itself for one of the two at most."""


@dataclass(frozen=True)
class Settings:
    """The engine's switches and numbers (see the module's docstring for what each does).

    `table_mb` is the transposition table's size in megabytes, `quiescence_depth` the most
    plies quiescence plays out, `futility_margin` the margin per ply of futility pruning, in
    utility units. `effective(game)` turns off what a game cannot serve.
    """

    table: bool = True
    table_mb: float = DEFAULT_MEGABYTES
    iterative: bool = True
    hash_move: bool = True
    killers: bool = True
    history: bool = True
    captures: bool = True
    null_window: bool = True
    quiescence: bool = True
    quiescence_depth: int = 16
    null_move: bool = True
    late_move_reductions: bool = True
    futility: bool = True
    futility_margin: float = 1.5
    check_extensions: bool = True

    def __post_init__(self) -> None:
        if self.quiescence_depth < 0:
            raise ValueError(f"quiescence depth must be at least 0, got {self.quiescence_depth}")
        if not self.futility_margin >= 0:
            raise ValueError(f"futility margin must be at least 0, got {self.futility_margin}")

    def effective(self, game: object) -> Settings:
        """These settings with every switch off that `game` cannot serve: the table and its move
        need `Keyed`, iterative deepening `Evaluating`, MVV-LVA `Capturing`, quiescence `Noisy`,
        the null move `Passing` and `Evaluating`, reductions and check extensions `Checking`,
        futility `Checking` and `Evaluating`."""
        table = self.table and isinstance(game, Keyed)
        evaluating = isinstance(game, Evaluating)
        checking = isinstance(game, Checking)
        return replace(
            self,
            table=table,
            iterative=self.iterative and evaluating,
            hash_move=self.hash_move and table,
            captures=self.captures and isinstance(game, Capturing),
            quiescence=self.quiescence and isinstance(game, Noisy),
            null_move=self.null_move and isinstance(game, Passing) and evaluating,
            late_move_reductions=self.late_move_reductions and checking,
            futility=self.futility and checking and evaluating,
            check_extensions=self.check_extensions and checking,
        )

    @property
    def forward_pruning(self) -> bool:
        """True when any forward pruning is on: the null move, reductions or futility."""
        return self.null_move or self.late_move_reductions or self.futility


@dataclass(frozen=True)
class Iteration:
    """One iteration of iterative deepening.

    `score` and `value` are for the player to move at the root (`value` on the game's utility
    scale); `exact` says the value is the game's (every line was followed to its end, or to a
    stored result that was); `plies` is the distance to the end of the win or loss the score
    proves (a bound on the value unless `exact`). `nodes` and `seconds` are this iteration's.
    `complete` is False for an iteration the budget cut short: its move, score and line are
    the best of the root moves it searched to `depth` (at least the first), never `exact`.
    """

    depth: int
    score: int
    value: float
    best_move: Any
    pv: tuple[Any, ...]
    exact: bool
    plies: int | None
    nodes: int
    seconds: float
    complete: bool = True

    @property
    def nps(self) -> int:
        """Nodes per second."""
        return int(self.nodes / self.seconds) if self.seconds > 0 else 0


@dataclass(frozen=True)
class EngineResult(SearchResult):
    """A `SearchResult` with the engine's detail.

    `score` is the integer score behind `value`; `depth` the depth of the iteration that
    answers, the last of `iterations` (every iteration reported; the last may have been cut
    short: `Iteration.complete`); `exact` whether the value is proven; `table` the
    transposition table's counts (None without a table); `seconds` the whole search's time;
    `stopped` why the search ended early: "time", "nodes", "interrupt", "stop", or None.
    When `stop` or the budget ends the search before its first iteration has searched one root
    move to the end, `depth` is 0 and `best_move` the first legal move, without a score
    (`score` 0, `value` 0.0, not `exact`).
    """

    score: int = 0
    depth: int = 0
    exact: bool = False
    iterations: tuple[Iteration, ...] = ()
    table: TableStats | None = None
    seconds: float = 0.0
    stopped: str | None = None


def check_budget(depth: int | None, time: float | None, nodes: int | None) -> None:
    """ValueError unless each budget given is one a search can keep: a depth and a node count
    of at least 1, a time of more than 0 seconds."""
    if depth is not None and depth < 1:
        raise ValueError(f"depth must be at least 1, got {depth}")
    if time is not None and not time > 0:
        raise ValueError(f"time must be more than 0 seconds, got {time}")
    if nodes is not None and nodes < 1:
        raise ValueError(f"node budget must be at least 1, got {nodes}")


def engine_result(
    game: Game[Any, Any],
    state: Any,
    finished: list[Iteration],
    stats: SearchStats,
    table: TableStats | None,
    seconds: float,
    stopped: str | None,
) -> EngineResult:
    """What a search of `state` answers from its `finished` iterations (as `EngineResult`
    says): the deepest one's; the first legal move, unscored, when stopped before any; the
    root's utility, proven, when the game is over there."""
    if not finished and stopped is not None:  # stopped in the first iteration
        move = game.legal_moves(state)[0]  # no root move was searched to the end
        return EngineResult(
            0.0, move, (move,), stats, None, 0, 0, False, (), table, seconds, stopped
        )
    if not finished:  # the root is over: its utility, proven
        utility = game.utility(state, game.to_move(state))
        score = distance_score(utility, 0)
        plies = decode(score, exact=True).plies
        over = SearchStats(stats.nodes, stats.terminals, 0, 0)
        return EngineResult(utility, None, (), over, plies, score, 0, True, (), table, seconds)
    last = finished[-1]
    return EngineResult(
        last.value, last.best_move, last.pv, stats, last.plies, last.score, last.depth,
        last.exact, tuple(finished), table, seconds, stopped,
    )  # fmt: skip


class _Stop(Exception):
    """The budget ran out in the middle of an iteration."""


def _mvv_lva(capture: tuple[float, float] | None) -> float:
    """Most valuable victim first, then least valuable attacker; quiet moves last."""
    if capture is None:
        return -INFINITY
    victim, attacker = capture
    return victim * 1024 - attacker


class Engine:
    """A game-playing search over any `Game` with integer utilities; it keeps its table and
    history heuristic between searches (`clear` forgets them)."""

    def __init__(
        self,
        game: Game[Any, Any],
        settings: Settings | None = None,
        *,
        tablebase: Tablebase | None = None,
        trace: Trace | None = None,
        **switches: Any,
    ) -> None:
        """An engine for `game` with `settings` (`Settings()` by default), changed by any of
        its fields given by name (`Engine(game, hash_move=False)`: a TypeError names an unknown
        one); `engine.settings` are the effective ones (`Settings.effective`)."""
        requested = replace(settings or Settings(), **switches)
        self.settings = settings = requested.effective(game)
        self.game = game
        # The game's capabilities, bound once (no isinstance at a node): None where being
        # absent is what switches a step off; else, for a game without it, a stand-in that the
        # effective settings never call.
        self.table = TranspositionTable(settings.table_mb) if settings.table else None
        self._key = game.key if isinstance(game, Keyed) else _lacking(Keyed)
        history_dependent = is_history_dependent(game)
        self._path_key = (
            game.path_key if history_dependent and isinstance(game, PathKeyed) else None
        )
        self.reuse_scores = not history_dependent or self._path_key is not None
        self._evaluate = game.evaluate if isinstance(game, Evaluating) else _lacking(Evaluating)
        self._null_move = game.null_move if isinstance(game, Passing) else _lacking(Passing)
        noisy = game.noisy_moves if isinstance(game, Noisy) else None
        self._noisy_moves = noisy  # never pruned or reduced
        self._quiescence_moves = noisy if settings.quiescence else None
        self._capture = game.capture if settings.captures and isinstance(game, Capturing) else None
        checks = settings.check_extensions or settings.forward_pruning  # never pruned in check
        self._in_check = game.in_check if checks and isinstance(game, Checking) else None
        self.ordering = (
            settings.hash_move or settings.killers or settings.history or settings.captures
        )
        self.futility_margin = round(settings.futility_margin * EVALUATION_UNIT)
        self.tablebase = tablebase
        self.tablebase_hits = 0
        self.trace = trace
        # What searches learn and keep: the history heuristic, the killer moves.
        self.history_scores = _no_history()
        self.killer_moves: dict[int, list[Any]] = {}
        # The state of the running search.
        self.pruning = False  # forward pruning in the running iteration
        self.extension_limit = 0  # the ply up to which checks are extended in this iteration
        self.null_ply = -2  # the ply of the null move on the current line, if any
        self.pv: dict[int, tuple[Any, ...]] = {}
        self.root_move: Any = None  # the previous iteration's best, searched first
        self.root_score = 0
        self.nodes = self.terminals = self.evaluations = self.cutoffs = self.horizons = 0
        self.estimates = 0  # evaluations plus reused table scores that rest on evaluations
        self.next_check = UNLIMITED
        self.deadline: float | None = None
        self.node_limit: int | None = None
        self.stopped: str | None = None
        self.stop_requested = threading.Event()
        self.budgeted = False  # False during the first of several iterations: only `stop` ends it

    def stop(self) -> None:
        """Ask the running search (from any thread) to return as soon as it can."""
        self.stop_requested.set()

    def clear(self) -> None:
        """Forget the table, the history heuristic and the killer moves."""
        if self.table is not None:
            self.table.clear()
        self.history_scores = _no_history()
        self.killer_moves = {}

    # -- the driver -------------------------------------------------------------------------

    def search(
        self,
        state: Any,
        *,
        depth: int | None = None,
        time: float | None = None,
        nodes: int | None = None,
        on_iteration: Callable[[Iteration], None] | None = None,
    ) -> EngineResult:
        """The best move of the deepest finished iteration and its score, for the player to move.

        `depth` (plies), `time` (seconds) and `nodes` bound the search; with none of them it
        goes on until the value is exact. `on_iteration` is called with every finished
        iteration.
        """
        start = clock.perf_counter()
        finished: list[Iteration] = []
        for iteration in self.iterations(state, depth=depth, time=time, nodes=nodes):
            finished.append(iteration)
            if on_iteration is not None:
                on_iteration(iteration)
        seconds = clock.perf_counter() - start
        table = self.table.stats() if self.table is not None else None
        stats = SearchStats(self.nodes, self.terminals, self.evaluations, self.cutoffs)
        return engine_result(self.game, state, finished, stats, table, seconds, self.stopped)

    def iterations(
        self,
        state: Any,
        *,
        depth: int | None = None,
        time: float | None = None,
        nodes: int | None = None,
    ) -> Iterator[Iteration]:
        """Every finished iteration of a search of `state`, as it finishes (see `search`)."""
        check_budget(depth, time, nodes)
        game = self.game
        self.nodes = self.terminals = self.evaluations = self.cutoffs = self.horizons = 0
        self.stop_requested.clear()
        if game.is_terminal(state):
            return
        if depth is not None:
            require(game, Evaluating, "depth-limited search")
        self.killer_moves = {}
        self.root_move = None
        self.stopped = None
        for scores in self.history_scores:  # old history counts less than new
            for move in scores:
                scores[move] >>= 1
        if self.table is not None:
            self.table.new_search()
        start = clock.perf_counter()
        self.deadline = start + time if time is not None else None
        self.node_limit = nodes
        target = depth if depth is not None else UNLIMITED
        prune = self.settings.forward_pruning
        schedule = range(1 if self.settings.iterative else target, target + 1)
        # The first of several iterations always finishes (it is quick, and gives a scored
        # answer); a single iteration is bounded by the budget from its first node.
        self.budgeted = len(schedule) == 1
        self.next_check = self.nodes + 1 if self.budgeted else CHECK_EVERY
        for current in schedule:
            horizons = self.horizons
            try:
                iteration = self._iterate(state, current, prune)
            except _Stop:
                return
            except KeyboardInterrupt:
                if current == schedule.start:
                    raise
                self.stopped = "interrupt"
                return
            yield iteration
            if iteration.exact or not iteration.complete:
                return
            if self.horizons == horizons:  # every line ended: only pruning kept it from exact
                prune = False
            self.budgeted = True
            self.next_check = self.nodes + 1

    def _iterate(self, state: Any, depth: int, prune: bool) -> Iteration:
        start = clock.perf_counter()
        self.pruning = prune and depth < UNLIMITED
        self.extension_limit = depth if depth < UNLIMITED else 0
        self.null_ply = -2
        nodes_before, estimates_before = self.nodes, self.estimates
        if self.trace is not None:  # only the last iteration is kept
            self.trace.clear()
        complete, self.pv[0] = True, ()  # the budget may stop it before the root is entered
        try:
            score = self._node(state, depth, 0, -INFINITY, INFINITY)
        except _Stop:
            if not self.pv.get(0):  # not one root move searched to the end
                raise
            score, complete = self.root_score, False
        seconds = clock.perf_counter() - start
        pv = self.pv.get(0, ())
        self.root_move = pv[0] if pv else None
        # Exact only if no estimate was met: with utilities beyond win/loss, a proven score
        # can still hide a larger outcome behind an estimate.
        exact = complete and self.estimates == estimates_before
        decoded = decode(score, exact)
        return Iteration(
            depth if depth < UNLIMITED else len(pv), score, decoded.value, self.root_move, pv,
            exact, decoded.plies, self.nodes - nodes_before, seconds, complete,
        )  # fmt: skip

    def _check_budget(self) -> None:
        """Raise `_Stop` when asked to stop or the time or node budget is spent (the budget
        only after the first of several iterations); else set the next check."""
        if self.stop_requested.is_set():
            self.stopped = "stop"
            raise _Stop
        if not self.budgeted:
            self.next_check = self.nodes + CHECK_EVERY
            return
        if self.node_limit is not None and self.nodes >= self.node_limit:
            self.stopped = "nodes"
            raise _Stop
        if self.deadline is not None and clock.perf_counter() >= self.deadline:
            self.stopped = "time"
            raise _Stop
        step = self.nodes + CHECK_EVERY
        self.next_check = step if self.node_limit is None else min(step, self.node_limit)

    # -- the search -------------------------------------------------------------------------

    def _node(self, state: Any, depth: int, ply: int, alpha: int, beta: int) -> int:
        """The score of `state` for its player to move, searched `depth` plies (fail-soft)."""
        # Step 1. Count the node; every CHECK_EVERY nodes, look at the budget.
        self.nodes += 1
        if self.nodes >= self.next_check:
            self._check_budget()
        game, trace = self.game, self.trace
        self.pv[ply] = ()

        # Step 2. Scored, not searched: the end of the game, a solved table, the horizon.
        if game.is_terminal(state):
            self.terminals += 1
            score = distance_score(game.utility(state, game.to_move(state)), ply)
            if trace is not None:
                trace.record(LEAF, state, ply, score)
            return score
        tablebase = self.tablebase
        if tablebase is not None and ply:  # the root is searched: it needs a move
            known = tablebase.lookup(state)
            if known is not None:
                return self._looked_up(state, ply, *known)
        if depth <= 0:
            self.horizons += 1
            if self._quiescence_moves is not None:
                return self._quiesce(state, ply, alpha, beta, 0)
            self.estimates += 1
            score = self._static(state)
            if trace is not None:
                trace.record(LEAF, state, ply, score)
            return score

        # Step 3. The table: a stored score ends the node where its depth suffices, its bound
        # decides the window and it was found along an equal path (never at the root, which
        # needs its move). The move to try first: at the root the previous iteration's best
        # (iterative deepening), else the stored move (`hash_move`).
        estimates = self.estimates
        table = self.table
        first = self.root_move if not ply else None  # the previous iteration's best
        if table is not None:
            key = self._key(state)
            path = None if self._path_key is None else self._path_key(state)
            entry = table.probe(key)
            if entry is not None:
                _, stored_depth, score, bound, move, _, stored_path = entry
                if first is None and self.settings.hash_move:
                    first = move
                if stored_depth >= depth and ply and self.reuse_scores and stored_path == path:
                    if score >= PROVEN:  # stored relative to its own node
                        score -= ply
                    elif score <= -PROVEN:
                        score += ply
                    if decides(bound, score, alpha, beta):
                        table.cutoffs += 1
                        if stored_depth < UNLIMITED:
                            self.estimates += 1
                        if trace is not None:
                            trace.record(HIT, state, ply, score)
                        return score

        # Step 4. The moves, in the order to search them.
        moves = game.legal_moves(state)
        if not moves:
            raise ValueError(f"state {state!r} is not terminal but has no legal moves")
        player = game.to_move(state)
        if self.ordering or first is not None:
            moves = self._order(state, moves, first, ply, player)
        if trace is not None:
            trace.record(ENTER, state, ply, None, alpha, beta)

        # Step 5. Forward pruning: never at the root, in check, or with a proven score at
        # stake. A null move that still reaches beta ends the node; then the futility margin
        # (quiet moves skipped), the reductions of late quiet moves, and the tactical moves that
        # are neither (killers, noisy moves).
        margin: int | None = None
        reducing = False
        tactical: Sequence[Any] = ()
        in_check = self._in_check
        if (
            self.pruning
            and ply
            and alpha > -PROVEN
            and beta < PROVEN
            and not (in_check is not None and in_check(state))
        ):
            if self.settings.null_move and depth >= NULL_MOVE_DEPTH and ply != self.null_ply + 1:
                cut = self._null_move_cut(state, depth, ply, beta, player)
                if cut is not None:
                    if trace is not None:
                        trace.record(CUTOFF, state, ply, cut, alpha, beta)
                        trace.record(EXIT, state, ply, cut, alpha, beta)
                    return cut
            if self.settings.futility and depth <= FUTILITY_DEPTH:
                margin = self._futility_margin(state, depth, alpha)
            reducing = self.settings.late_move_reductions and depth >= REDUCTION_DEPTH
            if margin is not None or reducing:
                tactical = self._tactical(state, ply)

        # Step 6. The moves, the first with the whole window, the others with a null window
        # and again with the whole one if they may be better (PVS); a move that gives check a
        # ply deeper; quiet moves after the first skipped where futile, searched less deep
        # where late, unless that beats alpha.
        prunable = margin is not None or reducing
        extending = self.settings.check_extensions and ply < self.extension_limit
        gives_check = in_check if extending or prunable else None
        to_move, result, node, search = game.to_move, game.result, self._node, self._child
        original_alpha, principal_variation_search = alpha, self.settings.null_window
        best, best_move = -INFINITY, None
        null_window = False
        for index, move in enumerate(moves):
            child = result(state, move)
            turn = to_move(child) != player
            check = gives_check is not None and gives_check(child)
            next_depth = depth if check and extending else depth - 1
            if prunable and index and not check and move not in tactical:  # quiet, not the first
                if margin is not None:  # futile: it would not reach alpha
                    self.estimates += 1
                    best = max(best, margin)
                    continue
                if reducing and index >= LATE_MOVE:  # late: searched less deep, unless it is good
                    reduction = 1 if index < 2 * LATE_MOVE else 2
                    score = search(child, turn, next_depth - reduction, ply, alpha, alpha + 1)
                    if score <= alpha:
                        self.estimates += 1
                        best = max(best, score)
                        continue
            # `_child` written out for the searches nearly every move makes: a call less a node
            if null_window:
                if turn:
                    score = -node(child, next_depth, ply + 1, -alpha - 1, -alpha)
                else:
                    score = node(child, next_depth, ply + 1, alpha, alpha + 1)
                if alpha < score < beta:  # it may be better: find out by how much
                    score = search(child, turn, next_depth, ply, alpha, beta)
            elif turn:
                score = -node(child, next_depth, ply + 1, -beta, -alpha)
            else:
                score = node(child, next_depth, ply + 1, alpha, beta)
            if score > best:
                best, best_move = score, move
                if score > alpha:
                    alpha = score
                    self.pv[ply] = (move, *self.pv.get(ply + 1, ()))
                    if not ply:  # the answer if the budget cuts the iteration short
                        self.root_score = score
                    if score >= beta:
                        self.cutoffs += 1
                        self._reward(state, move, depth, ply, player)
                        if trace is not None:
                            trace.record(CUTOFF, state, ply, score, alpha, beta)
                        break
            null_window = principal_variation_search

        # Step 7. Store: final (valid at any depth) when the subtree met no estimate.
        if table is not None:
            stored = best + ply if best >= PROVEN else best - ply if best <= -PROVEN else best
            sure = UNLIMITED if self.estimates == estimates else depth
            table.store(key, sure, stored, bound_type(best, original_alpha, beta), best_move, path)
        if trace is not None:
            trace.record(EXIT, state, ply, best, original_alpha, beta)
        return best

    def _child(self, child: Any, turn: bool, depth: int, ply: int, alpha: int, beta: int) -> int:
        """The score of `child` (`turn`: the other player moves there) for the player to move at
        its parent, at `ply`, searched `depth` plies in the window (`alpha`, `beta`)."""
        if turn:
            return -self._node(child, depth, ply + 1, -beta, -alpha)
        return self._node(child, depth, ply + 1, alpha, beta)

    def _looked_up(self, state: Any, ply: int, value: int, distance: int | None) -> int:
        """The score at `ply` of `state`, whose `value` and `distance` the tablebase gives."""
        self.tablebase_hits += 1
        score = distance_score(value, ply + (UNKNOWN_DISTANCE if distance is None else distance))
        if self.trace is not None:
            self.trace.record(HIT, state, ply, score)
        return score

    def _static(self, state: Any) -> int:
        """The evaluation of `state` for its player to move, as a score (counted)."""
        self.evaluations += 1
        return heuristic_score(self._evaluate(state, self.game.to_move(state)))

    def _null_move_cut(
        self, state: Any, depth: int, ply: int, beta: int, player: Player
    ) -> int | None:
        """A score of at least `beta` when `state` evaluates to `beta` or more and passing,
        searched less deep, still reaches `beta` (a real move would do better still); else None.
        Never a proven score: a pass is not a move of the game."""
        if self._static(state) < beta:
            return None
        passed = self._null_move(state)
        if passed is None:
            return None
        reduction = 2 if depth < 6 else 3
        saved, self.null_ply = self.null_ply, ply
        try:
            turn = self.game.to_move(passed) != player
            score = self._child(passed, turn, depth - 1 - reduction, ply, beta - 1, beta)
        finally:
            self.null_ply = saved
        if score < beta:
            return None
        self.estimates += 1
        return beta if score >= PROVEN else score

    def _futility_margin(self, state: Any, depth: int, alpha: int) -> int | None:
        """The best a quiet move of `state` is taken to reach, `depth` plies from the horizon:
        its evaluation plus the margin, when that stays at or below `alpha`; else None."""
        margin = self._static(state) + self.futility_margin * depth
        return margin if margin <= alpha else None

    def _tactical(self, state: Any, ply: int) -> list[Any]:
        """The moves of `state` that are never pruned or reduced: the killers and the noisy moves
        (the captures, for a game that names no noisy moves)."""
        moves = list(self.killer_moves.get(ply, ()))
        if self._noisy_moves is not None:
            moves += self._noisy_moves(state)
        elif self._capture is not None:
            capture = self._capture
            moves += [move for move in self.game.legal_moves(state) if capture(state, move)]
        return moves

    def _quiesce(self, state: Any, ply: int, alpha: int, beta: int, depth: int) -> int:
        """The score of `state` at the horizon: its evaluation, or better, after noisy moves."""
        self.estimates += 1
        best = self._static(state)
        trace = self.trace
        noisy_moves = self._quiescence_moves
        if noisy_moves is None or best >= beta or depth >= self.settings.quiescence_depth:
            if trace is not None:
                trace.record(LEAF, state, ply, best)
            return best
        game = self.game
        player = game.to_move(state)
        moves = noisy_moves(state)
        if trace is not None:  # a node with nothing noisy to play out is a leaf
            if not moves:
                trace.record(LEAF, state, ply, best)
                return best
            trace.record(ENTER, state, ply, None, alpha, beta)
        alpha = max(alpha, best)
        capture = self._capture
        if capture is not None and len(moves) > 1:
            moves = sorted(moves, key=lambda move: _mvv_lva(capture(state, move)), reverse=True)
        for move in moves:
            self.nodes += 1
            if self.nodes >= self.next_check:
                self._check_budget()
            child = game.result(state, move)
            turn = game.to_move(child) != player
            if game.is_terminal(child):
                self.terminals += 1
                score = distance_score(game.utility(child, player), ply + 1)
                if trace is not None:  # the child's score, for its own player to move
                    trace.record(LEAF, child, ply + 1, -score if turn else score)
            elif turn:
                score = -self._quiesce(child, ply + 1, -beta, -alpha, depth + 1)
            else:
                score = self._quiesce(child, ply + 1, alpha, beta, depth + 1)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        self.cutoffs += 1
                        if trace is not None:
                            trace.record(CUTOFF, state, ply, score, alpha, beta)
                        break
        if trace is not None:
            trace.record(EXIT, state, ply, best, alpha, beta)
        return best

    # -- move ordering ----------------------------------------------------------------------

    def _order(
        self, state: Any, moves: Sequence[Any], first: Any, ply: int, player: Player
    ) -> list[Any]:
        """`moves` in the order to search them: `first` (the hash move, or at the root the
        previous iteration's best), captures, killers, then by history."""
        front = []
        rest = list(moves)
        if first is not None and first in rest:  # a collision can store any move
            rest.remove(first)
            front.append(first)
        capture = self._capture
        if capture is not None:
            captures = [move for move in rest if capture(state, move) is not None]
            if captures:
                captures.sort(key=lambda move: _mvv_lva(capture(state, move)), reverse=True)
                front += captures
                rest = [move for move in rest if move not in captures]
        if self.settings.killers:
            for killer in self.killer_moves.get(ply, ()):
                if killer in rest:
                    front.append(killer)
                    rest.remove(killer)
        if self.settings.history and len(rest) > 1:
            scores = self.history_scores[player]
            rest.sort(key=scores.__getitem__, reverse=True)
        return front + rest

    def _reward(self, state: Any, move: Any, depth: int, ply: int, player: Player) -> None:
        """Remember a quiet move that caused a cut-off: as a killer of its ply, and in history."""
        if self._capture is not None and self._capture(state, move) is not None:
            return
        if self.settings.killers:
            killers = self.killer_moves.setdefault(ply, [])
            if move not in killers:
                killers.insert(0, move)
                del killers[2:]
        if self.settings.history:
            scores = self.history_scores[player]
            scores[move] += depth * depth


def _no_history() -> tuple[defaultdict[Any, int], defaultdict[Any, int]]:
    """Each player's history scores, every move at 0 (a default dict: the moves are sorted by
    its `__getitem__`, with no Python call per move)."""
    return defaultdict(int), defaultdict(int)


def _lacking(capability: type) -> Callable[..., NoReturn]:
    """A stand-in for the method of a `capability` the game lacks, for the engine to bind where
    its settings never call it."""

    def lacking(*arguments: Any) -> NoReturn:
        raise ValueError(f"the game does not provide {capability.__name__}")

    return lacking
