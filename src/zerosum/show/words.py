"""Results in words, as the command prints them and the page shows them."""

from __future__ import annotations

from zerosum.limits import counted
from zerosum.search.deepening import EngineResult, Iteration
from zerosum.search.scores import decode


def describe_score(result: EngineResult | Iteration) -> str:
    """A score for the player to move as a person reads it: a proven win, loss or draw (in how
    many plies), a win or loss read from the endgame tables, or an estimate."""
    decoded = decode(result.score, result.exact)
    value = decoded.value
    if decoded.proven and value != 0 and decoded.plies is None:  # from an endgame table
        return f"{'win' if value > 0 else 'loss'} by the tables ({value:+g})"
    if decoded.plies is not None:
        outcome = "win" if value > 0 else "loss"
        bound = "" if result.exact or abs(value) == 1 else "at least "  # a larger win may hide
        return f"{outcome} in {counted(decoded.plies, 'ply', 'plies')} ({bound}{value:+g})"
    if result.exact:
        return "draw (0)" if value == 0 else f"{value:+g} (exact)"
    return f"{value:+.3f}"


def number(value: float) -> int | float:
    """A value as an int when it is whole (3, not 3.0), for printing and JSON."""
    return int(value) if float(value).is_integer() else value
