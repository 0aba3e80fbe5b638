"""`zerosum pn`: P and N positions of a subtraction game, built backwards step by step."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from decimal import Decimal, InvalidOperation

from zerosum.cli.common import add_no_limit, parse_int_list
from zerosum.cli.progress import progress
from zerosum.limits import Limit, clipped
from zerosum.theory.impartial import pn_construction
from zerosum.theory.subtraction import SubtractionGame

# Measured here: the construction takes about 400 bytes for each position and 60 for each move
# (5 million positions with amounts {1, 2}: 104 s and 2.0 GB; a million with {1, ..., 10}: 20 s
# and 0.9 GB), and the step table or the JSON steps print every set so far at every step: their
# size grows with the square of the positions (20,000 with {1, 2}: 1.2 GB printed in 5 s).
POSITIONS = Limit(
    "the positions from --start to --target",
    5_000_000,
    "each takes about 400 bytes and 20 microseconds: 5 million take 2 GB and two minutes",
)
MOVES = Limit(
    "the moves of the construction (each position's amounts that do not pass the target)",
    20_000_000,
    "each takes about 60 bytes and 2 microseconds beside its position's: 20 million take 1.2 GB"
    " and 40 s more",
)
STEPS = Limit(
    "the positions of a construction printed step by step (--steps, --json)",
    20_000,
    "every step prints the sets so far, so the output grows with the square of the positions:"
    " 20,000 make about 1 GB",
)
UNIT_DIGITS = 100
"""The most digits of --unit written out in full (1e-99 has 100): every position printed has
about as many."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Label the positions from START to TARGET as P (the player to move loses) "
        "or N (the player to move wins), moving by an amount in S toward TARGET without "
        "passing it; the player who reaches TARGET wins. --start 0 --target 10 --unit 0.1 is "
        "the decimal game: add 0.1 or 0.2, the first to reach 1 wins. Limits: "
        f"{POSITIONS}; {MOVES} (each position's amounts in S that do not pass TARGET);"
        f" {STEPS}."
    )
    parser.add_argument("--subtract", metavar="S", required=True, help="the amounts, e.g. 1,2")
    parser.add_argument("--start", type=int, required=True, help="the starting position")
    parser.add_argument("--target", type=int, default=0, help="the final position (default 0)")
    parser.add_argument("--steps", action="store_true", help="print the construction step by step")
    parser.add_argument(
        "--unit",
        default="1",
        help=f"what one step is worth when printed, e.g. 0.1 (default 1; at most {UNIT_DIGITS}"
        " digits written out)",
    )
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object (with the sets after each step)"
    )
    add_no_limit(parser, "the positions and moves of the construction, those printed step by step")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    game = SubtractionGame(parse_int_list(args.subtract, "subtraction set"))
    if args.start < 0 or args.target < 0:
        raise ValueError("--start and --target must be non-negative integers")
    unit = parse_unit(args.unit)
    distance = abs(args.target - args.start)
    positions = distance + 1
    POSITIONS.check(positions, lifted=args.no_limit)
    MOVES.check(sum(max(0, positions - s) for s in game.moves), lifted=args.no_limit)
    if args.steps or args.json:
        STEPS.check(positions, lifted=args.no_limit)
    direction = 1 if args.target >= args.start else -1

    def shown(distance: int) -> Decimal:
        """The position `distance` moves' worth away from the target, scaled by the unit."""
        return (args.target - direction * distance) * unit

    with progress("positions", total=positions, what="labelling") as bar:
        construction = pn_construction(game, distance, on_progress=bar.to)
    # each step's positions, nearest the target first, as the user reads them
    steps = [[shown(d) for d in sorted(found)] for found in construction.steps]
    p_final = [p for found in steps[0::2] for p in found]
    n_final = [p for found in steps[1::2] for p in found]
    start = shown(construction.start)
    outcome = construction.outcome(construction.start)
    if args.json:
        report = {
            "subtract": list(game.moves),
            "start": number(start),
            "target": number(shown(0)),
            "outcome": outcome,
            "p_positions": [number(p) for p in p_final],
            "n_positions": [number(p) for p in n_final],
        }
        write_json(report, steps)
        return 0
    if args.steps:
        write_step_table(steps, len(braces(p_final)))
    print(f"P = {braces(p_final)}")
    print(f"N = {braces(n_final)}")
    winner = "the second player" if outcome == "P" else "the first player"
    print(f"from {text(start)}: {outcome}, {winner} wins with best play")
    return 0


def parse_unit(text: str) -> Decimal:
    bad = f"bad --unit {clipped(text, 40)}"
    try:
        unit = Decimal(text)
    except InvalidOperation:
        raise ValueError(f"{bad}: expected a positive number such as 0.1") from None
    if not unit.is_finite() or unit <= 0:
        raise ValueError(f"{bad}: expected a positive number such as 0.1")
    shape = unit.as_tuple()  # normalize() would overflow on 1e999999999
    digits, exponent = len(shape.digits), shape.exponent
    assert isinstance(exponent, int)  # a finite Decimal's exponent is an int
    # digits written out: 1e-99 is 0.000...1, 100 digits; 1e99 is 1000...0, 100 digits
    written = digits + exponent if exponent >= 0 else max(digits, -exponent) + (-exponent >= digits)
    if written > UNIT_DIGITS:
        raise ValueError(f"{bad}: it is written out in at most {UNIT_DIGITS} digits")
    return unit


def number(value: Decimal) -> int | float:
    """A position for JSON: 1, not 1.0; 0.7 as the float 0.7."""
    return int(value) if value == value.to_integral_value() else float(value)


def text(value: Decimal) -> str:
    """A decimal without trailing zeros or exponent: 1, 0.7, 10."""
    return format(value.normalize(), "f")


def braces(values: list[Decimal]) -> str:
    return "{" + ", ".join(map(text, values)) + "}"


def _cumulative(steps: list[list[str]]) -> Iterator[tuple[str, str]]:
    """The P set and the N set (their items joined by commas) after each step, made one step
    at a time from the last: memory stays linear while the texts grow."""
    p_text = n_text = ""
    for k, found in enumerate(steps):
        if found:
            added = ", ".join(found)
            if k % 2:
                n_text = f"{n_text}, {added}" if n_text else added
            else:
                p_text = f"{p_text}, {added}" if p_text else added
        yield p_text, n_text


def write_step_table(steps: list[list[Decimal]], p_width: int) -> None:
    """The sets after each step, a row a step, printed as they are made (the P set only grows,
    so the last one is the widest)."""
    step_width = max(len("step"), len(str(len(steps) - 1)))
    write = sys.stdout.write
    write(f"{'step':<{step_width}}  {'P':<{p_width}}  N\n")
    texts = [[text(p) for p in found] for found in steps]
    with progress("steps", total=len(steps), what="printing") as bar:
        for k, (p_text, n_text) in enumerate(_cumulative(texts)):
            write(f"{k:<{step_width}}  {'{' + p_text + '}':<{p_width}}  {{{n_text}}}".rstrip())
            write("\n")
            bar.advance()


def write_json(report: dict, steps: list[list[Decimal]]) -> None:
    """`report` as one JSON object, with "construction": each step's number and the P and N
    positions known after it (`p_positions`, `n_positions`, as the report's own at the end),
    written a step at a time (the whole would take memory growing with the square of the
    positions)."""
    head = json.dumps(report, indent=2)
    write = sys.stdout.write
    write(head[: -len("\n}")] + ',\n  "construction": [')
    texts = [[json.dumps(number(p)) for p in found] for found in steps]
    with progress("steps", total=len(steps), what="printing") as bar:
        for k, (p_text, n_text) in enumerate(_cumulative(texts)):
            write("," if k else "")
            write(f'\n    {{"step": {k}, "p_positions": [{p_text}], "n_positions": [{n_text}]}}')
            bar.advance()
    write("\n  ]\n}\n")
