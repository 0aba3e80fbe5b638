"""`zerosum nim HEAPS`: Bouton's judgement of a Nim position, with the XOR in binary columns."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from zerosum.cli.common import print_json
from zerosum.games.nim import HEAP_DIGITS, parse_heaps
from zerosum.theory.impartial import nim_sum
from zerosum.theory.nim import NimMove, outcome, winning_move


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = "P or N by Bouton's theorem (the XOR of the heaps), and a winning move."
    parser.add_argument(
        "heaps",
        nargs="+",
        help=f"the heap sizes, e.g. 3 5 8 or 3,5,8 (each at most {HEAP_DIGITS:,} digits)",
    )
    parser.add_argument("--misere", action="store_true", help="whoever takes the last object loses")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    heaps = parse_heaps(" ".join(args.heaps))
    with _long_integers():
        _report(heaps, args)
    return 0


@contextmanager
def _long_integers() -> Iterator[None]:
    """Python writes integers of more than 4,300 digits only when told to (a guard against the
    slow conversion of untrusted numbers): the heaps here have at most HEAP_DIGITS digits, a
    fraction of a second each, and are printed in full, in text and JSON."""
    before = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(before)


def _report(heaps: tuple[int, ...], args: argparse.Namespace) -> None:
    move = winning_move(heaps, args.misere)
    report = {
        "heaps": [_json_integer(h) for h in heaps],
        "misere": args.misere,
        "outcome": outcome(heaps, args.misere),
        "nim_sum": _json_integer(nim_sum(heaps)),
        "winning_move": None if move is None else move_report(move),
    }
    if args.json:
        print_json(report)
    else:
        print(binary_columns(heaps))
        print(describe(heaps, report["outcome"], move, args.misere))


def move_report(move: NimMove) -> dict:
    return {
        "heap": move.heap,
        "remove": _json_integer(move.remove),
        "heaps": [_json_integer(h) for h in move.result],
    }


JSON_BITS = 14_000
"""Integers of more bits (about 4,300 digits) are strings of digits in JSON, as in `zerosum
matrix`: the JSON readers of Python and JavaScript refuse or round longer numbers."""


def _json_integer(value: int) -> int | str:
    return value if value.bit_length() <= JSON_BITS else str(value)


SPACED_BITS = 16
"""Heaps of up to this many bits are drawn with a column per bit headed by its value (8 4 2 1);
longer ones as plain binary numbers under a header naming the first and last bit."""

DRAWN_BITS = 256
"""Heaps of more bits than this are not drawn in binary (a line a heap as long as that helps no
one): their XOR is given in decimal."""


def binary_columns(heaps: tuple[int, ...]) -> str:
    """The heaps written in binary one under the other, and their XOR column by column."""
    total = nim_sum(heaps)
    bits = max(max(heaps).bit_length(), 1)
    if bits > DRAWN_BITS:
        return (
            f"the largest heap has {bits:,} bits (binary columns are drawn up to {DRAWN_BITS}):"
            f" their XOR is {total}"
        )
    if bits > SPACED_BITS:
        return _long_binary_columns(heaps, total, bits)
    width = max(len(str(max(heaps))), len(str(total)), 3)
    header = " " * width + "  " + " ".join(str(1 << b) for b in reversed(range(bits)))
    rows = [header]
    for label, value in [*((str(h), h) for h in heaps), ("xor", total)]:
        cells = [f"{value >> b & 1:>{len(str(1 << b))}}" for b in reversed(range(bits))]
        rows.append(f"{label:>{width}}  {' '.join(cells)}")
    rows[-1] += f"  = {total}"
    return "\n".join(rows)


def _long_binary_columns(heaps: tuple[int, ...], total: int, bits: int) -> str:
    """The heaps as binary numbers of `bits` digits, one under the other, and their XOR."""
    width = max(len(str(max(heaps))), len(str(total)), 3)
    rows = [f"{'':>{width}}  {f'bit {bits - 1}':<{bits - 5}}bit 0"]
    for label, value in [*((str(h), h) for h in heaps), ("xor", total)]:
        rows.append(f"{label:>{width}}  {value:0{bits}b}")
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
