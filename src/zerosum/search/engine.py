"""The engine: negamax alpha-beta with the enhancements real game programs build on it.

`Engine(game).search(state, depth=..., time=..., nodes=...)` returns an `EngineResult` whose
`score` is an integer from the point of view of the player to move at the root
(`zerosum.search.scores`, whose `decode` reads it):

- a proven win is `u * SCALE - plies` (a win sooner scores higher), a proven loss
  `-u * SCALE + plies`, a proven draw 0; `plies` gives the distance;
- an estimate is the game's `evaluate` in 1/1024ths of the utility scale, always smaller in
  size than a proven score, so a proven result never hides behind an estimate.

The node function, `Engine._node`, is the search, a step for each enhancement, and iterative
deepening under a budget drives it (`zerosum.search.deepening`). The enhancements are switches
of `Settings` (`zerosum.search.settings` says what each does), so that the effect of each can be
measured (`Engine(game, hash_move=False)`, or `Engine(game, settings)`); a switch the game
cannot serve is off in the engine's effective `settings` (captures for a game that is not
`Capturing`...).

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

import time as clock
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, NoReturn

from zerosum.game import (
    Capturing,
    Checking,
    Evaluating,
    Exchanging,
    Game,
    Keyed,
    Noisy,
    Passing,
    PathKeyed,
    Player,
    Tablebase,
    is_history_dependent,
)
from zerosum.search.deepening import (
    UNLIMITED,
    EngineResult,
    Iteration,
    IterativeDeepening,
    Stopped,
    check_budget,
    engine_result,
)
from zerosum.search.ordering import MoveOrder, mvv_lva
from zerosum.search.scores import (
    EVALUATION_UNIT,
    PROVEN,
    UNKNOWN_DISTANCE,
    decode,
    distance_score,
    heuristic_score,
)
from zerosum.search.settings import Settings
from zerosum.search.table import UPPER, TableStats, TranspositionTable, bound_type, decides
from zerosum.search.trace import CUTOFF, ENTER, EXIT, HIT, LEAF, Trace

# With `Engine`, the names that were defined here before they had modules of their own
# (`zerosum.search.deepening`, `zerosum.search.settings`), for whoever imports them from here.
__all__ = [
    "INFINITY",
    "Engine",
    "EngineResult",
    "Iteration",
    "Settings",
    "check_budget",
    "engine_result",
]

INFINITY = 1 << 40
"""Beyond every score: the window of a full search."""

NULL_MOVE_DEPTH = 3
"""The least depth at which a null move is tried."""

LATE_MOVE = 3
"""Moves searched at full depth before the quiet ones are reduced."""

REDUCTION_DEPTH = 3
"""The least depth at which a late quiet move is searched one ply (two, very late) less."""

FUTILITY_DEPTH = 2
"""The greatest depth at which a quiet move is pruned when even a margin would not reach alpha.
Below `NULL_MOVE_DEPTH`: a node evaluates itself for one of the two at most."""

SINGULAR_DEPTH = 6
"""The least depth at which a singular extension is tried."""

SINGULAR_SHORTFALL = 3
"""How much shallower than the node a stored score may have been searched to start the test."""

SINGULAR_MARGIN = round(0.02 * EVALUATION_UNIT)
"""How far below the stored score, a ply of depth, the other moves must all stay (in 1/1024ths
of a utility unit: 0.02 units, two centipawns in chess)."""


class Engine(IterativeDeepening):
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
        settings = requested.effective(game)
        super().__init__(game, settings)  # the driver: counts, budget, `search`
        self.table = TranspositionTable(settings.table_mb) if settings.table else None
        # The game's capabilities, bound once (no isinstance at a node): None where being
        # absent is what switches a step off; else, for a game without it, a stand-in that the
        # effective settings never call.
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
        judged = settings.static_exchange and isinstance(game, Exchanging)
        self._exchange = (  # in quiescence, out of check
            game.exchange if settings.static_exchange and isinstance(game, Exchanging) else None
        )
        self._checked = game.in_check if judged and isinstance(game, Checking) else None
        self.ordering = (
            settings.hash_move or settings.killers or settings.history or settings.captures
        )
        self.futility_margin = round(settings.futility_margin * EVALUATION_UNIT)
        self.tablebase = tablebase
        self.tablebase_hits = 0
        self.trace = trace
        # What searches learn and keep: the killer moves, the history heuristic.
        self.move_order = MoveOrder(
            self._capture, killers=settings.killers, history=settings.history
        )
        # The state of the running search.
        self.pruning = False  # forward pruning in the running iteration
        self.extension_limit = 0  # the ply up to which checks are extended in this iteration
        self.null_ply = -2  # the ply of the null move on the current line, if any
        self.pv: dict[int, tuple[Any, ...]] = {}
        self.root_move: Any = None  # the previous iteration's best, searched first
        self.root_score = 0
        self.estimates = 0  # evaluations plus reused table scores that rest on evaluations

    def clear(self) -> None:
        """Forget the table, the history heuristic and the killer moves."""
        if self.table is not None:
            self.table.clear()
        self.move_order.clear()

    def table_stats(self) -> TableStats | None:
        """What the transposition table did since it was made (None without one)."""
        return self.table.stats() if self.table is not None else None

    # -- an iteration -----------------------------------------------------------------------

    def _new_search(self) -> None:
        """Forget the killer moves and the last search's best root move, halve the history
        scores, age the table's entries."""
        self.move_order.new_search()
        self.root_move = None
        if self.table is not None:
            self.table.new_search()

    def _iterate(self, state: Any, depth: int, prune: bool) -> Iteration:
        """The iteration that searches `state` to `depth` plies (`UNLIMITED`: to the end), with
        forward pruning if `prune`, scored for the player to move there; `Stopped` when the
        budget ends it before one root move was searched to the end."""
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
        except Stopped:
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
        singular: int | None = None  # the stored score a singular extension would test
        if table is not None:
            key = self._key(state)
            path = None if self._path_key is None else self._path_key(state)
            entry = table.probe(key)
            if entry is not None:
                _, stored_depth, score, bound, move, _, stored_path = entry
                if first is None and self.settings.hash_move:
                    first = move
                if (
                    self.settings.singular_extensions
                    and ply
                    and depth >= SINGULAR_DEPTH
                    and ply < self.extension_limit
                    and stored_depth >= depth - SINGULAR_SHORTFALL
                    and bound != UPPER
                    and -PROVEN < score < PROVEN
                    and self.reuse_scores
                    and stored_path == path
                ):
                    singular = score
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
            moves = self.move_order.order(state, moves, first, ply, player)
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

        # Step 6. A singular extension: the stored move, searched first, a ply deeper when every
        # other move, searched to half the depth, stays below its stored score less a margin.
        extended = (
            singular is not None
            and moves[0] == first
            and self._singular(state, moves, singular - SINGULAR_MARGIN * depth, depth, ply)
        )

        # Step 7. The moves, the first with the whole window, the others with a null window
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
            next_depth = depth if check and extending or extended and not index else depth - 1
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
                        self.move_order.reward(state, move, depth, ply, player)
                        if trace is not None:
                            trace.record(CUTOFF, state, ply, score, alpha, beta)
                        break
            null_window = principal_variation_search

        # Step 8. Store: final (valid at any depth) when the subtree met no estimate.
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

    def _singular(self, state: Any, moves: Sequence[Any], beta: int, depth: int, ply: int) -> bool:
        """Whether every move of `state` after the first (`moves`, in order) stays below `beta`,
        each searched `depth // 2 - 1` plies with a null window (Step 6 of `_node`)."""
        game = self.game
        player = game.to_move(state)
        for move in moves[1:]:
            child = game.result(state, move)
            turn = game.to_move(child) != player
            if self._child(child, turn, depth // 2 - 1, ply, beta - 1, beta) >= beta:
                return False
        return True

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
        moves = list(self.move_order.killer_moves.get(ply, ()))
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
            moves = sorted(moves, key=lambda move: mvv_lva(capture(state, move)), reverse=True)
        exchange = self._exchange
        if exchange is not None and self._checked is not None and self._checked(state):
            exchange = None  # in check every evasion is played out
        for move in moves:
            if exchange is not None and exchange(state, move) < 0:
                continue  # a losing exchange: standing pat is better
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


def _lacking(capability: type) -> Callable[..., NoReturn]:
    """A stand-in for the method of a `capability` the game lacks, for the engine to bind where
    its settings never call it."""

    def lacking(*arguments: Any) -> NoReturn:
        raise ValueError(f"the game does not provide {capability.__name__}")

    return lacking
