"""`zerosum games`: the games the commands know, their options and what each offers."""

from __future__ import annotations

import argparse
from typing import Any

from zerosum import registry
from zerosum.cli.common import print_json


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "The games every command takes by name (built in, or registered by an installed"
        " package under the entry-point group zerosum.games), their options, the player"
        " 'play' sets against you, and what each offers: engine (searched by the engine),"
        " dice (by expectiminimax), evaluation, solver (an exact solver or perfect player of"
        " its own), tablebase (a table can be built), endgame tables, text (moves and"
        " positions as text); games of imperfect information offer hidden information, cfr"
        " and sequence form. Your own game is named FILE.py:CLASS or MODULE:CLASS, one of"
        " OpenSpiel's openspiel:NAME."
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    rows: list[dict[str, Any]] = []
    for entry in registry.games().values():
        try:
            game = registry.make_game(entry, {}) if entry.from_position is None else None
        except ValueError as error:  # an installed game that does not load: say so, go on
            rows.append({"name": entry.name, "summary": str(error), "source": entry.source})
            continue
        rows.append(
            {
                "name": entry.name,
                "summary": entry.summary,
                "source": entry.source,
                "options": [option.name for option in entry.options],
                "player": registry.default_player(entry, game) if game else entry.player,
                "offers": list(registry.capabilities(entry, game)) if game else ["engine"],
            }
        )
    if args.json:
        print_json({"entries": rows})
        return 0
    for row in rows:
        print(f"{row['name']:<12} {row['summary']}")
        if "offers" in row:
            options = ", ".join(f"--{name}" for name in row["options"]) or "none"
            print(f"{'':12} offers: {', '.join(row['offers'])}; options: {options};"
                  f" plays as: {row['player']}")  # fmt: skip
    return 0
