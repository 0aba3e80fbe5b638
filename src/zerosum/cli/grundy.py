"""`zerosum grundy`: the Grundy sequence of a heap game, its P positions and its proved period."""

from __future__ import annotations

import argparse

from zerosum.cli.common import add_no_limit, parse_int_list, print_json
from zerosum.cli.progress import progress
from zerosum.theory.heaps import SECONDS, GrundySequence
from zerosum.theory.octal import NAMED, GrundysGame, OctalGame
from zerosum.theory.subtraction import SubtractionGame

GAMES = ("grundy", *NAMED)
LARGEST = 10**6  # the largest --upto: beyond it the list printed is no use to anyone


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "The Grundy number of every heap up to a size, the P positions (Grundy "
        "number 0) and the period, reported only when a theorem proves it. Limits: --upto at "
        f"most {LARGEST:,}, and each game's values (and period search) at most an estimated "
        f"{SECONDS.most} seconds from what each game costs here: Grundy's game to about heap "
        "300,000, an octal game with two digits that split a heap (Kayles) to about 160,000 "
        "before its period is proved, one with nine such digits to about 77,000, a subtraction "
        "game with 1,000 amounts to about 400,000."
    )
    game = parser.add_mutually_exclusive_group(required=True)
    game.add_argument(
        "game",
        nargs="?",
        choices=GAMES,
        metavar="NAME",
        help="a named game: grundy (split a heap unequally), kayles or dawson",
    )
    game.add_argument("--subtract", metavar="S", help="subtraction game, e.g. 1,3,4")
    game.add_argument("--octal", metavar="CODE", help="octal game, e.g. 0.77 (Kayles)")
    parser.add_argument("--upto", type=int, default=30, help="the largest heap (default 30)")
    parser.add_argument(
        "--search",
        type=int,
        default=1 << 14,
        metavar="N",
        help="look for a period among the first N values (default 16384; 65536 for a subtraction"
        " game), or as many as the time limit allows",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_no_limit(parser, "the estimated time of the values and of the period search")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.search < 1:
        raise ValueError(f"--search must be at least 1, got {args.search}")
    if args.upto > LARGEST:
        raise ValueError(f"--upto is at most {LARGEST:,} here, got {args.upto:,}")
    limits = {"no_limit": args.no_limit}
    with progress("heaps", total=args.upto + 1, what="Grundy values") as bar:
        if args.subtract is not None:
            game = SubtractionGame(parse_int_list(args.subtract, "subtraction set"))
            name = "subtraction game {" + _first(game.moves) + "}"
            result = game.sequence(args.upto, args.search, **limits, on_progress=bar.to)
        elif args.game == "grundy":
            name = "Grundy's game"
            result = GrundysGame().sequence(args.upto, **limits, on_progress=bar.to)
        else:
            octal = OctalGame(NAMED.get(args.game) or args.octal)
            name = f"octal game 0.{_first(octal.digits, '')}" + (
                f" ({args.game})" if args.game else ""
            )
            result = octal.sequence(args.upto, args.search, **limits, on_progress=bar.to)
    report = {
        "game": name,
        "values": list(result.values),
        "p_positions": list(result.p_positions),
        "preperiod": result.preperiod,
        "period": result.period,
        "checked": result.checked,
    }
    if args.json:
        print_json(report)
    else:
        print(describe(name, result, args.game == "grundy"))
    return 0


NAMED_ITEMS = 40
"""The most amounts of a subtraction set, or digits of an octal code, a game's name shows."""


def _first(items: tuple[int, ...], between: str = ", ") -> str:
    """The first `NAMED_ITEMS` of `items` joined, and how many there are when there are more."""
    shown = between.join(map(str, items[:NAMED_ITEMS]))
    more = len(items) - NAMED_ITEMS
    return shown if more <= 0 else f"{shown}{between}... ({len(items):,} in all)"


def describe(name: str, result: GrundySequence, no_theorem: bool) -> str:
    values = result.values
    lines = [f"{name}: Grundy numbers of heaps 0 to {len(values) - 1}"]
    for start in range(0, len(values), 20):
        row = " ".join(f"{v:>2}" for v in values[start : start + 20])
        lines.append(f"{start:>6}: {row}")
    lines.append("P positions: " + ", ".join(map(str, result.p_positions)))
    if result.period is not None:
        lines.append(
            f"period {result.period} from heap {result.preperiod}: g(n + {result.period}) = g(n)"
            f" for every n >= {result.preperiod}, proved from heaps 0 to {result.checked - 1}"
        )
    elif no_theorem:
        lines.append(
            f"no period found up to heap {len(values) - 1}, and none can be proved:"
            " no periodicity theorem covers this game"
        )
    else:
        lines.append(f"no period proved from heaps 0 to {result.checked - 1}")
    return "\n".join(lines)
