"""`zerosum pn`: P and N positions of a subtraction game, built backwards step by step."""

from __future__ import annotations

import argparse
from decimal import Decimal, InvalidOperation

from zerosum.cli.common import parse_int_list, print_json
from zerosum.theory.impartial import pn_construction
from zerosum.theory.subtraction import SubtractionGame


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "pn",
        help="P and N positions built backwards from the end",
        description="Label the positions from START to TARGET as P (the player to move loses) "
        "or N (the player to move wins), moving by an amount in S toward TARGET without "
        "passing it; the player who reaches TARGET wins. --start 0 --target 10 --unit 0.1 is "
        "the decimal game: add 0.1 or 0.2, the first to reach 1 wins.",
    )
    parser.add_argument("--subtract", metavar="S", required=True, help="the amounts, e.g. 1,2")
    parser.add_argument("--start", type=int, required=True, help="the starting position")
    parser.add_argument("--target", type=int, default=0, help="the final position (default 0)")
    parser.add_argument("--steps", action="store_true", help="print the construction step by step")
    parser.add_argument(
        "--unit", default="1", help="what one step is worth when printed, e.g. 0.1 (default 1)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    game = SubtractionGame(parse_int_list(args.subtract, "subtraction set"))
    if args.start < 0 or args.target < 0:
        raise ValueError("--start and --target must be non-negative integers")
    unit = parse_unit(args.unit)
    direction = 1 if args.target >= args.start else -1

    def shown(distance: int) -> Decimal:
        """The position `distance` moves' worth away from the target, scaled by the unit."""
        return (args.target - direction * distance) * unit

    construction = pn_construction(game, abs(args.target - args.start))
    p_set: list[Decimal] = []
    n_set: list[Decimal] = []
    steps = []  # the P and N sets after each step, nearest the target first within a step
    for k, found in enumerate(construction.steps):
        (n_set if k % 2 else p_set).extend(shown(d) for d in sorted(found))
        steps.append((list(p_set), list(n_set)))
    p_final, n_final = steps[-1]
    start = shown(construction.start)
    report = {
        "subtract": list(game.moves),
        "start": number(start),
        "target": number(shown(0)),
        "outcome": construction.outcome(construction.start),
        "p_positions": [number(p) for p in p_final],
        "n_positions": [number(p) for p in n_final],
        "steps": [
            {"step": k, "P": [number(p) for p in p_set], "N": [number(p) for p in n_set]}
            for k, (p_set, n_set) in enumerate(steps)
        ],
    }
    if args.json:
        print_json(report)
        return 0
    if args.steps:
        print(step_table(steps))
    print(f"P = {braces(p_final)}")
    print(f"N = {braces(n_final)}")
    winner = "the second player" if report["outcome"] == "P" else "the first player"
    print(f"from {text(start)}: {report['outcome']}, {winner} wins with best play")
    return 0


def parse_unit(text: str) -> Decimal:
    try:
        unit = Decimal(text)
    except InvalidOperation:
        raise ValueError(f"bad --unit {text!r}: expected a positive number such as 0.1") from None
    if not unit.is_finite() or unit <= 0:
        raise ValueError(f"bad --unit {text!r}: expected a positive number such as 0.1")
    return unit


def number(value: Decimal) -> int | float:
    """A position for JSON: 1, not 1.0; 0.7 as the float 0.7."""
    return int(value) if value == value.to_integral_value() else float(value)


def text(value: Decimal) -> str:
    """A decimal without trailing zeros or exponent: 1, 0.7, 10."""
    return format(value.normalize(), "f")


def braces(values: list[Decimal]) -> str:
    return "{" + ", ".join(map(text, values)) + "}"


def step_table(steps: list[tuple[list[Decimal], list[Decimal]]]) -> str:
    rows = [("step", "P", "N")] + [
        (str(k), braces(p_set), braces(n_set)) for k, (p_set, n_set) in enumerate(steps)
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(2)]
    return "\n".join(f"{step:<{widths[0]}}  {p:<{widths[1]}}  {n}".rstrip() for step, p, n in rows)
