"""Chance and sampling against OpenSpiel's and aima's Python algorithms, side by side in one run.

    python benchmarks/chance_and_sampling.py [--quick]

1. MCTS speed: simulations per second from the start of tic-tac-toe and Connect Four,
   zerosum's `MCTS` (UCT + solver, random playouts) against OpenSpiel's `mcts.MCTSBot`
   (UCT + solver, `RandomRolloutEvaluator` with one playout), same number of simulations.
   aima (the `aima3` package, aima-python's code on PyPI) ships `games.MCTSPlayer`, which is
   not UCT: it is the AlphaZero rule (PUCT, `c_puct=5`) with uniform priors and, at a leaf
   that is not a finished game, the game's `utility`, which aima's games keep at 0 until
   someone wins; no playout. Its speed is set against zerosum's `MCTS` running that same rule
   (an evaluator giving uniform priors and 0, `c=5`, no solver), on zerosum's rules through an
   adapter (`AimaView`: aima's `Game` interface over a zerosum game) and on aima's own
   `TicTacToe` and `ConnectFour` as shipped.
2. MCTS strength at equal time: Connect Four games, each side `T` seconds a move, alternating
   who starts, zerosum's `MCTS` as it plays by default (UCT + solver, random playouts) against
   OpenSpiel's bot and against aima's `MCTSPlayer`. Neither peer has a clock: each starts with
   the simulations it managed in `T` from the start position, and each of its moves gets the
   last one's scaled by how far that move's time missed `T` (`Clocked`). The mean seconds a
   move each side took are printed beside the result.
3. Expectiminimax, the same tree for both: OpenSpiel's `minimax.expectiminimax` against
   zerosum's `expectiminimax` without pruning and with Star1 and Star2, nodes and time at equal
   depth (chance levels not counted by either): on OpenSpiel's own Pig with the same
   evaluation, and on random MAX/chance/MIN/chance trees (payoffs uniform in [-1, 1], the
   bounds declared), where Ballard's pruning has room to work. The transposition table is off
   so that both count the same tree.

Needs the `bench-search` extra (`pip install -e '.[bench-search]'`: of its peers, OpenSpiel and
aima3 are used here; aima3's games module itself needs only numpy and tqdm of what it declares).
"""

from __future__ import annotations

import argparse
import random
import re
import time

import numpy as np
import pyspiel
from aima3 import games as aima_games
from open_spiel.python.algorithms import mcts as spiel_mcts
from open_spiel.python.algorithms import minimax as spiel_minimax

from zerosum.games.connect4 import ConnectFour
from zerosum.games.tictactoe import TicTacToe
from zerosum.games.tree import Tree
from zerosum.match import MatchResult
from zerosum.search.expectiminimax import expectiminimax
from zerosum.search.mcts import MCTS

REPEATS = 3  # timings are the best of this many runs: the machine is shared and noisy


def best_of(run) -> tuple:
    """`run()`'s result and its shortest time over REPEATS runs."""
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return result, min(times)


def spiel_bot(game, simulations: int, seed: int) -> spiel_mcts.MCTSBot:
    rng = np.random.RandomState(seed)
    evaluator = spiel_mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    return spiel_mcts.MCTSBot(
        game,
        uct_c=2**0.5,
        max_simulations=simulations,
        evaluator=evaluator,
        solve=True,
        random_state=rng,
    )


class AimaView(aima_games.Game):
    """aima's `Game` interface (`initial`, `actions`, `result`, `terminal_test`, `to_move`,
    `utility`) over a zerosum game, for aima's `MCTSPlayer`."""

    def __init__(self, game) -> None:
        super().__init__()
        self.game = game
        self.initial = game.initial_state()

    def actions(self, state):
        return [] if self.game.is_terminal(state) else list(self.game.legal_moves(state))

    def result(self, state, move):
        return self.game.result(state, move)

    def terminal_test(self, state):
        return self.game.is_terminal(state)

    def to_move(self, state):
        return self.game.to_move(state)

    def utility(self, state, player):
        # aima's own games cache a utility that stays 0 until the game is won, and its MCTS
        # reads it at every leaf: the view answers the same.
        return self.game.utility(state, player) if self.game.is_terminal(state) else 0


def aima_player(game, simulations: int) -> aima_games.MCTSPlayer:
    """aima's MCTS player with its defaults (c_puct 5), `simulations` playouts a move."""
    player = aima_games.MCTSPlayer(n_playout=simulations)
    player.set_game(game)
    return player


def uniform_prior_zero_value(game):
    """aima's leaf rule as a zerosum evaluator: uniform priors, 0 for an unfinished game."""

    def evaluate(state):
        moves = game.legal_moves(state)
        return dict.fromkeys(moves, 1 / len(moves)), 0.0

    return evaluate


def fastest(simulations: int, runs: int, search) -> float:
    """Simulations per second of `search(run)` (one move's search), the best of `runs`."""
    times = []
    for run in range(runs):
        start = time.perf_counter()
        search(run)
        times.append(time.perf_counter() - start)
    return simulations / min(times)


def simulations_per_second(
    ours_game, spiel_name: str, aima_game, simulations: int, runs: int
) -> dict[str, float]:
    """Simulations per second of each MCTS from the start of the game, by name."""
    spiel_game = pyspiel.load_game(spiel_name)
    view = AimaView(ours_game)
    start = ours_game.initial_state()
    return {
        "zerosum": fastest(
            simulations,
            runs,
            lambda run: MCTS(ours_game, iterations=simulations, seed=run, reuse=False).search(
                start
            ),
        ),
        "openspiel": fastest(
            simulations,
            runs,
            lambda run: spiel_bot(spiel_game, simulations, run).step(
                spiel_game.new_initial_state()
            ),
        ),
        "zerosum puct": fastest(
            simulations,
            runs,
            lambda run: MCTS(
                ours_game,
                iterations=simulations,
                c=5,
                evaluator=uniform_prior_zero_value(ours_game),
                solver=False,
                reuse=False,
                seed=run,
            ).search(start),
        ),
        "aima": fastest(
            simulations, runs, lambda run: aima_player(view, simulations).get_action(start)
        ),
        "aima own": fastest(
            simulations,
            runs,
            lambda run: aima_player(aima_game, simulations).get_action(aima_game.initial),
        ),
    }


def spiel_move(simulations: int, state, moves: list) -> int:
    """OpenSpiel's bot's move at `simulations`, on its own game replaying the moves so far."""
    spiel_game = pyspiel.load_game("connect_four")
    spiel_state = spiel_game.new_initial_state()
    for move in moves:  # both number columns 0-6 from the left
        spiel_state.apply_action(move)
    return spiel_bot(spiel_game, simulations, len(moves)).step(spiel_state)


AIMA_CONNECT_FOUR = AimaView(ConnectFour())


def aima_move(simulations: int, state, moves: list):
    """aima's MCTS player's move at `simulations` playouts, on zerosum's rules."""
    return aima_player(AIMA_CONNECT_FOUR, simulations).get_action(state)


class Clocked:
    """A peer without a clock held to about `seconds` a move: each move's simulations are the
    last move's, scaled by how far its time missed `seconds` (at most halved or doubled), so
    that the load of the shared machine during the calibration does not decide its budget. A
    new game starts again from the calibrated `simulations`."""

    def __init__(self, move_with, seconds: float, simulations: int) -> None:
        self.move_with, self.seconds, self.start = move_with, seconds, simulations
        self.simulations = simulations
        self.used: list[int] = []

    def __call__(self, state, moves: list):
        if len(moves) < 2:  # its first move of a game
            self.simulations = self.start
        start = time.perf_counter()
        move = self.move_with(self.simulations, state, moves)
        spent = time.perf_counter() - start
        self.used.append(self.simulations)
        scale = min(2.0, max(0.5, self.seconds / max(spent, 1e-6)))
        self.simulations = max(1, round(self.simulations * scale))
        return move


def strength(seconds: float, games: int, opponent) -> tuple[MatchResult, float, float]:
    """Connect Four games, zerosum's MCTS at `seconds` a move against `opponent` (choosing from
    the position and the moves so far): the result from zerosum's side, and the mean seconds a
    move each side actually took (zerosum, opponent)."""
    ours_game = ConnectFour()
    wins = draws = losses = 0
    spent = [[0.0, 0], [0.0, 0]]  # [seconds, moves] for zerosum, then the opponent
    for index in range(games):
        ours_side = index % 2
        player = MCTS(ours_game, time=seconds, seed=index)
        state, moves = ours_game.initial_state(), []
        while not ours_game.is_terminal(state):
            mover = 0 if ours_game.to_move(state) == ours_side else 1
            start = time.perf_counter()
            move = player.choose(state) if mover == 0 else opponent(state, moves)
            spent[mover][0] += time.perf_counter() - start
            spent[mover][1] += 1
            state = ours_game.result(state, move)
            moves.append(move)
        outcome = ours_game.utility(state, ours_side)
        wins += outcome > 0
        draws += outcome == 0
        losses += outcome < 0
    return MatchResult(wins, draws, losses), *(total / count for total, count in spent)


class SpielPig:
    """OpenSpiel's Pig seen through zerosum's Game protocol (the very same tree)."""

    SCORES = re.compile(r"Scores: (\d+) (\d+), Turn total: (\d+)")

    def __init__(self, target: int) -> None:
        self.game = pyspiel.load_game("pig", {"winscore": target})
        self.target = target

    def initial_state(self):
        return self.game.new_initial_state()

    def to_move(self, state):
        return state.current_player()

    def legal_moves(self, state):
        return state.legal_actions()

    def result(self, state, move):
        return state.child(move)

    def is_terminal(self, state):
        return state.is_terminal()

    def utility(self, state, player):
        return state.player_return(player)

    def is_chance(self, state):
        return state.is_chance_node()

    def chance_outcomes(self, state):
        return state.chance_outcomes()

    def value_bounds(self):
        return (-1, 1)

    def evaluate(self, state, player):
        return lead(self, state, player)


def lead(pig: SpielPig, state, player: int) -> float:
    """The lead in points over the target, the turn total counted for the player on turn."""
    mine, theirs, turn = map(int, SpielPig.SCORES.search(str(state)).groups())
    scores = [mine, theirs]
    mover = state.current_player()
    if mover in (0, 1):
        scores[mover] += turn
    value = (scores[0] - scores[1]) / pig.target
    return value if player == 0 else -value


def expectiminimax_rows(depths, target: int) -> list[tuple]:
    pig = SpielPig(target)
    state = pig.initial_state()
    for action in (0, 3, 0, 5, 1, 0, 4, 0, 2):  # a few rolls and a hold: a position mid-turn
        state = state.child(action)
    player = state.current_player()
    rows = []
    for depth in depths:
        spiel_value, spiel_nodes, spiel_seconds = counted_spiel_expectiminimax(
            state, depth, lambda s: lead(pig, s, player), player
        )
        ours = {}
        for pruning in ("none", "star1", "star2"):
            ours[pruning] = best_of(
                lambda pruning=pruning, depth=depth: expectiminimax(
                    pig, state, depth=depth, pruning=pruning, transposition=False
                )
            )
            value = ours[pruning][0].value
            assert abs(value - spiel_value) < 1e-9, (pruning, value, spiel_value)
        rows.append((depth, spiel_nodes, spiel_seconds, ours))
    return rows


class TreeState:
    """A node of a zerosum `Tree` with the few pyspiel.State methods OpenSpiel's Python
    expectiminimax calls, so that both searches walk the very same random tree."""

    def __init__(self, tree: Tree, path: tuple = ()) -> None:
        self.tree, self.path = tree, path

    def is_terminal(self):
        return self.tree.is_terminal(self.path)

    def player_return(self, player):
        return self.tree.utility(self.path, player)

    def is_chance_node(self):
        return self.tree.is_chance(self.path)

    def chance_outcomes(self):
        return self.tree.chance_outcomes(self.path)

    def current_player(self):
        return self.tree.to_move(self.path)

    def legal_actions(self):
        return list(self.tree.legal_moves(self.path))

    def clone(self):
        return TreeState(self.tree, self.path)

    def apply_action(self, action):
        self.path = (*self.path, action)


def random_chance_tree(plies: int, moves: int, outcomes: int, rng: random.Random):
    if plies == 0:
        return rng.uniform(-1, 1)
    return [
        {
            "chance": [
                [1 / outcomes, random_chance_tree(plies - 1, moves, outcomes, rng)]
                for _ in range(outcomes)
            ]
        }
        for _ in range(moves)
    ]


def counted_spiel_expectiminimax(state, depth, value_function, player) -> tuple:
    """OpenSpiel's expectiminimax: its value, the nodes it enters (counted in one run with its
    recursion patched) and its best time unpatched."""
    counted = {"nodes": 0}
    original = spiel_minimax.expectiminimax

    def counting(*args):
        counted["nodes"] += 1
        return original(*args)

    spiel_minimax.expectiminimax = counting
    try:
        value, _ = counting(state, depth, value_function, player)
    finally:
        spiel_minimax.expectiminimax = original
    _, seconds = best_of(lambda: original(state, depth, value_function, player))
    return value, counted["nodes"], seconds


def tree_rows(plies_list, moves: int, outcomes: int) -> list[tuple]:
    rows = []
    for plies in plies_list:
        tree = Tree(random_chance_tree(plies, moves, outcomes, random.Random(plies)))
        spiel_value, spiel_nodes, spiel_seconds = counted_spiel_expectiminimax(
            TreeState(tree),
            plies + 1,
            None,
            0,  # + 1: its last chance level sits at depth 0
        )
        ours = {}
        for pruning in ("none", "star1", "star2"):
            ours[pruning] = best_of(
                lambda pruning=pruning, tree=tree: expectiminimax(
                    tree, (), pruning=pruning, transposition=False
                )
            )
            value = ours[pruning][0].value
            assert abs(value - spiel_value) < 1e-9, (pruning, value, spiel_value)
        rows.append((plies, spiel_nodes, spiel_seconds, ours))
    return rows


def print_expectiminimax(title: str, label: str, rows: list[tuple]) -> None:
    print(f"\n## {title}")
    print(
        f"| {label} | OpenSpiel nodes | s | zerosum none nodes | s | Star1 nodes"
        " | Star2 nodes | s |"
        " node saving (OpenSpiel / Star2) | time ratio |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for depth, spiel_nodes, spiel_seconds, ours in rows:
        (plain, plain_s), (star1, _), (star, star_s) = ours["none"], ours["star1"], ours["star2"]
        print(
            f"| {depth} | {spiel_nodes:,} | {spiel_seconds:.3f} | {plain.stats.nodes:,} |"
            f" {plain_s:.3f} | {star1.stats.nodes:,} | {star.stats.nodes:,} | {star_s:.3f} |"
            f" {spiel_nodes / star.stats.nodes:.1f}x | {spiel_seconds / star_s:.1f}x |"
        )


def print_match(seconds: float, games: int, peer: str, clocked: Clocked, match: tuple) -> None:
    result, ours, theirs = match
    low, high = result.score_interval
    used = sorted(clocked.used)
    print(
        f"\n## Connect Four at {seconds} s a move, {games} games, zerosum's MCTS against {peer}"
        f" (simulations a move: median {used[len(used) // 2]}, from {used[0]} to {used[-1]})"
    )
    print("| wins | draws | losses | score (95% interval) | Elo | s/move zerosum | s/move peer |")
    print("|---:|---:|---:|---|---|---:|---:|")
    elo = "unbounded" if result.elo is None else f"{result.elo:+.0f} ± {result.elo_error:.0f}"
    print(
        f"| {result.wins} | {result.draws} | {result.losses} |"
        f" {result.score:.3f} ({low:.3f}-{high:.3f}) | {elo} | {ours:.3f} | {theirs:.3f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller budgets, for a smoke run")
    parser.add_argument("--games", type=int, default=20, help="games of each strength match")
    args = parser.parse_args()
    random.seed(0)
    runs = 1 if args.quick else 3
    print("## MCTS simulations per second from the start (best of", runs, "runs)")
    print(
        "| game | simulations | zerosum UCT | OpenSpiel UCT | ratio | zerosum PUCT (aima's rule)"
        " | aima3 (zerosum's rules) | ratio | aima3 (its own game) | ratio |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    rates = {}
    for game, name, aima_game, sims in (
        (TicTacToe(), "tic_tac_toe", aima_games.TicTacToe(), 2000),
        (ConnectFour(), "connect_four", aima_games.ConnectFour(), 1000),
    ):
        sims = sims // 4 if args.quick else sims
        rate = simulations_per_second(game, name, aima_game, sims, runs)
        rates[name] = rate
        puct = rate["zerosum puct"]
        print(
            f"| {name} | {sims} | {rate['zerosum']:,.0f} | {rate['openspiel']:,.0f} |"
            f" {rate['zerosum'] / rate['openspiel']:.1f}x | {puct:,.0f} | {rate['aima']:,.0f} |"
            f" {puct / rate['aima']:.1f}x | {rate['aima own']:,.0f} |"
            f" {puct / rate['aima own']:.1f}x |"
        )
    seconds, games = (0.05, 4) if args.quick else (0.1, args.games)
    connect_four = rates["connect_four"]
    for peer, rate, move_with in (
        ("OpenSpiel's", connect_four["openspiel"], spiel_move),
        ("aima3's", connect_four["aima"], aima_move),
    ):
        opponent = Clocked(move_with, seconds, max(1, int(rate * seconds)))
        print_match(seconds, games, peer, opponent, strength(seconds, games, opponent))
    depths = (2, 3) if args.quick else (2, 3, 4, 5)
    print_expectiminimax(
        "Expectiminimax on OpenSpiel's Pig (target 100), same tree, same evaluation",
        "depth",
        expectiminimax_rows(depths, 100),
    )
    plies = (2, 3) if args.quick else (3, 4, 5)
    print_expectiminimax(
        "Expectiminimax on random trees, 3 moves x 3 equally likely outcomes a ply",
        "plies",
        tree_rows(plies, 3, 3),
    )


if __name__ == "__main__":
    main()
