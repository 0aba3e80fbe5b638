"""`zerosum match GAME --a SPEC --b SPEC --games N`: two players, N games, what the score means."""

from __future__ import annotations

import argparse
from typing import Any

from zerosum import notation, players, registry
from zerosum.cli.common import add_game_argument, game_setup, print_json
from zerosum.cli.play import add_solver_options, ask_move, solver_seat
from zerosum.cli.progress import progress
from zerosum.game import Game, StateText, require
from zerosum.limits import clipped_path, counted
from zerosum.match import GAMES, MOST_MOVES, MatchResult, play_match
from zerosum.players import Seat
from zerosum.show.words import number


def add_arguments(parser: argparse.ArgumentParser) -> None:
    kinds = "; ".join(f"{name}: {kind.summary}" for name, kind in players.PLAYERS.items())
    parser.description = (
        "Play N games between players A and B, alternating who moves first, and report A's"
        " wins, draws and losses, score (with its 95% interval: Wilson's score interval)"
        f" and Elo difference. A human player leaves with q or at the end of input: the"
        f" games finished are reported (exit 0). Players: {kinds}."
    )
    add_game_argument(parser)
    parser.add_argument(
        "--a", required=True, metavar="SPEC", help="player A, e.g. mcts:iterations=800"
    )
    parser.add_argument("--b", required=True, metavar="SPEC", help="player B, e.g. random")
    parser.add_argument(
        "--games",
        type=int,
        default=10,
        help=f"number of games (default 10; {GAMES})",
    )
    parser.add_argument(
        "--openings",
        metavar="FILE",
        help=(
            "positions to start from, one per line (each played twice; none finished);"
            " else every game starts from POSITION, or the start"
        ),
    )
    parser.add_argument("--seed", type=int, default=0, help="seed for dice and random choices")
    parser.add_argument(
        "--most-moves",
        type=int,
        default=MOST_MOVES,
        metavar="N",
        help=(
            f"a game still going after N moves (a roll of the dice is a move) is scored a draw,"
            f" and counted as adjudicated (default {MOST_MOVES:,})"
        ),
    )
    add_solver_options(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    setup = game_setup(args)
    game = setup.game
    if args.games < 1:
        raise ValueError(f"--games must be at least 1, got {args.games:,}")
    try:
        GAMES.check(args.games)
    except ValueError as error:
        raise ValueError(f"--games: {error}") from None
    if args.most_moves < 1:
        raise ValueError(f"--most-moves must be at least 1, got {args.most_moves:,}")
    a, b = players.parse_player(args.a), players.parse_player(args.b)
    human = "human" in (a.kind, b.kind)
    if setup.position and args.openings is not None:
        raise ValueError("a match starts from POSITION or from --openings, not both")
    openings = _read_openings(game, args.openings) if args.openings is not None else None
    if setup.position:
        openings = [registry.unfinished(setup).state]
    solver_spec = a if a.kind == "solver" else b
    seat = Seat(setup.entry, ask=_ask, **solver_seat(args, solver_spec))
    player_a, player_b = players.player_maker(a, game, seat), players.player_maker(b, game, seat)
    with progress("games", total=args.games, what="match") as bar:
        shown = bar if not human else None

        def played(result: MatchResult) -> None:
            if shown is not None:
                shown.note(f"+{result.wins} ={result.draws} -{result.losses}")
                shown.to(result.games)

        result = play_match(
            game, player_a, player_b, args.games, openings=openings, seed=args.seed,
            progress=played, most_moves=args.most_moves,
        )  # fmt: skip
    report = match_report(args.game, a.text, b.text, result, args.most_moves)
    if args.json:
        print_json(report)
        return 0
    print(describe(report))
    return 0


def _ask(game: Game, state: Any) -> Any:
    """A human's move at this terminal, after the board; None when they leave."""
    print(notation.render(game, state))
    move = ask_move(game, state, f"player {game.to_move(state)}")
    if move is None:  # q or the end of input: the prompt's line ends here
        print("\nYou left the match (q or the end of input).")
    return move


def _read_openings(game: Game, path: str) -> list:
    require(game, StateText, "--openings")
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except OSError as error:
        raise ValueError(f"cannot read openings {clipped_path(path)}: {error.strerror}") from None
    openings = []
    for number_, line in enumerate(lines, 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        try:
            opening = notation.state_of(game, text)
        except ValueError as error:
            raise ValueError(f"{path}, line {number_}: {error}") from None
        if game.is_terminal(opening):
            raise ValueError(
                f"{path}, line {number_}: the game is already over in this position: a match"
                " plays from positions with moves to make"
            )
        openings.append(opening)
    if not openings:
        raise ValueError(f"no openings in {clipped_path(path)}")
    return openings


def match_report(game: str, a: str, b: str, result: MatchResult, most_moves: int) -> dict:
    """The JSON object of a match, from player A's side."""
    low, high = result.score_interval
    return {
        "game": game,
        "a": a,
        "b": b,
        "games": result.games,
        "wins": result.wins,
        "draws": result.draws,
        "losses": result.losses,
        "mean_score": result.score,
        "mean_score_interval": [low, high],
        "elo": None if result.elo is None else round(result.elo, 1),
        "elo_error": None if result.elo_error is None else round(result.elo_error, 1),
        "left": result.left,
        "most_moves": most_moves,
        "adjudicated": result.adjudicated,
    }


def describe(report: dict) -> str:
    low, high = report["mean_score_interval"]
    if report["elo"] is None:
        elo = "Elo difference unbounded (A scored " + (
            "everything)" if report["mean_score"] else "nothing)"
        )
    else:
        elo = f"Elo difference {report['elo']:+.1f} ± {report['elo_error']:.1f} (95%)"
    games = counted(report["games"], "game", "games")
    lines = [
        f"{report['a']} (A) against {report['b']} (B) at {report['game']}, {games}",
        f"A: {counted(report['wins'], 'win', 'wins')}, {counted(report['draws'], 'draw', 'draws')},"
        f" {counted(report['losses'], 'loss', 'losses')}",
    ]
    if report["left"]:
        lines.append("the match was left unfinished: only the games finished are counted")
    if report["adjudicated"]:
        games_ = counted(report["adjudicated"], "game", "games")
        lines.append(
            f"{games_} still going after {report['most_moves']:,} moves scored a draw (adjudicated)"
        )
    if report["games"]:
        lines.append(
            f"score {number(round(report['mean_score'], 4))}"
            f" (95% Wilson interval {low:.3f} to {high:.3f})"
        )
        lines.append(elo)
    return "\n".join(lines)
