"""`zerosum solve pig --target N`: Pig's optimal win probability, solved over every position."""

from __future__ import annotations

import argparse

from zerosum.cli.common import print_json
from zerosum.games.pig import Pig
from zerosum.solve.pig import solve_pig


def run(args: argparse.Namespace) -> int:
    target = 100 if args.target is None else args.target
    game = Pig(target)
    state = game.parse_state(args.position) if args.position else game.initial_state()
    player, score0, score1, turn, _ = state
    if game.is_terminal(state):
        raise ValueError(f"the game is over at {args.position!r}: nothing to solve")
    mine, theirs = (score0, score1) if player == 0 else (score1, score0)
    solution = solve_pig(target)
    roll = solution.should_roll(mine, theirs, turn)
    report = {
        "game": "pig",
        "target": target,
        "to_move": player,
        "scores": [score0, score1],
        "turn_total": turn,
        "win_probability": solution.win_probability(mine, theirs, turn),
        "best_move": "roll" if roll else "hold",
        "hold_at": _hold_threshold(solution, mine, theirs),
        "positions": sum(len(column) for column in solution.table.values()),
    }
    if args.json:
        print_json(report)
        return 0
    print(game.render(state))
    print(
        f"player {player} to move wins with probability {report['win_probability']:.12f}"
        f" under optimal play (target {target})"
    )
    print(f"best move: {report['best_move']}")
    print(f"with these banked scores, hold once the turn total reaches {report['hold_at']}")
    return 0


def _hold_threshold(solution, mine: int, theirs: int) -> int:
    """The smallest turn total at which holding is optimal with banked scores `(mine, theirs)`."""
    turn = 1
    while mine + turn < solution.target and solution.should_roll(mine, theirs, turn):
        turn += 1
    return turn
