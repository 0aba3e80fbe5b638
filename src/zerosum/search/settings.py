"""The engine's switches: `Settings`, one for each enhancement of its search, so that the effect
of each can be measured (`Engine(game, hash_move=False)`, or `Engine(game, settings)`).

A switch the game cannot serve is off in the engine's effective `settings`
(`Settings.effective`: captures for a game that is not `Capturing`...). What each does in the
engine (`zerosum.search.engine`):

- `iterative`: iterative deepening, depth 1, 2, ... up to the depth asked for, until the value
  is exact (no line ended on an estimate), or until the node or time budget runs out
  (`zerosum.search.deepening` says what an iteration the budget cuts short answers); each
  iteration searches the previous one's best root move first, with or without a table and
  whatever `hash_move` says.
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
- move ordering (`zerosum.search.ordering.MoveOrder`): the `hash_move` (the move the table
  stored for the position, played only if it is legal, on any path) first, then captures by
  MVV-LVA (`captures`, for games that offer `zerosum.game.Capturing`), then the two `killers`
  of the ply, then the rest by the `history` heuristic, ties kept in the game's own order of
  `legal_moves`;
- `null_window`: principal variation search, every move after the first tried with a null
  window and searched again only when it might be better;
- `quiescence`: at the depth limit, the game's `noisy_moves` (`zerosum.game.Noisy`) are played
  out (at most `quiescence_depth` plies) before evaluating, so that the horizon does not fall
  in the middle of an exchange; with `static_exchange` (`zerosum.game.Exchanging`), out of
  check, a noisy move whose static exchange on its square loses material is left out (the
  side to move keeps its evaluation rather than start a losing exchange).
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
- `singular_extensions` (off by default; needs the `hash_move` and `Evaluating`): at a node
  at least 6 plies from the horizon, within the iteration's depth, whose table entry holds a
  move with a lower bound or exact score found at most 3 plies shallower, every other move is
  searched to half the depth with a null window just below that score (less 0.02 utility units
  a ply); when none reaches it, the stored move is singular, the one move that holds the
  position, and is searched a ply deeper.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from zerosum.game import Capturing, Checking, Evaluating, Exchanging, Keyed, Noisy, Passing
from zerosum.search.table import DEFAULT_MEGABYTES

__all__ = ["Settings"]


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
    static_exchange: bool = True
    null_move: bool = True
    late_move_reductions: bool = True
    futility: bool = True
    futility_margin: float = 1.5
    check_extensions: bool = True
    singular_extensions: bool = False

    def __post_init__(self) -> None:
        if self.quiescence_depth < 0:
            raise ValueError(f"quiescence depth must be at least 0, got {self.quiescence_depth}")
        if not self.futility_margin >= 0:
            raise ValueError(f"futility margin must be at least 0, got {self.futility_margin}")

    def effective(self, game: object) -> Settings:
        """These settings with every switch off that `game` cannot serve: the table and its move
        need `Keyed`, iterative deepening `Evaluating`, MVV-LVA `Capturing`, quiescence `Noisy`
        (and its static exchange `Exchanging`),
        the null move `Passing` and `Evaluating`, reductions and check extensions `Checking`,
        futility `Checking` and `Evaluating`, singular extensions the hash move and
        `Evaluating`."""
        table = self.table and isinstance(game, Keyed)
        evaluating = isinstance(game, Evaluating)
        checking = isinstance(game, Checking)
        singular = self.singular_extensions and self.hash_move and table and evaluating
        return replace(
            self,
            table=table,
            iterative=self.iterative and evaluating,
            hash_move=self.hash_move and table,
            captures=self.captures and isinstance(game, Capturing),
            quiescence=self.quiescence and isinstance(game, Noisy),
            static_exchange=(
                self.static_exchange
                and self.quiescence
                and isinstance(game, Noisy)
                and isinstance(game, Exchanging)
            ),
            null_move=self.null_move and isinstance(game, Passing) and evaluating,
            late_move_reductions=self.late_move_reductions and checking,
            futility=self.futility and checking and evaluating,
            check_extensions=self.check_extensions and checking,
            singular_extensions=singular,
        )

    @property
    def forward_pruning(self) -> bool:
        """True when any forward pruning is on: the null move, reductions or futility."""
        return self.null_move or self.late_move_reductions or self.futility
