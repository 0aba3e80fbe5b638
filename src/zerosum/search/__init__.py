"""Search algorithms over the Game protocol."""

from zerosum.search.deepening import EngineResult, Iteration
from zerosum.search.engine import Engine
from zerosum.search.exact import alphabeta, minimax, negamax
from zerosum.search.expectiminimax import MoveValue, expectiminimax, rank_moves
from zerosum.search.mcts import MCTS, MCTSResult, MoveStats, mcts
from zerosum.search.ordering import Order, by_priority
from zerosum.search.result import SearchResult, SearchStats
from zerosum.search.settings import Settings
from zerosum.search.trace import Event, Trace

__all__ = [
    "Engine",
    "EngineResult",
    "Iteration",
    "MCTS",
    "MCTSResult",
    "MoveStats",
    "MoveValue",
    "Event",
    "Order",
    "SearchResult",
    "SearchStats",
    "Settings",
    "Trace",
    "alphabeta",
    "by_priority",
    "expectiminimax",
    "mcts",
    "minimax",
    "negamax",
    "rank_moves",
]
