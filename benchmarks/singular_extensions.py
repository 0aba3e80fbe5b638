"""Singular extensions in chess: do they pay? Two measures, the compiled engine with the switch
off and on, everything else as `zerosum uci` plays:

- **tactics**: each Win At Chess position (read at run time from the shared test data) searched
  by iterative deepening up to `--nodes` nodes; it is solved at the first iteration from which
  the best move stays one of the position's best moves (`bm`) and none to avoid (`am`). The
  table gives the positions solved and the nodes to solve them (nodes, not seconds: the same
  on a busy machine).
- **self-play** (`--games N`): the two engines play N games from book openings, each opening
  twice with the colours swapped, `--time` seconds a move; the score and Elo of the engine with
  singular extensions, with the 95% interval.

    python benchmarks/singular_extensions.py [--nodes 200000] [--limit 300]
        [--games 200 --time 0.05 --seed 1] [--part K/N]

`--part K/N` plays the K-th of N slices of the games (the same openings and colours), for N
processes on N cores; the results add up.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import chess
from chess_match import openings
from oracles import find_oracle

from zerosum.compiled.engine import Engine
from zerosum.games.chess import Chess
from zerosum.match import MatchResult

MOST_PLIES = 300
"""A self-play game still running after this many plies is a draw (as chess_match.py's)."""


def solved(move: chess.Move, operations: dict) -> bool:
    """Whether `move` is one of the best moves and none of the moves to avoid."""
    best = operations.get("bm") or []
    return (not best or move in best) and move not in (operations.get("am") or [])


def nodes_to_solve(engine: Engine, game: Chess, board: chess.Board, operations: dict,
                   nodes: int) -> int | None:  # fmt: skip
    """The nodes searched up to the end of the iteration from which the best move stays right,
    or None when the last iteration within `nodes` is wrong."""
    engine.clear()
    result = engine.search(game.parse_state(board.fen()), nodes=nodes)
    spent = 0
    since = None
    for iteration in result.iterations:
        spent += iteration.nodes
        right = solved(iteration.best_move, operations)
        since = (since or spent) if right else None
    return since


def tactics(game: Chess, epd: Path, limit: int | None, nodes: int) -> None:
    lines = [line for line in epd.read_text().splitlines() if line.strip()][:limit]
    print(f"Win At Chess, {len(lines)} positions, at most {nodes:,} nodes each")
    print("| singular extensions | solved | nodes to solve the positions both solve | seconds |")
    print("|---|---:|---:|---:|")
    found: dict[bool, list[int | None]] = {}
    seconds: dict[bool, float] = {}
    for singular in (False, True):
        engine = Engine(game, singular_extensions=singular)
        start = time.perf_counter()
        found[singular] = [
            nodes_to_solve(engine, game, *chess.Board.from_epd(line), nodes) for line in lines
        ]
        seconds[singular] = time.perf_counter() - start
    both = [i for i in range(len(lines)) if None not in (found[False][i], found[True][i])]
    for singular in (False, True):
        count = sum(n is not None for n in found[singular])
        spent = sum(found[singular][i] or 0 for i in both)
        words = "on" if singular else "off"
        print(f"| {words} | {count} | {spent:,} ({len(both)}) | {seconds[singular]:.0f} |")


OPENING = 10
"""The plies of book moves each self-play game starts after."""


def self_play(game: Chess, games: int, seconds: float, seed: int, part: tuple[int, int]) -> None:
    book = find_oracle("chess", "polyglot", "performance.bin")
    # Ten plies: the book's weights lead to only 80 different lines of eight (136 of ten).
    starts = [game.parse_state(fen) for fen in openings(book, (games + 1) // 2, OPENING, seed)]
    engines = {singular: Engine(game, singular_extensions=singular) for singular in (False, True)}
    wins = draws = losses = 0
    index, slices = part
    for number in range(index - 1, games, slices):
        singular_side = number % 2  # the engine with singular extensions is White in odd games
        seats = [engines[side == singular_side] for side in (0, 1)]
        for engine in seats:
            engine.clear()
        plies = 0
        state = starts[number // 2]
        while not game.is_terminal(state) and plies < MOST_PLIES:
            move = seats[game.to_move(state)].search(state, time=seconds).best_move
            state = game.result(state, move)
            plies += 1
        outcome = game.utility(state, singular_side) if game.is_terminal(state) else 0
        wins += outcome > 0
        draws += outcome == 0
        losses += outcome < 0
        words = "won" if outcome > 0 else "lost" if outcome < 0 else "drawn"
        print(f"game {number + 1}: {words} by singular extensions after {plies} plies", flush=True)
    result = MatchResult(wins, draws, losses)
    elo, error = result.elo, result.elo_error
    print(f"singular extensions on against off, {seconds} s a move: +{wins} ={draws} -{losses},"
          f" score {result.score:.3f}, Elo {elo:+.0f} ± {error or 0:.0f}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=200_000, help="nodes a WAC position")
    parser.add_argument("--limit", type=int, help="only the first N WAC positions")
    parser.add_argument("--epd", type=Path, default=find_oracle("chess", "wac.epd"))
    parser.add_argument("--games", type=int, default=0, help="self-play games (0: none)")
    parser.add_argument("--time", type=float, default=0.05, help="seconds a move in self-play")
    parser.add_argument("--seed", type=int, default=1, help="which book openings")
    parser.add_argument("--part", default="1/1", help="K/N: the K-th of N slices of the games")
    parser.add_argument("--no-tactics", action="store_true", help="self-play only")
    args = parser.parse_args()
    game = Chess()
    if not args.no_tactics:
        if args.epd is None or not args.epd.exists():
            parser.error("wac.epd not found: give it with --epd PATH")
        tactics(game, args.epd, args.limit, args.nodes)
    if args.games:
        index, slices = (int(n) for n in args.part.split("/"))
        self_play(game, args.games, args.time, args.seed, (index, slices))


if __name__ == "__main__":
    main()
