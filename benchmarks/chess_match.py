"""A match of zerosum's UCI engine against Stockfish (strength limited) or sunfish.

Both engines are driven through python-chess's `chess.engine.SimpleEngine`: zerosum as
`python -m zerosum uci`, Stockfish as Debian's `/usr/games/stockfish` with `UCI_LimitStrength`
and `UCI_Elo` (1350 is its weakest), sunfish as its `sunfish-uci` entry point. Every move is a
`go movetime` of the same time for both, or with `--clock 10+0.1` a game on a clock (each side's
base seconds and increment, `go wtime btime winc binc`; a side whose time runs out loses). The
openings are lines of a few moves drawn from the
Polyglot book `performance.bin` of the shared test data (weighted by the book, fixed by
`--seed`); each opening is played twice, zerosum White in the first game and Black in the
second. A game ends by the rules (mate, stalemate, insufficient material, a claimable
threefold repetition or fifty-move rule) or is scored a draw after `--max-plies`.

The score, its 95% interval, the Elo difference and its 95% error come from
`zerosum.match.MatchResult`.

    python benchmarks/chess_match.py stockfish --elo 1350 [--games 20] [--time 0.2]
    python benchmarks/chess_match.py stockfish --elo 2000 --games 100 --clock 10+0.1
    python benchmarks/chess_match.py sunfish [--games 20] [--time 0.2]

sunfish is in no extra: its wheel pins chess==1.9.4, which zerosum's chess>=1.10 contradicts;
install it apart with `pip install --no-deps sunfish` (its engine needs nothing).
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import time
from pathlib import Path

import chess
import chess.engine
import chess.polyglot
from oracles import find_oracle

from zerosum.match import MatchResult

STOCKFISH = "/usr/games/stockfish"


def openings(book: Path, count: int, plies: int, seed: int) -> list[str]:
    """`count` different positions (FEN) after `plies` book moves, drawn by the book's weights."""
    rng = random.Random(seed)
    found: list[str] = []
    with chess.polyglot.open_reader(book) as reader:
        for _ in range(count * 50):
            board = chess.Board()
            for _ in range(plies):
                try:
                    board.push(reader.weighted_choice(board, random=rng).move)
                except IndexError:  # the book ends here
                    break
            if board.fen() not in found:
                found.append(board.fen())
                if len(found) == count:
                    return found
    raise ValueError(f"the book {book} has fewer than {count} lines of {plies} plies")


def open_opponent(name: str, elo: int) -> chess.engine.SimpleEngine:
    if name == "stockfish":
        engine = chess.engine.SimpleEngine.popen_uci(STOCKFISH)
        engine.configure(
            # the same 0.1 s for the engine's lag as zerosum keeps (`zerosum.cli.uci.MARGIN`)
            {"UCI_LimitStrength": True, "UCI_Elo": elo, "Threads": 1, "Hash": 16,
             "Move Overhead": 100}
        )  # fmt: skip
        return engine
    command = shutil.which("sunfish-uci") or str(Path(sys.executable).parent / "sunfish-uci")
    return chess.engine.SimpleEngine.popen_uci(command)


def play_game(engines, fen: str, seconds: float, clock, max_plies: int, game_id: int, spent):
    """One game from `fen`, `engines[0]` White, `seconds` a move or on `clock` (base seconds,
    increment) when given: the result for White (1, 0.5, 0), the plies played and how the game
    ended."""
    board = chess.Board(fen)
    left = [clock[0], clock[0]] if clock else None
    while not board.is_game_over(claim_draw=True):
        if len(board.move_stack) >= max_plies:
            return 0.5, len(board.move_stack), "adjudicated a draw"
        side = 0 if board.turn == chess.WHITE else 1
        if left is None:
            limit = chess.engine.Limit(time=seconds)
        else:
            limit = chess.engine.Limit(
                white_clock=left[0], black_clock=left[1], white_inc=clock[1], black_inc=clock[1]
            )
        start = time.perf_counter()
        move = engines[side].play(board, limit, game=game_id).move
        used = time.perf_counter() - start
        spent[id(engines[side])].append(used)
        if left is not None:
            left[side] -= used
            if left[side] < 0:
                return (0.0 if side == 0 else 1.0), len(board.move_stack), "lost on time"
            left[side] += clock[1]
        if move is None:  # no move from an engine in a game that is not over
            return (0.0 if side == 0 else 1.0), len(board.move_stack), "no move (resigned)"
        board.push(move)
    outcome = board.outcome(claim_draw=True)
    how = outcome.termination.name.lower().replace("_", " ")
    if outcome.winner is None:
        return 0.5, len(board.move_stack), how
    return (1.0 if outcome.winner == chess.WHITE else 0.0), len(board.move_stack), how


def clock_of(text: str) -> tuple[float, float]:
    """(base, increment) of `BASE+INC`, in seconds."""
    base, _, increment = text.partition("+")
    try:
        return float(base), float(increment or 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a clock is BASE+INC seconds, got {text!r}") from None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("opponent", choices=["stockfish", "sunfish"])
    parser.add_argument("--elo", type=int, default=1350, help="Stockfish's UCI_Elo (1350-2850)")
    parser.add_argument("--games", type=int, default=20, help="games, an even number")
    parser.add_argument("--time", type=float, default=0.2, help="seconds a move, both engines")
    parser.add_argument(
        "--book",
        type=Path,
        default=find_oracle("chess", "polyglot", "performance.bin"),
        help="Polyglot book",
    )
    parser.add_argument(
        "--clock", type=clock_of, help="BASE+INC seconds: games on a clock (not --time)"
    )
    parser.add_argument("--plies", type=int, default=6, help="book plies an opening")
    parser.add_argument("--max-plies", type=int, default=300, help="a draw after this many")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.book is None or not args.book.exists():
        parser.error("performance.bin not found: give it with --book PATH")
    starts = openings(args.book, (args.games + 1) // 2, args.plies, args.seed)
    command = [sys.executable, "-m", "zerosum", "uci"]
    ours = chess.engine.SimpleEngine.popen_uci(command, timeout=120)  # a first compile is slow
    ours.ping()  # `isready`, as a GUI sends it: the engine is loaded before the first clock runs
    theirs = open_opponent(args.opponent, args.elo)
    spent: dict[int, list[float]] = {id(ours): [], id(theirs): []}
    wins = draws = losses = 0
    try:
        for index in range(args.games):
            white_is_ours = index % 2 == 0
            engines = (ours, theirs) if white_is_ours else (theirs, ours)
            fen = starts[index // 2]
            white, plies, how = play_game(
                engines, fen, args.time, args.clock, args.max_plies, index, spent
            )
            score = white if white_is_ours else 1 - white
            wins, draws, losses = wins + (score == 1), draws + (score == 0.5), losses + (score == 0)
            print(f"game {index + 1}: zerosum {'White' if white_is_ours else 'Black'}, {score:g}"
                  f" ({how}) after {plies} plies, from {fen}", flush=True)  # fmt: skip
    finally:
        ours.quit()
        theirs.quit()
    result = MatchResult(wins, draws, losses)
    low, high = result.score_interval
    elo = "-" if result.elo is None else f"{result.elo:+.0f} ± {result.elo_error:.0f}"
    name = f"Stockfish 15.1, UCI_Elo {args.elo}" if args.opponent == "stockfish" else "sunfish"
    our_time = sum(spent[id(ours)]) / max(1, len(spent[id(ours)]))
    their_time = sum(spent[id(theirs)]) / max(1, len(spent[id(theirs)]))
    print()
    pace = f"{args.clock[0]:g}+{args.clock[1]:g}" if args.clock else f"{args.time:g} s"
    print("| opponent | time | games | zerosum +W =D -L | score (95%) | Elo difference |"
          " mean s a move: zerosum, opponent |")  # fmt: skip
    print("|---|---:|---:|---|---|---:|---|")
    print(f"| {name} | {pace} | {result.games} | +{wins} ={draws} -{losses}"
          f" | {result.score:.2f} ({low:.2f}-{high:.2f}) | {elo}"
          f" | {our_time:.3f}, {their_time:.3f} |")  # fmt: skip


if __name__ == "__main__":
    main()
