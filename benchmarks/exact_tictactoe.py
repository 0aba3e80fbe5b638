"""Exact search on tic-tac-toe, zerosum against easyAI, in one run.

The task is the same for both: the value and a best move of the empty board, searched to the
end of the game. easyAI's `Negamax` is alpha-beta in negamax form over its own `TicTacToe`
(with unmake_move, its fastest path); zerosum's `alphabeta` scans squares in index order, as
the textbook does. Times are the best of `--repeat` runs; the ratio is easyAI's time over ours.
Needs the `bench-easyai` extra (`pip install -e '.[bench-easyai]'`).

    python benchmarks/exact_tictactoe.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import time

from zerosum.games.tictactoe import TicTacToe
from zerosum.search import alphabeta, minimax


def best_time(task, repeat):
    best, answer = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        answer = task()
        best = min(best, time.perf_counter() - start)
    return best, answer


def easyai_solve():
    from easyAI import AI_Player, Negamax
    from easyAI.games import TicTacToe as EasyTicTacToe

    ai = Negamax(9)
    game = EasyTicTacToe([AI_Player(ai), AI_Player(ai)])
    move = ai(game)
    return ai.alpha, move


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    game = TicTacToe()
    empty = game.initial_state()
    rows = []
    ours_ab, result = best_time(lambda: alphabeta(game, empty), args.repeat)
    rows.append(("zerosum alphabeta", ours_ab, result.value, result.stats.terminals))
    ours_mm, result = best_time(lambda: minimax(game, empty), max(1, args.repeat // 2))
    rows.append(("zerosum minimax", ours_mm, result.value, result.stats.terminals))
    try:
        theirs, (value, _) = best_time(easyai_solve, args.repeat)
        rows.append(("easyAI Negamax(9)", theirs, value, None))
    except ImportError:
        theirs = None
    print(f"{'search':<22}{'seconds':>10}{'value':>8}{'finished games':>16}")
    for name, seconds, value, games in rows:
        print(f"{name:<22}{seconds:>10.4f}{value:>8}{games if games else '-':>16}")
    if theirs is not None:
        print(f"easyAI / zerosum alphabeta: {theirs / ours_ab:.1f}x")


if __name__ == "__main__":
    main()
