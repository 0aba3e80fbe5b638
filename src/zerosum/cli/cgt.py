"""`zerosum cgt`: a partizan game's value in Conway's canonical form, from an expression or a
position of a game, with its outcome, mean and temperature, and the winning moves in a sum."""

from __future__ import annotations

import argparse
import re
from typing import Any

from zerosum.cli.common import add_no_limit, print_json
from zerosum.files import write_atomically
from zerosum.naming import code_named
from zerosum.theory.cgt_expressions import parse_value
from zerosum.theory.partizan import Value, sum_of
from zerosum.theory.partizan_games import Partizan, PartizanValues, components_of
from zerosum.theory.thermograph import thermograph

GAMES = {
    "domineering": "zerosum.games.domineering:Domineering",
    "hackenbush": "zerosum.games.hackenbush:Hackenbush",
    "toads-frogs": "zerosum.games.toads_frogs:ToadsAndFrogs",
    "cutcake": "zerosum.games.cutcake:Cutcake",
}
"""The partizan games by name (each imported when named)."""

OUTCOMES = {
    "L": "Left wins, whoever starts",
    "R": "Right wins, whoever starts",
    "P": "the player to move loses",
    "N": "the player to move wins",
}

USER_GAME = re.compile(r"[^\s{}|]+:[A-Za-z_]\w*")
"""`FILE.py:CLASS` or `MODULE:CLASS`: a user's own partizan game."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "The value of a partizan game in Conway's canonical form, its outcome, mean and"
        " temperature. Either a value expression ('{2 | -1} + ^*', '+-1 + *2') or a game and"
        " a position: domineering '2x3 + ../.#', hackenbush 'brr bg', toads-frogs 'TT..FF',"
        " cutcake '2x3 3x2', or FILE.py:CLASS with left_options, right_options and read. Parts"
        " joined by + are a sum; the winning moves in it are found from the parts' values."
        " Limits: an expression of at most 10,000 characters; at most 3,000,000 positions"
        " valued (--no-limit lifts it); Domineering boards of at most 400 squares, Hackenbush"
        " positions of at most 1,000 edges, Toads and Frogs rows of at most 200 squares, pieces"
        " of cake at most 1,000 on a side."
    )
    parser.add_argument("words", nargs="+", metavar="VALUE | GAME POSITION")
    parser.add_argument("--compare", metavar="VALUE", help="compare the value with this one")
    parser.add_argument(
        "--show", choices=("svg",), help="draw the thermograph (SVG), to -o FILE or stdout"
    )
    parser.add_argument("-o", "--output", metavar="FILE", help="write the picture to FILE")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_no_limit(parser, "the number of positions valued")
    parser.set_defaults(run=run)


def partizan_game(name: str) -> Partizan:
    """The partizan game `name` names: built in, or `FILE.py:CLASS` / `MODULE:CLASS`."""
    if name in GAMES:
        make, _ = code_named(GAMES[name])
    else:
        make, _ = code_named(name)
    game = make()
    missing = [m for m in ("left_options", "right_options", "read") if not hasattr(game, m)]
    if missing:
        raise ValueError(f"{name} is not a partizan game: it has no {', '.join(missing)}")
    return game


def run(args: argparse.Namespace) -> int:
    if args.output is not None and args.show is None:
        raise ValueError("-o writes the picture: say so with --show svg")
    first = args.words[0]
    if first in GAMES or (USER_GAME.fullmatch(first) and len(args.words) > 1):
        report, value = _position_report(first, " ".join(args.words[1:]), args.no_limit)
    else:
        value = parse_value(" ".join(args.words))
        report = {"expression": " ".join(args.words)}
    drawn = thermograph(value)
    report |= {
        "canonical": str(value),
        "outcome": value.outcome,
        "mean_value": str(drawn.mean),
        "temperature": str(drawn.temperature),
        "is_number": value.is_number,
    }
    if args.compare is not None:
        other = parse_value(args.compare)
        report["compared_with"] = str(other)
        report["relation"] = value.relation(other)
    if args.show:
        from zerosum.show.thermograph import thermograph_svg

        picture = thermograph_svg(drawn, f"thermograph of {value}")
        if args.output:
            write_atomically(args.output, picture)
            report["output"] = args.output
        elif not args.json:
            print(picture, end="")
            return 0
    if args.json:
        print_json(report)
    else:
        print(describe(report))
    return 0


def _position_report(name: str, text: str, no_limit: bool) -> tuple[dict[str, Any], Value]:
    game = partizan_game(name)
    if not text.strip():
        raise ValueError(f"say which position of {name}: the parts of a sum joined by +")
    values = PartizanValues(game, no_limit=no_limit)
    parts = [game.read(part.strip()) for part in text.split("+")]  # type: ignore[attr-defined]
    components = [c for part in parts for c in components_of(game, part)]
    component_values = [values(c) for c in components]
    total = sum_of(component_values)
    write = getattr(game, "write", str)
    report: dict[str, Any] = {
        "game": name,
        "position": text.strip(),
        "components": [
            {"position": write(c), "canonical": str(v)}
            for c, v in zip(components, component_values, strict=True)
        ],
        "positions": len(values),
    }
    report["winning_moves"] = [
        *_winning(game, values, components, component_values, True),
        *_winning(game, values, components, component_values, False),
    ]
    report["left_name"] = getattr(game, "left_name", "Left")
    report["right_name"] = getattr(game, "right_name", "Right")
    return report, total


def _winning(
    game: Any, values: PartizanValues, components: list[Any], parts: list[Value], left: bool
) -> list[dict[str, Any]]:
    """The winning moves of Left (`left`) or Right in the sum: each with its component (from 1),
    its text and the value it leaves."""
    total = sum_of(parts)
    moves = getattr(game, "moves", None)
    found = []
    for index, component in enumerate(components):
        rest = total - parts[index]
        if moves is not None:
            named = list(moves(component, left))
        else:
            options = game.left_options(component) if left else game.right_options(component)
            named = [(str(option), option) for option in options]
        for text, option in named:
            leaves = rest + values(option)
            if (leaves >= 0) if left else (leaves <= 0):
                found.append(
                    {
                        "player": "left" if left else "right",
                        "component": index + 1,
                        "move": text,
                        "leaving": str(leaves),
                    }
                )
    return found


def describe(report: dict[str, Any]) -> str:
    lines = []
    if "components" in report and len(report["components"]) > 1:
        for i, part in enumerate(report["components"], 1):
            lines.append(f"{i:>11}  {part['position']}: {part['canonical']}")
    lines.append(f"value        {report['canonical']}")
    lines.append(f"outcome      {report['outcome']}: {OUTCOMES[report['outcome']]}")
    lines.append(f"mean         {report['mean_value']}")
    lines.append(f"temperature  {report['temperature']}")
    if "relation" in report:
        words = {"=": "equal", ">": "greater", "<": "less", "||": "confused"}[report["relation"]]
        lines.append(
            f"compared     {report['canonical']} {report['relation']} {report['compared_with']}"
            f" ({words})"
        )
    if "winning_moves" in report:
        for side in ("left", "right"):
            name, side_name = report[side + "_name"], side.capitalize()
            who = name if name == side_name else f"{name} ({side_name})"
            moves = [m for m in report["winning_moves"] if m["player"] == side]
            if not moves:
                lines.append(f"{who} moving first: no move wins")
                continue
            shown = ", ".join(
                (f"{m['component']}:" if len(report["components"]) > 1 else "")
                + f"{m['move']} (leaving {m['leaving']})"
                for m in moves[:8]
            )
            more = f", and {len(moves) - 8} more" if len(moves) > 8 else ""
            lines.append(f"{who} wins moving first by {shown}{more}")
    if "output" in report:
        lines.append(f"thermograph written to {report['output']}")
    return "\n".join(lines)
