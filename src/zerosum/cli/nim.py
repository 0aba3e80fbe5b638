"""`zerosum nim HEAPS`: Bouton's judgement of a Nim position, with the XOR in binary columns."""

from __future__ import annotations

import argparse

from zerosum.cli.common import print_json
from zerosum.games.nim import parse_heaps
from zerosum.theory.impartial import nim_sum
from zerosum.theory.nim import NimMove, outcome, winning_move


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "nim",
        help="judge a Nim position and find the winning move",
        description="P or N by Bouton's theorem (the XOR of the heaps), and a winning move.",
    )
    parser.add_argument("heaps", nargs="+", help="the heap sizes, e.g. 3 5 8")
    parser.add_argument("--misere", action="store_true", help="whoever takes the last object loses")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    heaps = parse_heaps(" ".join(args.heaps))
    move = winning_move(heaps, args.misere)
    report = {
        "heaps": list(heaps),
        "misere": args.misere,
        "outcome": outcome(heaps, args.misere),
        "nim_sum": nim_sum(heaps),
        "winning_move": None if move is None else move_report(move),
    }
    if args.json:
        print_json(report)
    else:
        print(binary_columns(heaps))
        print(describe(heaps, report["outcome"], move, args.misere))
    return 0


def move_report(move: NimMove) -> dict:
    return {"heap": move.heap, "remove": move.remove, "result": list(move.result)}


def binary_columns(heaps: tuple[int, ...]) -> str:
    """The heaps written in binary one under the other, and their XOR column by column."""
    total = nim_sum(heaps)
    bits = max(max(heaps).bit_length(), 1)
    width = max(len(str(max(heaps))), len(str(total)), 3)
    header = " " * width + "  " + " ".join(str(1 << b) for b in reversed(range(bits)))
    rows = [header]
    for label, value in [*((str(h), h) for h in heaps), ("xor", total)]:
        cells = [f"{value >> b & 1:>{len(str(1 << b))}}" for b in reversed(range(bits))]
        rows.append(f"{label:>{width}}  {' '.join(cells)}")
    rows[-1] += f"  = {total}"
    return "\n".join(rows)


def describe(heaps: tuple[int, ...], result: str, move: NimMove | None, misere: bool) -> str:
    rule = "misère: the last object loses" if misere else "the last object wins"
    if move is not None:
        after = " ".join(map(str, move.result))
        return (
            f"N ({rule}): the player to move wins by taking {move.remove} from heap"
            f" {move.heap + 1} ({heaps[move.heap]} -> {heaps[move.heap] - move.remove}),"
            f" leaving {after}"
        )
    if result == "N":
        return f"N ({rule}): the heaps are empty, so the player to move has already won"
    return f"P ({rule}): the player to move loses against best play"
