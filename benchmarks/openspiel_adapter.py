"""What the OpenSpiel adapter costs, and how zerosum's searches do on OpenSpiel's games.

    python benchmarks/openspiel_adapter.py [--positions 5] [--stones 26] [--repeat 3]
                                           [--games 20] [--simulations 200]

Three studies, each printed as one table:

1. **The adapter's cost.** zerosum's alpha-beta searches the same late Connect Four positions
   to the end on its own game and on OpenSpiel's `connect_four` through the adapter, both
   centre first: the node counts are equal (checked), so the ratio of the times is what a
   node costs through the adapter (a state copied by OpenSpiel's `child`, its legal actions
   and returns crossing the C++ boundary) against zerosum's bitboards.
2. **Against OpenSpiel's own Python search.** The same positions, and tic-tac-toe from the
   start, searched to the end by OpenSpiel's `alpha_beta_search` (Python over the same C++
   rules) and by zerosum's `alphabeta` through the adapter, both in OpenSpiel's move order:
   the values and the node counts agree (checked: OpenSpiel's nodes counted in a run of their
   own, not timed); the ratio is OpenSpiel's time over zerosum's, each the best of `--repeat`
   runs.
3. **MCTS on Breakthrough** (6x6): zerosum's MCTS through the adapter against OpenSpiel's
   `MCTSBot` with random rollouts, the same simulations a move, colours alternating: the score,
   its Wilson interval and the Elo difference.
4. **Against a random player** (`--against-random GAMES`): the engine with the shipped material
   evaluation on checkers and Breakthrough, MCTS on Hex 7x7 and Go 9x9, each against uniform
   random moves, colours alternating: how often each wins.

Needs OpenSpiel (`pip install -e '.[openspiel]'`); run from the repository with
`PYTHONPATH=src`. Times are the best of `--repeat` runs each: read the ratios.
"""

from __future__ import annotations

import argparse
import math
import random
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts as spiel_mcts
from open_spiel.python.algorithms import minimax as spiel_minimax

from zerosum import registry
from zerosum.adapters.openspiel import load
from zerosum.games.connect4 import ConnectFour
from zerosum.match import play_match
from zerosum.players import player_maker
from zerosum.search.exact import alphabeta
from zerosum.search.mcts import MCTS
from zerosum.search.ordering import by_priority

CENTRE_FIRST = by_priority([3, 2, 4, 1, 5, 0, 6])


def late_positions(count: int, stones: int, rng: random.Random) -> list[list[int]]:
    """`count` unfinished Connect Four positions after `stones` random moves, as actions."""
    spiel = pyspiel.load_game("connect_four")
    found: list[list[int]] = []
    while len(found) < count:
        state, actions = spiel.new_initial_state(), []
        while len(actions) < stones and not state.is_terminal():
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            actions.append(action)
        if not state.is_terminal():
            found.append(actions)
    return found


def timed(search, *args, repeat: int = 1, **kwargs):
    """The result of `search(*args, **kwargs)` and its best time in seconds over `repeat` runs."""
    best = math.inf
    for _ in range(repeat):
        start = time.perf_counter()
        result = search(*args, **kwargs)
        best = min(best, time.perf_counter() - start)
    return result, best


def spiel_nodes(spiel, state) -> int:
    """The nodes OpenSpiel's `alpha_beta_search` visits from `state` to the end (a run of its
    own: its recursive function counted by a wrapper, which slows it)."""
    count = 0
    plain = spiel_minimax._alpha_beta

    def counted(*args, **kwargs):
        nonlocal count
        count += 1
        return plain(*args, **kwargs)

    spiel_minimax._alpha_beta = counted  # the recursion calls the module's name
    try:
        spiel_minimax.alpha_beta_search(spiel, state.clone(), maximum_depth=64)
    finally:
        spiel_minimax._alpha_beta = plain
    return count


def adapter_cost(positions: list[list[int]], repeat: int) -> None:
    theirs, ours = load("connect_four"), ConnectFour()
    print("| position | nodes | zerosum's game s | through the adapter s | ratio |")
    print("|---|---:|---:|---:|---:|")
    own_total = adapted_total = 0.0
    for actions in positions:
        state = theirs.parse_state(" ".join(map(str, actions)))
        own_state = ours.parse_state("".join(str(a + 1) for a in actions))
        own, own_s = timed(alphabeta, ours, own_state, order=CENTRE_FIRST, repeat=repeat)
        adapted, adapted_s = timed(alphabeta, theirs, state, order=CENTRE_FIRST, repeat=repeat)
        assert own.stats == adapted.stats and own.value == adapted.value
        own_total += own_s
        adapted_total += adapted_s
        print(
            f"| {''.join(map(str, actions))} | {own.stats.nodes:,} | {own_s:.3f} |"
            f" {adapted_s:.3f} | {adapted_s / own_s:.1f}x |"
        )
    print(
        f"| all | | {own_total:.3f} | {adapted_total:.3f} | **{adapted_total / own_total:.1f}x** |"
    )


def against_openspiel_search(positions: list[list[int]], repeat: int) -> None:
    connect_four, tic_tac_toe = load("connect_four"), load("tic_tac_toe")
    searched = [
        (f"Connect Four {''.join(map(str, actions))}", connect_four, " ".join(map(str, actions)))
        for actions in positions
    ]
    searched.append(("tic-tac-toe, the start", tic_tac_toe, ""))
    print(
        "| position | nodes | OpenSpiel alpha_beta_search s | zerosum alphabeta (adapter) s"
        " | ratio |"
    )
    print("|---|---:|---:|---:|---:|")
    spiel_total = ours_total = 0.0
    for label, game, moves in searched:
        state = game.parse_state(moves)
        (value, _), spiel_s = timed(
            spiel_minimax.alpha_beta_search,
            game.spiel,
            state.clone(),
            maximum_depth=64,
            repeat=repeat,
        )
        ours, ours_s = timed(alphabeta, game, state, repeat=repeat)
        player = state.current_player()
        assert (value if player == 0 else -value) == ours.value, (label, value, ours.value)
        assert spiel_nodes(game.spiel, state) == ours.stats.nodes, label
        spiel_total += spiel_s
        ours_total += ours_s
        print(
            f"| {label} | {ours.stats.nodes:,} | {spiel_s:.3f} | {ours_s:.3f} |"
            f" {spiel_s / ours_s:.2f}x |"
        )
    print(f"| all | | {spiel_total:.3f} | {ours_total:.3f} | **{spiel_total / ours_total:.2f}x** |")


def mcts_match(games: int, simulations: int, rng: random.Random) -> None:
    game = load("breakthrough", {"rows": 6, "columns": 6})
    spiel = game.spiel
    score = 0.0
    for number in range(games):
        ours_first = number % 2 == 0
        generator = np.random.RandomState(rng.randrange(2**31))
        evaluator = spiel_mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=generator)
        bot = spiel_mcts.MCTSBot(
            spiel, math.sqrt(2), simulations, evaluator, solve=True, random_state=generator
        )
        ours_search = MCTS(  # no tree kept between moves: OpenSpiel's bot keeps none
            game, iterations=simulations, reuse=False, seed=rng.randrange(2**31)
        )
        state = game.initial_state()
        while not game.is_terminal(state):
            player = game.to_move(state)
            if (player == 0) == ours_first:
                move = ours_search.search(state).best_move
            else:
                move = bot.step(state)
            state = game.result(state, move)
        ours = 0 if ours_first else 1
        score += (game.utility(state, ours) + 1) / 2
    mean = score / games
    low, high = wilson(mean, games)
    elo = (
        400 * math.log10(mean / (1 - mean)) if 0 < mean < 1 else math.copysign(math.inf, mean - 0.5)
    )
    print("| zerosum MCTS against OpenSpiel's | games | simulations a move | score | 95% | Elo |")
    print("|---|---:|---:|---:|---|---:|")
    print(
        f"| Breakthrough 6x6 | {games} | {simulations} | {mean:.3f} |"
        f" {low:.3f} to {high:.3f} | {elo:+.0f} |"
    )


AGAINST_RANDOM = [
    ("openspiel:checkers", "engine:depth=4"),
    ("openspiel:breakthrough", "engine:depth=3"),
    ("openspiel:hex(board_size=7)", "mcts:iterations=400"),
    ("openspiel:go(board_size=9)", "mcts:iterations=200"),
]


def against_random(games: int) -> None:
    print("| game | player | games | wins | draws | losses | score |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for name, spec in AGAINST_RANDOM:
        game = registry.setup(name).game
        result = play_match(game, player_maker(spec, game), player_maker("random", game), games)
        print(
            f"| {name} | {spec} | {result.games} | {result.wins} | {result.draws} |"
            f" {result.losses} | {result.score:.3f} |"
        )


def wilson(mean: float, n: int, z: float = 1.96) -> tuple[float, float]:
    centre = (mean + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(mean * (1 - mean) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=5)
    parser.add_argument("--stones", type=int, default=26, help="stones on the late positions")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each timed search")
    parser.add_argument("--games", type=int, default=20, help="MCTS games on Breakthrough")
    parser.add_argument("--simulations", type=int, default=200, help="MCTS simulations a move")
    parser.add_argument("--against-random", type=int, default=0, metavar="GAMES")
    args = parser.parse_args()
    rng = random.Random(21)
    positions = late_positions(args.positions, args.stones, rng)
    adapter_cost(positions, args.repeat)
    print()
    against_openspiel_search(positions, args.repeat)
    print()
    if args.games:
        mcts_match(args.games, args.simulations, rng)
    if args.against_random:
        print()
        against_random(args.against_random)


if __name__ == "__main__":
    main()
