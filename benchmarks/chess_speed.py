"""Nodes a second of zerosum's chess engine and of sunfish, from the same positions, one run.

Each position is searched for the same CPU time by both engines, in this process, one after
the other: zerosum's engine on `zerosum.games.chess.Chess`, the compiled one (its bitboard
rules, `--engine compiled`, the default) or the Python one (python-chess's rules, `--engine
python`), and sunfish's `Searcher` (its own 120-character board). The times are CPU seconds of
this process (`time.process_time`), so that the other jobs of a shared machine weigh less on
the ratio.

What a node is differs:

- zerosum counts a node for every position the search enters and for every move that
  quiescence plays (both engines alike: they search the same tree); each position has its
  legal moves generated (all of them at an interior node, the captures and promotions in
  quiescence).
- sunfish counts a node for every call of `Searcher.bound`: the positions of its MTD-bi
  probes (the same tree walked again for each probe of the score counts again), its
  quiescence positions, and its null-move and reduced searches. Its move generator is
  pseudo-legal (an illegal move is found one ply later by capturing the king), so its nodes
  are cheaper to make and some of them are positions no legal game reaches.

`--depth N` searches each position to a fixed depth with zerosum alone and prints the nodes,
the move, the score and the CPU time: the nodes, move and score must not change when the code
is only made faster (run it on two commits to compare their speed).

Needs sunfish (`pip install --no-deps sunfish`: its wheel pins python-chess 1.9.4, which it
only needs for its own terminal interface, not for the engine used here).

    python benchmarks/chess_speed.py [--time 2] [--engine compiled|python]
    python benchmarks/chess_speed.py --depth 3 [--engine python]
"""

from __future__ import annotations

import argparse
import time

import chess

from zerosum.compiled import choice
from zerosum.games.chess import Chess

POSITIONS = {
    "start": chess.STARTING_FEN,
    "italian": "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "kiwipete": "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "queen's gambit": "r2q1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
    "sicilian": "r1b2rk1/2q1bppp/p2ppn2/1p6/3NP3/1BN1B3/PPP1QPPP/R4RK1 w - - 0 12",
    "black to move": "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 b - - 0 7",
}


def zerosum_nodes(fen: str, seconds: float, impl: str) -> tuple[int, float]:
    """(nodes, CPU seconds) of zerosum's engine `impl` searching `fen` for about `seconds`."""
    game = Chess()
    engine = choice.engine(game, impl)
    start = time.process_time()
    result = engine.search(game.parse_state(fen), time=seconds)
    return result.stats.nodes, time.process_time() - start


def sunfish_nodes(fen: str, seconds: float) -> tuple[int, float]:
    """(nodes, CPU seconds) of sunfish's searcher on `fen` for `seconds` of wall time."""
    import sunfish
    from sunfish_ui import uci

    uci.sunfish = sunfish  # what sunfish's own UCI loop sets before reading a FEN
    position = uci.from_fen(*fen.split())
    history = [position] if fen.split()[1] == "w" else [position.rotate(), position]
    searcher = sunfish.Searcher()
    start = time.process_time()
    searcher.deadline = time.time() + seconds  # checked inside the search every 2048 nodes
    try:
        for _ in searcher.search(history):
            if time.time() > searcher.deadline:
                break
    except sunfish.Stop:
        pass
    return searcher.nodes, time.process_time() - start


def fixed_depth(depth: int, impl: str) -> None:
    """zerosum alone, each position to `depth` plies: nodes, move, score and CPU seconds."""
    print(f"zerosum ({impl}) to depth {depth}")
    print()
    print("| position | nodes | move | score | CPU s | nps |")
    print("|---|---:|---|---:|---:|---:|")
    nodes = seconds = 0.0
    for name, fen in POSITIONS.items():
        game = Chess()
        start = time.process_time()
        result = choice.engine(game, impl).search(game.parse_state(fen), depth=depth)
        spent = time.process_time() - start
        nodes, seconds = nodes + result.stats.nodes, seconds + spent
        print(
            f"| {name} | {result.stats.nodes:,} | {result.best_move.uci()} | {result.score}"
            f" | {spent:.2f} | {result.stats.nodes / spent:,.0f} |"
        )
    print(f"| all | {nodes:,.0f} | | | {seconds:.2f} | {nodes / seconds:,.0f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", type=float, default=2.0, help="seconds a position (default 2)")
    parser.add_argument("--depth", type=int, help="zerosum alone, to this depth")
    parser.add_argument("--engine", choices=choice.IMPLEMENTATIONS, default="compiled")
    args = parser.parse_args()
    if args.depth is not None:
        fixed_depth(args.depth, args.engine)
        return
    choice.engine(Chess(), args.engine)  # the compiled engine loaded before any clock
    print(f"{args.time:g} s a position; nodes a CPU second; zerosum's {args.engine} engine")
    print()
    print("| position | zerosum nodes | zerosum nps | sunfish nodes | sunfish nps | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    totals = [0, 0.0, 0, 0.0]
    for name, fen in POSITIONS.items():
        ours, our_time = zerosum_nodes(fen, args.time, args.engine)
        theirs, their_time = sunfish_nodes(fen, args.time)
        for index, value in enumerate((ours, our_time, theirs, their_time)):
            totals[index] += value
        print(
            f"| {name} | {ours:,} | {ours / our_time:,.0f} | {theirs:,}"
            f" | {theirs / their_time:,.0f} | {ours / our_time / (theirs / their_time):.2f} |"
        )
    ours, our_time, theirs, their_time = totals
    print(
        f"| all | {ours:,} | {ours / our_time:,.0f} | {theirs:,} | {theirs / their_time:,.0f}"
        f" | {ours / our_time / (theirs / their_time):.2f} |"
    )


if __name__ == "__main__":
    main()
