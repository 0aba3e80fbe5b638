"""What the Play page is shown of the program's thinking: an engine iteration
(`iteration_message`), MCTS's root moves (`mcts_message`) and Connect Four's columns as the
solver proves them (`columns_message`), each with the evaluation bar for the first player
(`first_player_bar`) and its label (`first_player_words`); and a finished game's result in the
same words (`result_of`). The moves are in the game's notation, with their place on the page's
board (`zerosum.web.boards`).
"""

from __future__ import annotations

import math
from typing import Any

from zerosum import notation
from zerosum.game import Bounded, Game
from zerosum.search.deepening import Iteration
from zerosum.search.mcts import MCTSResult
from zerosum.search.scores import decode
from zerosum.show.words import describe_score
from zerosum.web.boards import KINDS, kind_of

ESTIMATE_SCALE = 3.0
"""The estimate of a game without bounds on its utilities that fills three quarters of the
evaluation bar (`tanh(1)`): three pawns up in chess, whose evaluation is in pawns."""


def first_player_bar(game: Game, state: Any, value: float, proven: bool = False) -> float:
    """`value`, for the player to move in `state` on the game's utility scale, as the
    evaluation bar shows it: for the first player (X, White), from -1 to 1. A `proven` result
    fills the bar to its winner's end (or leaves it even for a draw); an estimate is a share of
    the game's bounds (`value_bounds`), or for a game without bounds (chess, in pawns)
    `tanh(value / ESTIMATE_SCALE)`."""
    if proven:
        scaled = float((value > 0) - (value < 0))
    elif isinstance(game, Bounded) and math.isfinite(high := game.value_bounds()[1]) and high:
        scaled = value / high
    else:
        scaled = math.tanh(value / ESTIMATE_SCALE)
    if game.to_move(state) != 0:
        scaled = -scaled
    return max(-1.0, min(1.0, scaled)) + 0.0


def first_player_words(game: Game, state: Any, value: float, proven: bool = False) -> str:
    """What the evaluation bar's label says: `value` (for the player to move in `state`) for
    the first player, as a signed number on the game's own scale (pawns in chess), or who
    wins when it is `proven`."""
    first = value if game.to_move(state) == 0 else -value
    names = notation.player_names(game)
    if proven:
        return "a draw" if first == 0 else f"{names[0 if first > 0 else 1]} wins"
    return f"{first + 0.0:+.2f} for {names[0]}"


def result_of(game: Game, state: Any) -> dict[str, Any] | None:
    """The result of a finished game in words, and its winner (None for a draw); None while
    the game goes on."""
    if not game.is_terminal(state):
        return None
    names = notation.player_names(game)
    outcome = game.utility(state, 0)
    if outcome == 0:
        return {"text": "a draw", "winner": None}
    winner = 0 if outcome > 0 else 1
    return {"text": f"{names[winner]} wins", "winner": winner}


def iteration_message(game: Game, state: Any, iteration: Iteration) -> dict[str, Any]:
    """An engine iteration as the page shows it: its score in words (for the player to move,
    as `zerosum analyze` writes it), the bar for the first player, the line as move texts."""
    pv = notation.line_text(game, state, iteration.pv)
    best = iteration.best_move
    proven = decode(iteration.score, iteration.exact).proven
    return {
        "type": "iteration",
        "depth": iteration.depth,
        "value_text": describe_score(iteration),
        "bar": first_player_bar(game, state, iteration.value, proven),
        "bar_text": first_player_words(game, state, iteration.value, proven),
        "pv": pv,
        "best_move": pv[0] if pv else None,
        "place": None if best is None else _place(game, state, best),
        "nodes": iteration.nodes,
        "nps": iteration.nps,
        "seconds": round(iteration.seconds, 3),
        "exact": iteration.exact,
        "complete": iteration.complete,
    }


def mcts_message(game: Game, state: Any, report: MCTSResult) -> dict[str, Any]:
    """MCTS's root so far: each move's visits and mean value (for the player to move), most
    visited first; the bar for the first player."""
    moves = [
        {
            "move": notation.format_move(game, state, stats.move),
            "visits": stats.visits,
            "value": round(stats.value, 4),
            "proven": stats.proven,
            "place": _place(game, state, stats.move),
        }
        for stats in report.moves
    ]
    best = report.best_move
    return {
        "type": "mcts",
        "iterations": report.iterations,
        "nodes": report.nodes,
        "seconds": round(report.seconds, 3),
        "moves": moves,
        "best_move": notation.format_move(game, state, best),
        "place": _place(game, state, best),
        "bar": first_player_bar(game, state, report.value, report.proven),
        "bar_text": first_player_words(game, state, report.value, report.proven),
    }


def columns_message(game: Game, state: Any, scores: dict[int, int]) -> dict[str, Any]:
    """Connect Four's columns, each with its exact score for the player to move when the
    solver has proven it (in the test sets' convention: positive, the player to move wins,
    sooner the larger), else "not proven yet"; the bar for the first player once known."""
    from zerosum.solve.connect4 import describe_connect4

    moves = []
    for column in game.legal_moves(state):
        score = scores.get(column)
        moves.append(
            {
                "move": notation.format_move(game, state, column),
                "score": score,
                "note": "not proven yet"
                if score is None
                else describe_connect4(score, False, game.cells),  # type: ignore[attr-defined]
                "place": _place(game, state, column),
            }
        )
    known = len(scores) == len(moves) or any(score > 0 for score in scores.values())
    best = max(scores.values()) if scores else 0
    bar = first_player_bar(game, state, best, proven=True) if known else None
    words = first_player_words(game, state, best, proven=True) if known else None
    return {"type": "columns", "moves": moves, "bar": bar, "bar_text": words}


def _place(game: Game, state: Any, move: Any) -> dict[str, Any]:
    """Where `move` is on the page's board (`zerosum.web.boards`)."""
    return KINDS[kind_of(game)].target(game, state, move)
