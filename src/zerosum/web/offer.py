"""The games the Play page offers and the program's strength in them: which games the page
plays (`offered_games`, each checked by `playable_setup`), the first message of a connection
(`games_message`: each game's kinds of strength and its default), the game and strength that
`zerosum serve --network DIR` starts with (`network_preset`), and the program's player for the
strength the page asks for (`program_spec`), in words for the page (`budget_text`).

Every strength is bounded by the server (`MOST_SECONDS`, `MOST_NODES`, `MOST_ITERATIONS`),
whatever the page asks. A trained network plays as the `az:DIR` player (the strength
"network"): the page names a run of `zerosum train` by its directory on the server's computer,
read when the player is made, so a directory without a run, or a run of another game, is
refused before the first move.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from zerosum import naming, notation, registry
from zerosum.game import Evaluating, Game, InformationSets, NumberedMoves, Observing, has_chance
from zerosum.learn.player import SIMULATIONS
from zerosum.limits import clipped, clipped_path
from zerosum.players import (
    PlayerSpec,
    Seat,
    check_budget,
    make_player,
    parse_player,
    searching_player,
)
from zerosum.web.boards import GAME_KINDS

MOST_SECONDS = 30.0
"""The most seconds the program thinks about a move: a person waits no longer at a board, and
a tab left open cannot keep a core busy for minutes."""

MOST_NODES = 50_000_000
"""The most nodes of one engine search: the compiled engine's 2 to 5 million a second reach it
in 10 to 25 seconds, the Python engine's 5,000 to 100,000 never within `MOST_SECONDS`; it
bounds a search whatever the clock (a machine slowed down by other work)."""

MOST_ITERATIONS = 5_000_000
"""The most MCTS iterations of one move: the compiled MCTS's 0.2 to 1 million a second reach it
within `MOST_SECONDS` at best; each new node keeps about 80 bytes (compiled) to 500 (Python),
so a tree stays within a few hundred megabytes. The most simulations of a trained network
too, which `MOST_SECONDS` bounds first (PUCT with a network: about 6,000 a second here)."""

STRENGTHS = ("time", "depth", "perfect", "mcts", "network")
"""The kinds of strength the page asks for (`program_spec`)."""


@dataclass(frozen=True)
class Preset:
    """What the page starts with instead of the first game and its default strength: `game`
    (a name the page offers) played by the program at `strength` (`zerosum serve --network`)."""

    game: str
    strength: dict[str, Any]


# -- the games offered ---------------------------------------------------------------------


def offered_games(own: Sequence[str] = ()) -> dict[str, registry.GameEntry]:
    """The games the page offers, by the name the page sends: the registry's games the page
    has a board of their own for (`boards.GAME_KINDS`), then `own`, the games named on
    `zerosum serve`'s command line (checked: a ValueError with the reason for a game the page
    cannot play)."""
    known = registry.games()
    offered = {
        name: entry for name, entry in known.items() if registry.loaded(entry.make) in GAME_KINDS
    }
    for name in own:
        offered[name] = playable_setup(name).entry
    return offered


def playable_setup(name: str, position: str = "") -> registry.Setup:
    """The game `name` at `position` (the registry's `setup`), checked to be one the page
    plays: two players taking turns, no dice and nothing hidden."""
    setup = registry.setup(name, position, hidden=True)
    if isinstance(setup.game, InformationSets):
        raise ValueError(f"{setup.entry.name} hides cards or dice: the Play page shows everything")
    if has_chance(setup.game):
        raise ValueError(f"{setup.entry.name} has dice: the Play page plays games without chance")
    return setup


def strengths_of(entry: registry.GameEntry, game: Game) -> list[str]:
    """The kinds of strength the program has in `game`: perfect play where the game has a
    solver or few enough positions, a depth where it has an evaluation, a trained network
    where `zerosum train` can learn the game (numbered moves, positions as planes)."""
    kinds = ["time"]
    if isinstance(game, Evaluating):
        kinds.append("depth")
    if entry.perfect is not None or entry.solver is not None or entry.solvable:
        kinds.append("perfect")
    kinds.append("mcts")
    if isinstance(game, NumberedMoves) and isinstance(game, Observing):
        kinds.append("network")
    return kinds


def games_message(
    offered: dict[str, registry.GameEntry], preset: Preset | None = None
) -> dict[str, Any]:
    """The first message of a connection: the games offered, their strengths and defaults,
    and the game the page starts with (`game`): the first offered, or `preset`'s game, whose
    default strength is then `preset`'s."""
    listed = []
    for name, entry in offered.items():
        game = playable_setup(name).game
        strengths = strengths_of(entry, game)
        default: dict[str, Any] = {"kind": "time", "seconds": 1}
        if preset is not None and name == preset.game:
            default = preset.strength
        elif entry.player.startswith("mcts"):  # the registry's choice for a large game without
            default = {"kind": "mcts", "seconds": 1}  # an evaluation (OpenSpiel's Hex, Go)
        elif "perfect" in strengths and not isinstance(game, Evaluating):
            default = {"kind": "perfect"}
        listed.append(
            {
                "name": name,
                "summary": entry.summary,
                "names": list(notation.player_names(game)),
                "strengths": strengths,
                "default": default,
            }
        )
    first = preset.game if preset is not None else next(iter(offered), None)
    return {"type": "games", "entries": listed, "game": first}


def network_preset(directory: str) -> Preset:
    """`zerosum serve --network DIR`: the game the run in `directory` learned (its name as
    `zerosum train` was given it), played by its network at the default simulations; checked
    as the page checks the strength (ValueError in one line: no run there, a game the page
    cannot play)."""
    from zerosum.learn.training import load_best

    name = load_best(directory)[0]
    setup = playable_setup(name)
    strength = {"kind": "network", "directory": directory, "simulations": SIMULATIONS}
    make_player(program_spec(setup, strength), setup.game, Seat(setup.entry))
    return Preset(name, strength)


# -- the program's strength ----------------------------------------------------------------


def program_spec(setup: registry.Setup, strength: object) -> PlayerSpec:
    """The program's player for the page's `strength` (`{"kind": "time", "seconds": 1}`,
    `{"kind": "depth", "plies": 6}`, `{"kind": "perfect"}`, `{"kind": "mcts", "seconds": 1}`,
    `{"kind": "network", "directory": "DIR", "simulations": 200}`), every search bounded by
    the server's most time and nodes; ValueError for a strength unknown, out of range or
    beyond the server's bounds. The network's run is read when the player is made
    (`make_player`), which refuses a directory without one or a run of another game."""
    if not isinstance(strength, dict):
        raise ValueError('give the strength as {"kind": "time", "seconds": 1}')
    kind, game = strength.get("kind"), setup.game
    bound = f"nodes={MOST_NODES}"
    if kind == "perfect":
        entry = setup.entry
        if entry.perfect is not None or entry.solver is not None or not entry.solvable:
            return parse_player("solver")  # refused, with the reason, for a game too large
        return parse_player(f"engine:time={MOST_SECONDS},{bound}")  # to the end, bounded
    if kind == "time":
        spec = searching_player(setup.entry, game, _seconds(strength), None)
        if spec.startswith("mcts"):  # the engine would have nothing to stop at (Hex 7x7)
            bound = f"iterations={MOST_ITERATIONS}"
        return parse_player(f"{spec},{bound}")
    if kind == "depth":
        depth = strength.get("plies")
        if not isinstance(depth, int) or isinstance(depth, bool):
            raise ValueError(f"the depth must be a whole number of plies, not {clipped(depth)}")
        check_budget("depth", depth, "the depth")
        return parse_player(f"{searching_player(setup.entry, game, MOST_SECONDS, depth)},{bound}")
    if kind == "mcts":
        seconds = _seconds(strength)
        return parse_player(f"mcts:time={seconds},iterations={MOST_ITERATIONS}")
    if kind == "network":
        directory, simulations = _network(strength)
        _refuse_code_of_another_game(directory, setup)
        return parse_player(f"az:{directory},simulations={simulations},time={MOST_SECONDS}")
    raise ValueError(f"unknown strength {clipped(kind)}: choose one of {', '.join(STRENGTHS)}")


def _seconds(strength: dict[str, Any]) -> float:
    seconds = strength.get("seconds")
    if not isinstance(seconds, (int, float)) or isinstance(seconds, bool):
        raise ValueError(f"the time per move must be a number of seconds, not {clipped(seconds)}")
    seconds = float(seconds) if abs(seconds) < 1e300 else math.inf  # an integer of 400 digits
    check_budget("time", seconds, "the time per move")
    if seconds > MOST_SECONDS:
        raise ValueError(
            f"the page thinks at most {MOST_SECONDS:g} seconds a move, not {seconds:g}"
        )
    return float(seconds)


def _network(strength: dict[str, Any]) -> tuple[str, int]:
    """The run's directory (a leading `~` is the server's user's home) and the simulations a
    move of a "network" strength, checked to fit the player spec and the server's bounds."""
    directory = strength.get("directory")
    if not isinstance(directory, str) or not directory.strip():
        raise ValueError(
            "give the directory of a run of zerosum train (zerosum train GAME --out DIR),"
            " on the computer running the server"
        )
    directory = os.path.expanduser(directory.strip())
    if "," in directory or "=" in directory:
        raise ValueError(
            f"the run's directory {clipped_path(directory)} has a ',' or '=', which the player"
            " spec az:DIR,simulations=N cannot hold: rename the directory or link to it"
        )
    simulations = strength.get("simulations", SIMULATIONS)
    if not isinstance(simulations, int) or isinstance(simulations, bool):
        raise ValueError(
            f"the simulations a move must be a whole number, not {clipped(simulations)}"
        )
    check_budget("simulations", simulations, "the simulations a move")
    if simulations > MOST_ITERATIONS:
        raise ValueError(
            f"the page searches at most {MOST_ITERATIONS:,} simulations a move, not {simulations:,}"
        )
    return directory, simulations


def _refuse_code_of_another_game(directory: str, setup: registry.Setup) -> None:
    """ValueError when the run in `directory` learned a game of the user's own code
    (`FILE.py:CLASS`, `MODULE:CLASS`) other than `setup`'s, the one being played: its manifest
    names code, and the page never loads code named in a request (the command line names it:
    `zerosum serve --game`). Also a ValueError when there is no run there."""
    from zerosum.learn.training import read_manifest

    learned = str(read_manifest(directory).get("game"))
    spec = naming.GAME_SPEC.fullmatch(learned)
    named = spec["name"] if spec is not None else learned
    if ":" in named and not named.startswith(registry.OPENSPIEL) and learned != setup.name:
        raise ValueError(
            f"the run in {directory} learned {clipped(learned)}, a game of your own code that"
            " the page does not offer: name it with zerosum serve --game to play it here"
        )


def budget_text(strength: dict[str, Any]) -> str:
    """The program's budget in words ("1 s", "depth 6", "perfect play", "200 simulations"),
    for a strength `program_spec` has accepted."""
    if strength["kind"] == "perfect":
        return "perfect play"
    if strength["kind"] == "depth":
        return f"depth {strength['plies']}"
    if strength["kind"] == "network":
        return f"{strength.get('simulations', SIMULATIONS):,} simulations"
    return f"{strength['seconds']:g} s"
