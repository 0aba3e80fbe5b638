"""The compiled engine against OpenSpiel's alpha-beta on Othello, a match at equal time.

zerosum's compiled engine (`engine.search(state, time=T)`, every enhancement on, one engine a
game so its table carries over) plays OpenSpiel's alpha-beta
(`open_spiel.python.algorithms.minimax.alpha_beta_search`, Python over OpenSpiel's C++
`othello`) with the same time a move, handled as our engine handles it: OpenSpiel's search is
deepened one ply at a time until the time is up, the iteration running then is abandoned (its
leaf evaluation raises when the clock passes the move's deadline) and the move is the deepest
finished iteration's. The report gives each side's mean seconds a move (wall clock, the clock
both budgets read, and CPU) and mean depth. Both sides evaluate a leaf alike: our
Python game's evaluation (mobility, corners, X-squares, edges) of the position read from
OpenSpiel's observation, so the match measures search, not knowledge.

Openings: `--openings N` distinct positions 4 plies from the start (of the 244), drawn with
a fixed random generator (`--draw`), each played twice, each side black once. Moves go
through the shared numbering (our squares are OpenSpiel's action numbers, the pass 64); both
games are played move for move and their legal moves checked equal at every turn.

The result, from the compiled engine's side: wins, draws, losses, score with Wilson's 95%
interval and the Elo difference with its 95% error (`zerosum.match.MatchResult`); when one
side wins every game the Elo is unbounded and the report gives the Elo of the interval's
bound instead.

    python benchmarks/othello_match.py [--time 0.1] [--openings 40] [--draw 1]
"""

from __future__ import annotations

import argparse
import math
import random
import time
from typing import Any

import numpy as np

from zerosum.compiled.engine import Engine as CompiledEngine
from zerosum.games.othello import PASS, Othello, legal_squares
from zerosum.match import MatchResult

GAME = Othello()
BITS = np.array([1 << square for square in range(64)], dtype=object)


def openings(count: int, draw: int) -> list[tuple[int, ...]]:
    """`count` distinct lines of 4 moves from the start, drawn with `random.Random(draw)`."""
    lines: list[tuple[int, ...]] = [()]
    for _ in range(4):
        longer = []
        for line in lines:
            state = GAME.initial_state()
            for move in line:
                state = GAME.result(state, move)
            longer += [(*line, move) for move in GAME.legal_moves(state)]
        lines = longer
    return random.Random(draw).sample(sorted(lines), min(count, len(lines)))


def our_state(spiel_state: Any) -> tuple[int, int, int, int]:
    """The Python game's state of an OpenSpiel `othello` state (not finished)."""
    planes = np.asarray(spiel_state.observation_tensor(0), dtype=bool).reshape(3, 64)
    black = int(BITS[planes[1]].sum()) if planes[1].any() else 0
    white = int(BITS[planes[2]].sum()) if planes[2].any() else 0
    mover = spiel_state.current_player()
    mine, theirs = (black, white) if mover == 0 else (white, black)
    moves = legal_squares(mine, theirs) or 1 << PASS  # not finished: no square means a pass
    return mine, theirs, mover, moves


class _OutOfTime(Exception):
    """Raised from a leaf's evaluation when the move's time is up."""


class OpenSpielPlayer:
    """OpenSpiel's alpha-beta, deepened within `budget` seconds a move (see the module)."""

    def __init__(self, game: Any, budget: float) -> None:
        self.game, self.budget = game, budget
        self.depths: list[int] = []

    def choose(self, spiel_state: Any) -> int:
        from open_spiel.python.algorithms import minimax  # type: ignore[import-untyped]

        root = spiel_state.current_player()
        deadline = time.perf_counter() + self.budget

        def value(state: Any) -> float:
            if time.perf_counter() >= deadline:
                raise _OutOfTime
            return GAME.evaluate(our_state(state), root)

        mine, theirs, _, _ = our_state(spiel_state)
        empties = 64 - (mine | theirs).bit_count()
        move, depth = spiel_state.legal_actions()[0], 0
        while depth < empties:  # deeper than the empty squares finds nothing more
            try:
                score, move = minimax.alpha_beta_search(
                    self.game, spiel_state, value_function=value, maximum_depth=depth + 1,
                    maximizing_player_id=root,
                )  # fmt: skip
            except _OutOfTime:
                break
            depth += 1
            if abs(score) == 1:  # a proven win or loss (the evaluation stays within 0.9)
                break
        self.depths.append(depth)
        return move


def play(spiel_game: Any, opening: tuple[int, ...], ours_black: bool, budget: float,
         clocks: dict[str, list[float]], depths: dict[str, list[int]]) -> int:  # fmt: skip
    """The compiled engine's points (1, 0 or -1) in one game from `opening`."""
    state, spiel_state = GAME.initial_state(), spiel_game.new_initial_state()
    for move in opening:
        state = GAME.result(state, move)
        spiel_state.apply_action(move)
    engine, rival = CompiledEngine(GAME), OpenSpielPlayer(spiel_game, budget)
    ours = 0 if ours_black else 1
    while not GAME.is_terminal(state):
        assert not spiel_state.is_terminal()
        assert sorted(GAME.legal_moves(state)) == spiel_state.legal_actions(), opening
        wall, cpu = time.perf_counter(), time.process_time()
        if GAME.to_move(state) == ours:
            result = engine.search(state, time=budget)
            move, side = result.best_move, "zerosum"
            depths[side].append(result.depth)
        else:
            move, side = rival.choose(spiel_state), "openspiel"
            depths[side].append(rival.depths[-1])
        clocks[side].append(time.perf_counter() - wall)
        clocks[side + " cpu"].append(time.process_time() - cpu)
        state = GAME.result(state, move)
        spiel_state.apply_action(move)
    assert spiel_state.is_terminal()
    points = GAME.utility(state, ours)
    assert points == spiel_state.returns()[ours], (opening, points, spiel_state.returns())
    return int(points)


def elo_of(score: float) -> float:
    return 400 * math.log10(score / (1 - score))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", type=float, default=0.1, help="seconds a move, each side")
    parser.add_argument("--openings", type=int, default=40, help="openings, each played twice")
    parser.add_argument("--draw", type=int, default=1, help="the draw of the openings")
    args = parser.parse_args()
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError as error:
        message = "OpenSpiel is not installed: pip install -e '.[bench-openspiel]'"
        raise SystemExit(message) from error
    spiel_game = pyspiel.load_game("othello")
    start = time.process_time()
    CompiledEngine(GAME).search(GAME.initial_state(), depth=1)  # compiled before any clock
    print(f"compiled engine compiled in {time.process_time() - start:.1f} CPU s (before play)")
    lines = openings(args.openings, args.draw)
    clocks: dict[str, list[float]] = {
        "zerosum": [], "zerosum cpu": [], "openspiel": [], "openspiel cpu": []
    }  # fmt: skip
    depths: dict[str, list[int]] = {"zerosum": [], "openspiel": []}
    wins = draws = losses = 0
    began = time.perf_counter()
    for number, opening in enumerate(lines, 1):
        for ours_black in (True, False):
            points = play(spiel_game, opening, ours_black, args.time, clocks, depths)
            wins += points > 0
            draws += points == 0
            losses += points < 0
        print(f"{number * 2:>4} games: +{wins} ={draws} -{losses}"
              f" ({time.perf_counter() - began:.0f} s)", flush=True)  # fmt: skip
    result = MatchResult(wins, draws, losses)
    low, high = result.score_interval
    print(f"\nzerosum compiled engine against OpenSpiel alpha-beta, {args.time} s a move,"
          f" {len(lines)} openings of 4 plies (draw {args.draw}), each twice")  # fmt: skip
    for side in ("zerosum", "openspiel"):
        wall, cpu = clocks[side], clocks[side + " cpu"]
        print(f"  {side:<9} {len(wall)} moves, mean {sum(wall) / len(wall):.3f} s a move"
              f" ({sum(cpu) / len(cpu):.3f} CPU s), longest {max(wall):.3f} s,"
              f" mean depth {sum(depths[side]) / len(depths[side]):.1f}")  # fmt: skip
    print(f"  +{wins} ={draws} -{losses} of {result.games}: score {result.score:.3f}"
          f" (95% {low:.3f}-{high:.3f})")  # fmt: skip
    if result.elo is not None and result.elo_error is not None:
        print(f"  Elo {result.elo:+.0f} ± {result.elo_error:.0f}"
              f" (from the interval: {elo_of(low):+.0f} to"
              f" {elo_of(high) if high < 1 else math.inf:+.0f})")  # fmt: skip
    else:
        bound = low if result.score == 1 else high
        print(f"  Elo unbounded (every game alike); the score's 95% bound {bound:.3f} means"
              f" {elo_of(bound):+.0f}")  # fmt: skip


if __name__ == "__main__":
    main()
