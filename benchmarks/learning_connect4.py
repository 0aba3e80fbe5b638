"""What a self-play run learned on Connect Four, measured side by side in one run.

Given a run of `zerosum train connect4 --out DIR`:

1. **Elo against pure MCTS at equal simulations**: the network guiding PUCT (`az:DIR`) against
   UCT with random playouts (`mcts:iterations=N`), both searching N iterations a move, from
   random two-move openings played with both colours. The target: at least +200 Elo.
2. **Against the engine** at depths 2, 4 and 6 (Connect Four's own evaluation).
3. **Against the exact solver** on the published `Test_L2_R1` positions (shared/oracles): how
   often the move is perfect (the best score of `zerosum solve --all-moves`), by the
   network's policy alone and with the search.
4. **Self-play positions a second**, the network's questions batched across 64 games against
   one game at a time (the ratio is what batching buys).

    python benchmarks/learning_connect4.py DIR [--simulations 50] [--games 40] [--positions 100]

`--positions 0` and `--depths ""` leave out the solver's positions and the engine.
"""

from __future__ import annotations

import argparse
import random
import time

from oracles import oracle

from zerosum.learn import selfplay
from zerosum.learn.player import network_player
from zerosum.learn.training import load_best, random_openings
from zerosum.match import MatchResult, play_match
from zerosum.players import player_maker, trained
from zerosum.registry import setup


def shown(result: MatchResult) -> str:
    elo = "n/a" if result.elo is None else f"{result.elo:+.0f} ± {result.elo_error:.0f}"
    return f"{result.wins}-{result.draws}-{result.losses} | {result.score:.3f} | {elo}"


def perfect_moves(connect4, evaluation, player, positions: int, simulations: int) -> None:
    """How often the policy alone, and the search, play a perfect move on the first
    `positions` of Test_L2_R1, each move judged by the exact solver."""
    game = connect4.game
    solver = connect4.entry.own_solver(game)
    assert solver is not None
    lines = oracle("connect4", "Test_L2_R1").read_text().split("\n")
    sample = [line.split()[0] for line in lines if line.strip()][:positions]
    by_policy = by_search = 0
    for moves in sample:
        state = setup("connect4", moves).state
        values = solver.move_values(state).values
        best = max(values.values())
        priors, _ = evaluation(state)
        by_policy += values[max(priors, key=priors.get)] == best
        by_search += values[player(state)] == best
    print()
    print(f"Test_L2_R1, first {len(sample)} positions, perfect moves:")
    print(f"- the policy alone: {by_policy}/{len(sample)} ({by_policy / len(sample):.0%})")
    share = by_search / len(sample)
    print(f"- with {simulations} simulations: {by_search}/{len(sample)} ({share:.0%})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", help="the run's directory")
    parser.add_argument("--simulations", type=int, default=50)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--depths", default="2,4,6")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    spec, _, params = load_best(args.run)
    connect4 = setup(spec)
    game = connect4.game
    evaluation = trained(args.run, game)
    simulations = args.simulations
    openings = random_openings(game, random.Random(args.seed))

    def ours(seed: int):
        return network_player(game, evaluation, simulations, 1.5, seed)

    print(f"run {args.run} ({spec}), {simulations} simulations a move, {args.games} games each")
    print()
    print("| opponent | wins-draws-losses | score | Elo of the network (95%) |")
    print("|---|---|---:|---:|")
    opponents = [f"mcts:iterations={simulations}"]
    opponents += [f"engine:depth={d}" for d in args.depths.split(",") if d]
    for opponent in opponents:
        began = time.perf_counter()
        result = play_match(
            game, ours, player_maker(opponent, game), args.games, openings=openings, seed=args.seed
        )
        print(f"| {opponent} | {shown(result)} | ({time.perf_counter() - began:.0f} s)", flush=True)

    if args.positions > 0:
        perfect_moves(connect4, evaluation, ours(args.seed), args.positions, simulations)

    settings = selfplay.Settings(simulations=simulations)
    began = time.perf_counter()
    batched = len(selfplay.play(game, params, settings, 64, seed=args.seed))
    batched_rate = batched / (time.perf_counter() - began)
    began, alone = time.perf_counter(), 0
    for index in range(16):
        alone += len(selfplay.play(game, params, settings, 1, seed=args.seed + index))
    alone_rate = alone / (time.perf_counter() - began)
    print()
    print(f"self-play, {simulations} simulations a move, one process:")
    print(f"- 64 games batched: {batched_rate:,.0f} positions a second")
    print(f"- one game at a time: {alone_rate:,.0f} positions a second")
    print(f"- batched / one at a time: {batched_rate / alone_rate:.2f}x")


if __name__ == "__main__":
    main()
