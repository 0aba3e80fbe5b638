"""The engine: negamax alpha-beta with the enhancements real game programs build on it.

`Engine(game).search(state, depth=..., time=..., nodes=...)` returns an `EngineResult` whose
`score` is an integer from the point of view of the player to move at the root:

- a proven win is `u * SCALE - plies` (a win sooner scores higher), a proven loss
  `-u * SCALE + plies`, a proven draw 0 (`zerosum.search.scores`, whose `decode` reads a
  score); `plies` gives the distance;
- an estimate is the game's `evaluate` in 1/1024ths of the utility scale, always smaller in
  size than a proven score, so a proven result never hides behind an estimate.

The enhancements, each a constructor flag so that its effect can be measured:

- `iterative`: iterative deepening, depth 1, 2, ... up to the depth asked for, until the value
  is exact (no line ended on an estimate), or until the node or time budget runs out; each
  iteration is reported (`on_iteration`, `iterations`) and the last one is the answer. The
  first of several iterations always finishes; the budget during a later one cuts it short,
  and so does `stop()` (from any thread, at once, even in the first iteration). A search with
  a single iteration (to the end, for a game without `evaluate`, or with `iterative` off) is
  bounded by the budget from its start. An iteration cut short
  after it has searched a root move to its full depth (the first root move is the previous
  iteration's best) is reported as such (`Iteration.complete` False) and answers with the best
  of the root moves it finished: the whole budget is used, and a better move found at the new
  depth is not thrown away. One cut short before that is dropped, and the iteration before it
  answers; with none, the answer is the first root move (with no score). Ctrl-C during a later
  iteration returns the last finished one.
- `table`: a transposition table (`zerosum.search.table`) keyed by the game's `key`. Stored
  scores cut nodes off only where their depth suffices and their bound decides; results of
  subtrees that met no estimate are stored as final, valid at any depth. The stored move is
  played only if it is legal. Repetition rules (graph-history interaction): where the way to a
  position decides its outcome (`zerosum.game.HistoryDependent`: a draw by repetition, a
  fifty-move rule), the same key can hide two positions of different values, and a score
  found along one path would corrupt the other (a draw by repeating a position that the other
  path never visited). The game's own terminal test sees the path, and runs before the table
  is probed; a score is stored with the game's `path_key` (`zerosum.game.PathKeyed`: for
  chess, the positions since the last capture or pawn move and the fifty-move counter) and
  reused only for a position reached with an equal one, so every reused score is the value of
  the same position with the same future; the stored move is tried on any path. A
  history-dependent game without `path_key` gets moves from the table, never scores.
- move ordering: the `hash_move` first, then captures by MVV-LVA (`captures`, for games that
  offer `zerosum.game.Capturing`), then the two `killers` of the ply, then the rest by the
  `history` heuristic, ties kept in the game's own order of `legal_moves`;
- `null_window`: principal variation search, every move after the first tried with a null
  window and searched again only when it might be better;
- `quiescence`: at the depth limit, the game's `noisy_moves` (`zerosum.game.Noisy`) are played
  out before evaluating, so that the horizon does not fall in the middle of an exchange.
- forward pruning, for games that say what it needs, in a depth-limited search, never at the
  root, in check or with a proven score at stake (the window beyond a win or loss):
  `null_move` (`zerosum.game.Passing`: if passing, searched 2 or 3 plies less deep, still
  reaches beta, the node is cut off); `late_move_reductions` (`zerosum.game.Checking`: a quiet
  move late in the order, not a capture, noisy move, killer or check, is searched a ply less,
  two when very late, and again at full depth if it beats alpha); `futility` (`Checking` and
  `Evaluating`: at depth 1 or 2, when the evaluation plus `futility_margin` per ply, in
  utility units, stays below alpha, quiet moves that give no check are skipped). Each of these
  counts as an estimate, so a pruned search never calls itself exact nor stores a final
  score; once an iteration meets no horizon, the next ones search without forward pruning, so
  a search to the end still finds the game's value.
- `check_extensions` (`Checking`): a move that gives check is searched a ply deeper, as long
  as the check is given within the iteration's depth (a line is at most twice as long).
- `tablebase`: a solved table (a `zerosum.game.Tablebase`: `zerosum.solve.Table`,
  `zerosum.games.chess.syzygy.Syzygy`): a position it holds is scored from it and never
  searched. A win or loss it knows without its length is scored at the distance
  `zerosum.search.scores.UNKNOWN_DISTANCE`: a proven score below every win of known length,
  whose `plies` is None.

`trace` (a `zerosum.search.trace.Trace`, not an enhancement) records the last iteration of each
search: nodes entered with their window, leaves, cut-offs, table hits and returns, every score
and window the player to move's.

Games where a player may move twice in a row are searched correctly: a child's score is
negated only when the turn passes. Utilities must be integers.
"""

from __future__ import annotations

import threading
import time as clock
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from zerosum.game import (
    Capturing,
    Checking,
    Evaluating,
    Game,
    Keyed,
    Noisy,
    Passing,
    PathKeyed,
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

__all__ = ["Engine", "EngineResult", "Iteration"]

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
"""The greatest depth at which a quiet move is pruned when even a margin would not reach alpha."""


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


class _Stop(Exception):
    """The budget ran out in the middle of an iteration."""


class Engine:
    """A game-playing search over any `Game` with integer utilities; it keeps its table and
    history heuristic between searches (`clear` forgets them)."""

    def __init__(
        self,
        game: Game,
        *,
        table: bool = True,
        table_mb: float = DEFAULT_MEGABYTES,
        iterative: bool = True,
        hash_move: bool = True,
        killers: bool = True,
        history: bool = True,
        captures: bool = True,
        null_window: bool = True,
        quiescence: bool = True,
        quiescence_depth: int = 16,
        null_move: bool = True,
        late_move_reductions: bool = True,
        futility: bool = True,
        futility_margin: float = 1.5,
        check_extensions: bool = True,
        tablebase: Tablebase | None = None,
        trace: Trace | None = None,
    ) -> None:
        if quiescence_depth < 0:
            raise ValueError(f"quiescence depth must be at least 0, got {quiescence_depth}")
        if not futility_margin >= 0:
            raise ValueError(f"futility margin must be at least 0, got {futility_margin}")
        self.game = game
        self.table = TranspositionTable(table_mb) if table and isinstance(game, Keyed) else None
        history_dependent = is_history_dependent(game)
        self.path_key = game.path_key if history_dependent and isinstance(game, PathKeyed) else None
        self.reuse_scores = not history_dependent or self.path_key is not None
        self.iterative = iterative
        self.hash_move = hash_move and self.table is not None
        self.killers = killers
        self.history = history
        self.captures = captures and isinstance(game, Capturing)
        self.ordering = self.hash_move or killers or history or self.captures
        self.null_window = null_window
        self.quiescence = quiescence and isinstance(game, Noisy)
        self.quiescence_depth = quiescence_depth
        self.evaluating = isinstance(game, Evaluating)
        checking = isinstance(game, Checking)
        self.in_check = game.in_check if checking else None
        self.null_move = null_move and isinstance(game, Passing) and self.evaluating
        self.late_move_reductions = late_move_reductions and checking
        self.futility = futility and checking and self.evaluating
        self.futility_margin = round(futility_margin * EVALUATION_UNIT)
        self.check_extensions = check_extensions and checking
        self.forward = self.null_move or self.late_move_reductions or self.futility
        self.pruning = False  # forward pruning in the running iteration
        self.extension_limit = 0  # the ply up to which checks are extended in this iteration
        self.null_ply = -2  # the ply of the null move on the current line, if any
        self.tablebase = tablebase
        self.tablebase_hits = 0
        self.trace = trace
        self.history_scores: tuple[dict, dict] = ({}, {})
        self.killer_moves: dict[int, list] = {}
        self.pv: dict[int, tuple] = {}
        self.root_move: Any = None
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
        self.history_scores = ({}, {})
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
        if not finished and self.stopped is not None:  # stopped in the first iteration
            stats = SearchStats(self.nodes, self.terminals, self.evaluations, self.cutoffs)
            move = self.game.legal_moves(state)[0]  # no root move was searched to the end
            return EngineResult(
                0.0, move, (move,), stats, None, 0, 0, False, (), table, seconds, self.stopped
            )
        if not finished:  # the root is over: its utility, proven
            utility = self.game.utility(state, self.game.to_move(state))
            stats = SearchStats(self.nodes, self.terminals, 0, 0)
            score = distance_score(utility, 0)
            plies = decode(score, exact=True).plies
            return EngineResult(utility, None, (), stats, plies, score, 0, True, (), table, seconds)
        last = finished[-1]
        stats = SearchStats(self.nodes, self.terminals, self.evaluations, self.cutoffs)
        return EngineResult(
            last.value, last.best_move, last.pv, stats, last.plies, last.score, last.depth,
            last.exact, tuple(finished), table, seconds, self.stopped,
        )  # fmt: skip

    def iterations(
        self,
        state: Any,
        *,
        depth: int | None = None,
        time: float | None = None,
        nodes: int | None = None,
    ) -> Iterator[Iteration]:
        """Every finished iteration of a search of `state`, as it finishes (see `search`)."""
        if depth is not None and depth < 1:
            raise ValueError(f"depth must be at least 1, got {depth}")
        if time is not None and not time > 0:
            raise ValueError(f"time must be more than 0 seconds, got {time}")
        if nodes is not None and nodes < 1:
            raise ValueError(f"node budget must be at least 1, got {nodes}")
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
        prune = self.forward
        if not self.evaluating or not self.iterative:
            schedule: range = range(target, target + 1)
        else:
            schedule = range(1, target + 1)
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
        self.nodes += 1
        if self.nodes >= self.next_check:
            self._check_budget()
        game = self.game
        self.pv[ply] = ()
        trace = self.trace
        if game.is_terminal(state):
            self.terminals += 1
            score = distance_score(game.utility(state, game.to_move(state)), ply)
            if trace is not None:
                trace.record(LEAF, state, ply, score)
            return score
        if self.tablebase is not None and ply:  # looked up, never searched (the root: its move)
            entry = self.tablebase.lookup(state)
            if entry is not None:
                self.tablebase_hits += 1
                value, distance = entry
                plies = UNKNOWN_DISTANCE if distance is None else distance  # None: a draw, or
                score = distance_score(value, ply + plies)  # a win of unknown length
                if trace is not None:
                    trace.record(HIT, state, ply, score)
                return score
        if depth <= 0:
            self.horizons += 1
            if self.quiescence:
                return self._quiesce(state, ply, alpha, beta, 0)
            self.estimates += 1
            score = self._static(state)
            if trace is not None:
                trace.record(LEAF, state, ply, score)
            return score
        estimates = self.estimates
        table = self.table
        hash_move = None
        if table is not None:
            key = game.key(state)
            path = self.path_key(state) if self.path_key is not None else None
            entry = table.probe(key)
            if entry is not None:
                _, stored_depth, score, bound, hash_move, _, stored_path = entry
                # the root needs its move; a score holds only for the path it was found on
                if stored_depth >= depth and self.reuse_scores and ply and stored_path == path:
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
        elif ply == 0:
            hash_move = self.root_move
        moves = game.legal_moves(state)
        if not moves:
            raise ValueError(f"state {state!r} is not terminal but has no legal moves")
        player = game.to_move(state)
        if self.ordering:
            moves = self._order(state, moves, hash_move, ply, player)
        if trace is not None:
            trace.record(ENTER, state, ply, None, alpha, beta)
        in_check = self.in_check is not None and self.in_check(state)
        # forward pruning: never at the root, in check, or with a proven score at stake
        pruning = self.pruning and ply > 0 and not in_check and alpha > -PROVEN and beta < PROVEN
        static = None
        if pruning and self.null_move and depth >= NULL_MOVE_DEPTH and ply != self.null_ply + 1:
            static = self._static(state)
            if static >= beta:
                score = self._null_move(state, depth, ply, beta, player)
                if score is not None:
                    if trace is not None:
                        trace.record(CUTOFF, state, ply, score, alpha, beta)
                        trace.record(EXIT, state, ply, score, alpha, beta)
                    return score
        margin = None  # the futility margin, at a frontier node where even it cannot reach alpha
        if pruning and self.futility and depth <= FUTILITY_DEPTH:
            static = self._static(state) if static is None else static
            if static + self.futility_margin * depth <= alpha:
                margin = static + self.futility_margin * depth
        reducing = pruning and self.late_move_reductions and depth >= REDUCTION_DEPTH
        tactical = self._tactical(state, ply) if margin is not None or reducing else ()
        to_move, result, search = game.to_move, game.result, self._child
        original_alpha = alpha
        best, best_move = -INFINITY, None
        null_window = False
        for index, move in enumerate(moves):
            child = result(state, move)
            turn = to_move(child) != player
            gives_check = self.in_check is not None and self.in_check(child)
            next_depth = depth - 1
            if gives_check and self.check_extensions and ply < self.extension_limit:
                next_depth = depth
            if index and not gives_check and move not in tactical:  # a quiet move, not the first
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
            if null_window:
                score = search(child, turn, next_depth, ply, alpha, alpha + 1)
                if alpha < score < beta:  # it may be better: find out by how much
                    score = search(child, turn, next_depth, ply, alpha, beta)
            else:
                score = search(child, turn, next_depth, ply, alpha, beta)
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
            null_window = self.null_window
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

    def _static(self, state: Any) -> int:
        """The evaluation of `state` for its player to move, as a score (counted)."""
        self.evaluations += 1
        return heuristic_score(self.game.evaluate(state, self.game.to_move(state)))  # type: ignore[attr-defined]

    def _null_move(self, state: Any, depth: int, ply: int, beta: int, player: int) -> int | None:
        """A score of at least `beta` when passing, searched less deep, still reaches `beta`
        (a real move would do better still); else None. Never a proven score: a pass is not
        a move of the game."""
        passed = self.game.null_move(state)  # type: ignore[attr-defined]
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

    def _tactical(self, state: Any, ply: int) -> list:
        """The moves of `state` that are never pruned or reduced: the killers and the noisy moves
        (the captures, for a game that names no noisy moves)."""
        game = self.game
        moves = list(self.killer_moves.get(ply, ()))
        if isinstance(game, Noisy):
            moves += game.noisy_moves(state)
        elif self.captures:
            moves += [move for move in game.legal_moves(state) if game.capture(state, move)]  # type: ignore[attr-defined]
        return moves

    def _quiesce(self, state: Any, ply: int, alpha: int, beta: int, depth: int) -> int:
        """The score of `state` at the horizon: its evaluation, or better, after noisy moves."""
        game = self.game
        player = game.to_move(state)
        self.estimates += 1
        best = self._static(state)
        trace = self.trace
        if not self.quiescence or best >= beta or depth >= self.quiescence_depth:
            if trace is not None:
                trace.record(LEAF, state, ply, best)
            return best
        moves = game.noisy_moves(state)  # type: ignore[attr-defined]
        if trace is not None:  # a node with nothing noisy to play out is a leaf
            if not moves:
                trace.record(LEAF, state, ply, best)
                return best
            trace.record(ENTER, state, ply, None, alpha, beta)
        alpha = max(alpha, best)
        if self.captures and len(moves) > 1:
            moves = sorted(moves, key=lambda move: self._mvv_lva(state, move), reverse=True)
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

    def _order(self, state: Any, moves: Any, hash_move: Any, ply: int, player: int) -> list:
        """`moves` in the order to search them: hash move, captures, killers, then by history."""
        front = []
        if hash_move is not None and hash_move in moves:  # a collision can store any move
            front.append(hash_move)
        rest = [move for move in moves if move not in front]
        if self.captures:
            captures = [move for move in rest if self.game.capture(state, move) is not None]
            if captures:
                captures.sort(key=lambda move: self._mvv_lva(state, move), reverse=True)
                front += captures
                rest = [move for move in rest if move not in captures]
        if self.killers:
            for killer in self.killer_moves.get(ply, ()):
                if killer in rest:
                    front.append(killer)
                    rest.remove(killer)
        if self.history and len(rest) > 1:
            scores = self.history_scores[player]
            rest.sort(key=lambda move: scores.get(move, 0), reverse=True)
        return front + rest

    def _mvv_lva(self, state: Any, move: Any) -> float:
        """Most valuable victim first, then least valuable attacker; quiet moves last."""
        capture = self.game.capture(state, move)  # type: ignore[attr-defined]
        if capture is None:
            return -INFINITY
        victim, attacker = capture
        return victim * 1024 - attacker

    def _reward(self, state: Any, move: Any, depth: int, ply: int, player: int) -> None:
        """Remember a quiet move that caused a cut-off: as a killer of its ply, and in history."""
        if self.captures and self.game.capture(state, move) is not None:
            return
        if self.killers:
            killers = self.killer_moves.setdefault(ply, [])
            if move not in killers:
                killers.insert(0, move)
                del killers[2:]
        if self.history:
            scores = self.history_scores[player]
            scores[move] = scores.get(move, 0) + depth * depth
