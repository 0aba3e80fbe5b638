"""`zerosum play` for a game of imperfect information: hands against a strategy, the program's
cards hidden until the end.

The program plays a strategy by information set: one saved by `zerosum cfr --save` or `zerosum
solve --save` (`--strategy FILE`), else the average strategy of `DEFAULT_ITERATIONS` of CFR+
computed on the spot. Each hand is played by the project's game loop (`zerosum.match.
play_game`); before each of the human's moves the command shows what the human knows (their
information set: their cards and the moves so far), never a chance move nor the program's
cards, which the end of the hand reveals (the game's `render`). Hands follow one another, the
seats changing each time, until the human types q; the running total is shown after each.
"""

from __future__ import annotations

import argparse
import random
from typing import Any

from zerosum import notation, registry
from zerosum.cli.cfr import DEFAULT_ITERATIONS, refuse_tree_search, train, unrolled
from zerosum.game import Player
from zerosum.imperfect.cfr import Solver
from zerosum.imperfect.strategy import Strategy
from zerosum.imperfect.tree import GameTree
from zerosum.limits import counted
from zerosum.match import Chooser, Observer, play_game

QUIT_WORDS = {"q", "quit", "exit"}
TREE_SEARCH_OPTIONS = ("ai", "time", "depth", "perfect", "table", "syzygy", "engine", "table_mb")


def run_hidden(args: argparse.Namespace, setup: registry.Setup, human: Player) -> int:
    """Play hands of `setup`'s game against its strategy; the exit code (0)."""
    refuse_tree_search(
        args,
        TREE_SEARCH_OPTIONS,
        f"in {setup.entry.name} the program plays a strategy (--strategy FILE, or CFR+ computed"
        " now)",
    )
    game = setup.game
    tree = unrolled(game, setup.state, args.no_limit)
    strategy = program_strategy(args.strategy, tree, setup.name)
    rng = random.Random(args.seed)
    names = notation.player_names(game)
    total: float = 0
    hands = 0
    print("You play hands against the program, changing seats each hand. Type q to leave.")
    while True:
        print(f"\nHand {hands + 1}: you are the {names[human]}.")
        seats: list[Chooser] = [lambda state: None, lambda state: None]
        seats[human] = lambda state: ask_move(game, state)
        seats[1 - human] = strategy_player(game, strategy, rng)
        final = play_game(game, seats, setup.state, rng, _announcer(human))
        if final is None:
            print(f"\nYou leave after {counted(hands, 'hand')}, {_points(total)} in all.")
            return 0
        won = game.utility(final, human)
        total += won
        hands += 1
        print(notation.render(game, final))
        outcome = f"win {abs(won):g}" if won > 0 else f"lose {abs(won):g}" if won < 0 else "split"
        print(f"You {outcome}; after {counted(hands, 'hand')}: {_points(total)}.")
        human = 1 - human


def _announcer(human: Player) -> Observer:
    """An observer saying the program's moves, and nothing of chance's (the deal is hidden)."""

    def observe(state: Any, move: Any, player: Player | None, after: Any) -> None:
        if player is not None and player != human:
            print(f"The program plays {move}.")

    return observe


def program_strategy(path: str | None, tree: GameTree, game: str) -> Strategy:
    """The strategy in `path` (checked to be `game`'s, every set present), else CFR+'s."""
    if path is not None:
        strategy = Strategy.load(path, game)
        strategy.profile(tree)  # every set of the game, with its moves
        return strategy
    solver = Solver(tree, "cfr+")
    train(solver, DEFAULT_ITERATIONS, None)
    return Strategy.of(tree, solver.average(), game)


def strategy_player(game: Any, strategy: Strategy, rng: random.Random) -> Chooser:
    """A player drawing each move with the strategy's probabilities at its information set."""

    def choose(state: Any) -> Any:
        row = strategy.table[game.information_set(state)]
        moves = {str(move): move for move in game.legal_moves(state)}
        names = list(row)
        return moves[rng.choices(names, [float(row[name]) for name in names])[0]]

    return choose


def ask_move(game: Any, state: Any) -> Any | None:
    """The human's move, shown what they know and asked until legal; None on q or at the end
    of input."""
    legal = {str(move): move for move in game.legal_moves(state)}
    print(f"You know: {game.information_set(state)}")
    while True:
        try:
            text = input(f"Your move ({', '.join(legal)}): ").strip()
        except EOFError:
            return None
        if text.lower() in QUIT_WORDS:
            return None
        if text in legal:
            return legal[text]
        print(f"{text!r} is not a legal move: choose one of {', '.join(legal)}.")


def _points(amount: float) -> str:
    """`+3 points`, `-1 point`, `0 points`."""
    shown = f"{amount:+g}" if amount else "0"
    return f"{shown} point" if abs(amount) == 1 else f"{shown} points"
