"""Every game by name: the one list the commands ask.

A command never names a game. It hands the registry what the user typed and gets back a
`GameEntry` (what the game is called, how to make it, what it offers: its options, its
default player, its own perfect player and exact solver) and the game made, at the position
the user gave (`setup`). Players by name are `zerosum.players`.

**Naming a game.** One grammar, wherever a game is expected, tried in this order:

1. `NAME`: a built-in game (`zerosum games` lists them), or one that an installed package
   registers under the entry-point group `zerosum.games` (a built-in name wins a clash);
2. `path/to/file.py:Class`: the class `Class` of that Python file (its folder is put first
   on the import path, as when the file is run);
3. `package.module:Class`: the class `Class` of an importable module;
4. `openspiel:NAME`: OpenSpiel's game `NAME` (`zerosum.adapters.openspiel`, which says which
   games it takes), its parameters OpenSpiel's own: `openspiel:breakthrough(rows=6,columns=6)`.

Any of them may end with options in parentheses, passed to the game's constructor as keyword
arguments: `connect4(width=5,height=4)`, `race.py:Race(goal=20)`. Each value is read as a JSON
literal (`5`, `0.5`, `true`, `"text"`, `[3,5,8]`), or else taken as text. A built-in game
checks its options (`GameEntry.options`); the command line also takes them as flags
(`--width 5`). A game from a file or a module gets them as they are.

A game without text methods still plays: `format_move`, `parse_move`, `render` and
`player_names` here fall back on `str` and the players' numbers.
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from zerosum.game import (
    Evaluating,
    Game,
    InformationSets,
    Keyed,
    MoveText,
    NumberedMoves,
    Observing,
    StateText,
    has_chance,
)
from zerosum.limits import check_megabytes, clipped
from zerosum.naming import GAME_SPEC, code_named, parse_options
from zerosum.notation import state_of

if TYPE_CHECKING:
    from zerosum.match import Chooser
    from zerosum.solve.answer import ExactSolver

ENTRY_POINT_GROUP = "zerosum.games"

# -- games ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Named:
    """A class or function named by where it lives (`"zerosum.games.connect4:ConnectFour"`,
    `"zerosum.games.chess.syzygy:Syzygy.open"`), imported when it is first called: the registry
    describes every built-in game without importing one, nor its solver (numpy, python-chess,
    numba wait for the command that needs them)."""

    where: str

    def load(self) -> Any:
        """What the name names (its module imported, once a process)."""
        module, _, path = self.where.partition(":")
        target: Any = importlib.import_module(module)
        for attribute in path.split("."):
            target = getattr(target, attribute)
        return target

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.load()(*args, **kwargs)

    def names(self, target: Any) -> bool:
        """Whether this is the name of `target` (a class or function), told without importing."""
        return self.where == f"{target.__module__}:{target.__qualname__}"


def loaded(reference: Any) -> Any:
    """What `reference` refers to: a `Named` one loaded, anything else as it is."""
    return reference.load() if isinstance(reference, Named) else reference


def refers_to(reference: Any, target: Any) -> bool:
    """Whether `reference` (a `GameEntry`'s `make` or `solver`: a `Named` or the object itself)
    is `target`, told without importing what a name names."""
    return reference.names(target) if isinstance(reference, Named) else reference is target


@dataclass(frozen=True)
class GameOption:
    """An option of a built-in game: the constructor's keyword `name`, how a value typed on
    the command line becomes its argument (`convert`, ValueError with the reason), and whether
    it is a switch that takes no value (`--misere`)."""

    name: str
    convert: Callable[[Any], Any]
    help: str
    switch: bool = False


@dataclass(frozen=True)
class GameEntry:
    """A game as the registry knows it.

    `make(**options)` builds it. What it offers beside the `Game` protocol is discovered on
    the game itself (`capabilities`); the entry adds what the game's rules do not say: its
    `options`, the player `play` sets against a human (`player`, a player spec; "" for the
    default by capability), its own `perfect` player and exact `solver` when it has them,
    the endgame `tables` it reads (a path to a `Tablebase`), for a game its position defines
    (a tree) `from_position(text) -> (game, state)`, and whether its positions are few enough
    to solve by a search to the end or enumerate into a table (`solvable`; chess's are not).
    """

    name: str
    make: Callable[..., Game]
    summary: str
    options: tuple[GameOption, ...] = ()
    player: str = ""
    perfect: Callable[[Game], Chooser] | None = None
    solver: Callable[..., ExactSolver] | None = None
    tables: Callable[[str], Any] | None = None
    from_position: Callable[[str], tuple[Game, Any]] | None = None
    solvable: bool = True
    source: str = "built in"

    def option(self, name: str) -> GameOption | None:
        return next((option for option in self.options if option.name == name), None)

    def own_solver(self, game: Game, table_mb: float | None = None) -> ExactSolver | None:
        """The game's own exact solver for `game` (None when it has none), its table of
        `table_mb` megabytes when given; ValueError when that size is not one the machine can
        give, or the game has no solver keeping a table (`--table-mb`)."""
        if table_mb is None:
            return None if self.solver is None else self.solver(game)
        if self.solver is None or not getattr(loaded(self.solver), "has_table", False):
            kind = "its own solver" if self.solver is not None else "an exact search"
            raise ValueError(
                f"--table-mb sizes the table of an exact solver that keeps one (connect4's):"
                f" {self.name} is solved by {kind}, which keeps none"
            )
        check_megabytes(table_mb, "--table-mb")
        return self.solver(game, table_mb=table_mb)


INTEGER_DIGITS = 100
"""The most digits of an integer game option typed as text (far more than any game takes)."""


def _integer_of(what: str) -> Callable[[Any], int]:
    """A converter to an integer (the game checks its range)."""
    return functools.partial(_integer, what=what)


def _integer(value: Any, what: str) -> int:
    """`value` (an integer, or its text) as an integer; ValueError naming `what` otherwise."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ValueError(f"{what} must be an integer, got {clipped(value)}")
    if isinstance(value, str):
        if not re.fullmatch(r"\s*-?\d+\s*", value):
            raise ValueError(f"{what} must be an integer, got {clipped(value)}")
        if len(value.strip()) > INTEGER_DIGITS:
            raise ValueError(f"{what} must be an integer of at most {INTEGER_DIGITS} digits")
        return int(value)
    return value


def _heaps(value: Any) -> tuple[int, ...]:
    if isinstance(value, list):
        value = ",".join(map(str, value))
    if not isinstance(value, (str, int)) or isinstance(value, bool):
        raise ValueError(f"heaps must be sizes like 3,5,8, got {clipped(value)}")
    from zerosum.games.nim import playable_heaps

    return playable_heaps(str(value))


def _number(value: Any) -> float:
    """A real option's value (komi): a number, or its text; ValueError otherwise (the game
    checks its range)."""
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            raise ValueError(f"komi must be a number, got {clipped(value)}") from None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"komi must be a number, got {clipped(value)}")
    return value


def _switch(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    raise ValueError(f"expected true or false, got {clipped(value)}")


def _tree_setup(text: str) -> tuple[Game, Any]:
    if not text:
        raise ValueError('tree needs the tree itself, e.g. "[[3,12,8],[2,4,6],[14,5,2]]"')
    from zerosum.games.tree import Tree

    tree = Tree.from_text(text)
    return tree, tree.initial_state()


def ordered_perfect(order: list[Any]) -> Callable[[Game], Chooser]:
    """A perfect player that searches to the end with alpha-beta in `order`, taking the
    quickest win and delaying a loss."""

    def make(game: Game) -> Chooser:
        from zerosum.search.exact import alphabeta
        from zerosum.search.ordering import by_priority

        move_order = by_priority(order)
        return lambda state: alphabeta(game, state, order=move_order, distance=True).best_move

    return make


def _nim_perfect(game: Game) -> Chooser:
    """Bouton's move to a P position, or one object from the largest heap when none is."""
    from zerosum.games.nim import Nim
    from zerosum.theory.nim import winning_move

    assert isinstance(game, Nim)

    def choose(state: Any) -> Any:
        heaps, _ = state
        move = winning_move(heaps, game.misere)
        if move is not None:
            return (move.heap, move.remove)
        return (heaps.index(max(heaps)), 1)

    return choose


IMPERFECT_PLAYER = "cfr+ (1,000 iterations)"
"""What `play` sets against a human in a game of imperfect information: the average strategy
of 1,000 iterations of CFR+, unless a strategy file is given."""


def _pig_perfect(game: Game) -> Chooser:
    from zerosum.games.pig import Pig
    from zerosum.solve.pig import check_target, solved

    assert isinstance(game, Pig)
    check_target(game.target, liftable=False)  # a player has no --no-limit
    return solved(game.target).best_move


BUILT_IN: tuple[GameEntry, ...] = (
    GameEntry(
        "tictactoe",
        Named("zerosum.games.tictactoe:TicTacToe"),
        "tic-tac-toe: squares 0-8 row by row, positions like XOX.O....",
        player="solver",
        perfect=ordered_perfect([4, 0, 2, 6, 8, 1, 3, 5, 7]),
    ),
    GameEntry(
        "connect4",
        Named("zerosum.games.connect4:ConnectFour"),
        "Connect Four: columns 1-7, positions as the columns played (4453)",
        options=(
            GameOption("width", _integer_of("width"), "columns (default 7)"),
            GameOption("height", _integer_of("height"), "rows (default 6)"),
            GameOption("connect", _integer_of("connect"), "stones in a line to win (4)"),
        ),
        player="engine:time=2",
        solver=Named("zerosum.solve.connect4:ConnectFourExact"),
    ),
    GameEntry(
        "nim",
        Named("zerosum.games.nim:Nim"),
        "Nim: heaps like 3 5 8, a move takes from one heap (2:3), the last object wins",
        options=(
            GameOption("heaps", _heaps, "the heap sizes, e.g. 3,5,8 (the start)"),
            GameOption("misere", _switch, "whoever takes the last object loses", switch=True),
        ),
        player="solver",
        perfect=_nim_perfect,
    ),
    GameEntry(
        "pig",
        Named("zerosum.games.pig:Pig"),
        "Pig: roll or hold one die, a 1 loses the turn total, first to the target wins",
        options=(GameOption("target", _integer_of("target"), "the score that wins (100)"),),
        player="solver",
        perfect=_pig_perfect,
        solver=Named("zerosum.solve.pig:PigExact"),
    ),
    GameEntry(
        "backgammon",
        Named("zerosum.games.backgammon:Backgammon"),
        "backgammon without the cube: turns like 24/18 13/11, gammons and backgammons",
        player="expectiminimax:depth=1",
        solvable=False,
    ),
    GameEntry(
        "chess",
        Named("zerosum.games.chess:Chess"),
        "chess on python-chess's rules: moves in SAN or UCI, positions as FEN",
        player="engine:time=5",
        tables=Named("zerosum.solve.chess_tables:endgame_tables"),
        solvable=False,
    ),
    GameEntry(
        "tree",
        Named("zerosum.games.tree:Tree"),
        'a game tree as nested lists, e.g. "[[3,12,8],[2,4,6],[14,5,2]]"',
        player="solver",
        from_position=_tree_setup,
    ),
    GameEntry(
        "othello",
        Named("zerosum.games.othello:Othello"),
        "Othello: squares a1-h8 from the top left (d3) or pass, positions as the moves (d3c5)",
        player="engine:time=2",
        solvable=False,
    ),
    GameEntry(
        "go",
        Named("zerosum.games.go:Go"),
        "Go, 9x9 by default: points like D4 (GTP) or pass, area scoring, komi 7.5, superko",
        options=(
            GameOption("size", _integer_of("size"), "points on a side, 5 to 19 (9)"),
            GameOption("komi", _number, "points given to White, a multiple of 0.5 (7.5)"),
        ),
        player="mcts:time=2",
        solvable=False,
    ),
    GameEntry(
        "kuhn",
        Named("zerosum.games.kuhn:KuhnPoker"),
        "Kuhn poker: three cards, one each, one bet (check, bet, fold, call); hidden cards",
        player=IMPERFECT_PLAYER,
    ),
    GameEntry(
        "leduc",
        Named("zerosum.games.leduc:LeducPoker"),
        "Leduc hold'em: six cards, a private card and a public one, two betting rounds",
        player=IMPERFECT_PLAYER,
    ),
    GameEntry(
        "liars-dice",
        Named("zerosum.games.liars_dice:LiarsDice"),
        "Liar's Dice: hidden dice, bids like 2-5 (two fives or more; sixes are wild), liar",
        options=(
            GameOption("numdice", _integer_of("numdice"), "dice per player (1)"),
            GameOption("faces", _integer_of("faces"), "faces of a die (6)"),
        ),
        player=IMPERFECT_PLAYER,
    ),
)

GAME_OPTIONS: tuple[GameOption, ...] = tuple(
    {option.name: option for entry in BUILT_IN for option in entry.options}.values()
)
"""Every option of a built-in game, once: the flags every command taking a game accepts."""


def games() -> dict[str, GameEntry]:
    """The games known by name: the built-in ones, then those of installed packages."""
    known = {entry.name: entry for entry in BUILT_IN}
    for name, entry in _installed_games().items():
        known.setdefault(name, entry)
    return known


def _installed_games() -> dict[str, GameEntry]:
    """The games installed packages register under the entry-point group `zerosum.games`:
    each entry point names a `GameEntry`, a game class or a function returning a game."""
    found = {}
    for point in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        found[point.name] = GameEntry(
            point.name,
            functools.partial(_load_entry_point, point),
            f"from {point.value}",
            source=f"entry point {point.value}",
        )
    return found


def _load_entry_point(point: importlib.metadata.EntryPoint, **options: Any) -> Game:
    try:
        target = point.load()
    except Exception as error:  # a broken installed package: say which, in one line
        raise ValueError(f"cannot load game {point.name!r} from {point.value}: {error}") from None
    if isinstance(target, GameEntry):
        return make_game(target, options)
    return _construct(target, options, point.value)


@dataclass(frozen=True)
class Setup:
    """A game as the user named it and the position to start from: the registry's `entry`,
    the `game` made with its options, the `state`, and the texts they were read from."""

    entry: GameEntry
    game: Game
    state: Any
    name: str
    position: str = ""


def setup(
    name: str,
    position: str = "",
    flags: Mapping[str, Any] | None = None,
    *,
    hidden: bool = False,
) -> Setup:
    """The game `name` names (see the module), made with the options in `name` and `flags` (a
    built-in game's options from the command line), and the position `position` describes in
    it (the start when empty). ValueError saying what is wrong: an unknown name, a file or
    class not found, an option the game does not take, a bad value, a malformed position, or
    a game of imperfect information (`InformationSets`) where the caller does not take one
    (`hidden` false: tree search would see the hidden cards)."""
    match = GAME_SPEC.fullmatch(name)
    if not name.strip() or match is None:
        raise ValueError(f"bad game {clipped(name)}: expected NAME, FILE.py:CLASS or MODULE:CLASS")
    named = match["name"]
    options = parse_options(match["options"]) if match["options"] is not None else {}
    flags = {key: value for key, value in (flags or {}).items() if value is not None}
    for key in flags.keys() & options.keys():
        raise ValueError(f"option {key!r} given twice: in {clipped(name)} and as --{key}")
    options.update(flags)
    known = games()
    if named in known:
        entry = known[named]
    elif named.startswith(OPENSPIEL):
        entry = _openspiel_entry(named)
    elif ":" in named:
        entry = _entry_from_code(named)
    else:
        names = ", ".join(sorted(known))
        raise ValueError(
            f"unknown game {clipped(named)}: choose one of {names}, name your own as"
            " FILE.py:CLASS or MODULE:CLASS, or one of OpenSpiel's as openspiel:NAME"
        )
    if entry.from_position is not None:
        if options:
            raise ValueError(f"{entry.name} takes no options: its position defines it")
        game, state = entry.from_position(position)
        return Setup(entry, game, state, name, position)
    game = make_game(entry, options)
    if entry.source == OPENSPIEL_SOURCE:  # what it offers depends on its parameters
        few = bool(getattr(game, "few_positions", False))  # on a small board (Hex 4x4)
        entry = replace(entry, player=_openspiel_player(entry, game), solvable=few)
    if isinstance(game, InformationSets):
        if not hidden:
            raise ValueError(
                f"{entry.name} is a game of imperfect information (each player sees only part"
                f" of it), where tree search does not apply: 'zerosum cfr {name}' computes its"
                f" equilibrium, 'zerosum solve {name}' solves it exactly, 'zerosum play {name}'"
                " plays it"
            )
        if position:
            raise ValueError(f"{entry.name} starts from the deal: it takes no position")
    return Setup(entry, game, state_of(game, position), name, position)


def named_game(game: Game | str) -> Game:
    """The game `game` names in the command line's grammar (see the module: `connect4`,
    `connect4(width=5)`, `race.py:Race`, `openspiel:go(board_size=9)`), made with its options;
    a game object as it is. ValueError saying what is wrong with a name. Every Python entry
    point that takes a game above the algorithms goes through it (PettingZoo's environments,
    `players.player_maker`): the algorithms take the game itself."""
    if not isinstance(game, str):
        return game
    return setup(game, hidden=True).game  # a game of hidden cards refused by the caller


def make_game(entry: GameEntry, options: Mapping[str, Any]) -> Game:
    """`entry`'s game made with `options` (checked against its declared options when it
    declares them); ValueError with the reason."""
    arguments = dict(options)
    if entry.source == "built in":
        for key, value in options.items():
            option = entry.option(key)
            if option is None:
                takes = ", ".join(o.name for o in entry.options) or "none"
                raise ValueError(
                    f"{entry.name} has no option {clipped(key)} (its options: {takes})"
                )
            try:
                arguments[key] = option.convert(value)
            except ValueError as error:
                raise ValueError(f"{entry.name} option {key}: {error}") from None
    return _construct(entry.make, arguments, entry.name)


def _construct(make: Callable[..., Any], options: Mapping[str, Any], name: str) -> Game:
    """The game `make(**options)` makes, checked to have a game's methods; ValueError saying
    why not: options it does not take, any error its constructor raised (in one line, named by
    its kind: the user's code is not ours to show a traceback of), or a missing method."""
    try:
        game = make(**options)
    except TypeError as error:
        raise ValueError(f"cannot make {name} with {_shown(options)}: {error}") from None
    except ValueError:  # the game's own refusal of an option, already saying why
        raise
    except Exception as error:  # the constructor failed: say how, in one line
        raise ValueError(
            f"making {name} with {_shown(options)} failed: {type(error).__name__}: {error}"
        ) from None
    missing = [m for m in GAME_METHODS if not callable(getattr(game, m, None))]
    if missing:
        raise ValueError(
            f"{name} is not a game: it lacks {', '.join(missing)} (see docs/your-own-game.md)"
        )
    return game


GAME_METHODS = ("initial_state", "to_move", "legal_moves", "result", "is_terminal", "utility")


def _shown(options: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={clipped(v)}" for k, v in options.items()) or "no options"


def _entry_from_code(name: str) -> GameEntry:
    """The entry of a game class named `FILE.py:CLASS` or `MODULE:CLASS`."""
    make, summary = code_named(name)
    return GameEntry(name, make, summary, source=name)


OPENSPIEL = "openspiel:"
"""The prefix of OpenSpiel's games in the grammar (`openspiel:NAME(k=v,...)`)."""
OPENSPIEL_SOURCE = "OpenSpiel"
OPENSPIEL_SOLVED = frozenset({"tic_tac_toe"})
"""OpenSpiel's games that `play` answers with a search to the end (the others with MCTS, or
the engine where the game has an evaluation)."""


def _openspiel_entry(named: str) -> GameEntry:
    """The entry of OpenSpiel's game `openspiel:NAME`; ValueError when OpenSpiel is not
    installed, saying how to install it."""
    try:
        from zerosum.adapters import openspiel
    except ImportError as error:
        if error.name not in ("pyspiel", "open_spiel"):
            raise
        raise ValueError(
            f"{clipped(named)} is a game of OpenSpiel, which is not installed:"
            " pip install 'zerosum[openspiel]'"
        ) from None
    name = named.removeprefix(OPENSPIEL).strip()
    return GameEntry(
        named,
        functools.partial(openspiel.make, name),
        f"OpenSpiel's {name}",
        solvable=False,  # until its game is made: `setup` says how large its board is
        source=OPENSPIEL_SOURCE,
    )


def openspiel_spec(game_class: str, parameters: Mapping[str, Any]) -> str | None:
    """`openspiel:NAME(k=v,...)` for a game an OpenSpiel adapter class made with `parameters`
    (as a table file records them: `game_class` is `module.Class`), else None."""
    if not game_class.startswith("zerosum.adapters.openspiel."):
        return None
    name, given = parameters.get("name"), parameters.get("parameters")
    if not isinstance(name, str) or not isinstance(given, dict):
        return None
    options = ",".join(f"{key}={json.dumps(value)}" for key, value in given.items())
    return f"{OPENSPIEL}{name}({options})" if options else f"{OPENSPIEL}{name}"


def _openspiel_player(entry: GameEntry, game: Game) -> str:
    """The player `play` sets against a human in an OpenSpiel game, by what the game offers:
    CFR+ for hidden cards, a search to the end for the smallest, the engine (or expectiminimax)
    where it has an evaluation, else MCTS with random playouts."""
    if isinstance(game, InformationSets):
        return IMPERFECT_PLAYER
    if entry.name.removeprefix(OPENSPIEL) in OPENSPIEL_SOLVED:
        return "solver"
    if isinstance(game, Evaluating):
        return "expectiminimax:depth=2" if has_chance(game) else "engine:time=2"
    return "mcts:time=2"


def default_player(entry: GameEntry, game: Game) -> str:
    """The player `play` sets against a human when none is asked for: the entry's own, else
    by what the game offers (expectiminimax for dice with an evaluation, the engine for an
    evaluation, else a search to the end)."""
    if entry.player:
        return entry.player
    if has_chance(game):
        return "expectiminimax:depth=2" if isinstance(game, Evaluating) else "solver"
    return "engine:time=2" if isinstance(game, Evaluating) else "solver"


def end_in_reach(entry: GameEntry, game: Game) -> bool:
    """Whether a tree search of `game` has somewhere to stop: an evaluation at a depth, or the
    end of the game within reach (positions few enough to search to the end)."""
    return isinstance(game, Evaluating) or entry.solvable


def require_an_end_in_reach(entry: GameEntry, game: Game, remedy: str) -> None:
    """ValueError when a search of `game` could stop only at the end of the game (it has no
    evaluation) and the end is out of reach (too many positions: OpenSpiel's Go, Hex 11x11,
    pig), saying `remedy`: such a search runs without end, or with a budget stops before one
    move is searched and plays the first legal move."""
    if not end_in_reach(entry, game):
        raise ValueError(
            f"{entry.name} has no evaluation and too many positions to search to the end: {remedy}"
        )


def unfinished(setup: Setup) -> Setup:
    """`setup`, checked to be a position with moves to search; ValueError when the game is over."""
    if setup.game.is_terminal(setup.state):
        raise ValueError(
            f"the game is already over in {clipped(setup.position)}: nothing to search"
        )
    return setup


# -- what a game offers --------------------------------------------------------------------


def capabilities(entry: GameEntry, game: Game) -> tuple[str, ...]:
    """What `game` offers the commands, in words: `engine` (searched by the engine), `dice`
    (chance, searched by expectiminimax), `evaluation`, `solver` (its own exact solver),
    `tablebase` (keyed: a table can be built), `text` (moves and positions as text),
    `training` (`zerosum train` learns it: self-play with a network, TD(lambda) for Pig); for a
    game of imperfect information, `hidden information`, `cfr` and `sequence form` (solved by
    `zerosum cfr` and `zerosum solve`)."""
    if isinstance(game, InformationSets):
        return ("hidden information", "cfr", "sequence form")
    offers = []
    offers.append("dice" if has_chance(game) else "engine")
    if isinstance(game, Evaluating):
        offers.append("evaluation")
    if entry.solver is not None or entry.perfect is not None:
        offers.append("solver")
    if entry.solvable and isinstance(game, Keyed) and not has_chance(game):
        offers.append("tablebase")
    if entry.tables is not None:
        offers.append("endgame tables")
    if isinstance(game, MoveText) and isinstance(game, StateText):
        offers.append("text")
    from zerosum.games.pig import Pig

    numbered = isinstance(game, NumberedMoves) and isinstance(game, Observing)
    if (numbered and not has_chance(game)) or isinstance(game, Pig):
        offers.append("training")
    return tuple(offers)


def table_games() -> tuple[GameEntry, ...]:
    """The built-in games a table can be built for from their start (`tablebase` among their
    `capabilities`): no dice, positions few enough, keyed, and no tree to give first."""
    return tuple(
        entry
        for entry in BUILT_IN
        if entry.from_position is None and "tablebase" in capabilities(entry, entry.make())
    )


def entry_of(game: Game) -> GameEntry:
    """The registry's entry for a game object: the built-in one of its class, else an entry
    that knows only its class."""
    for entry in BUILT_IN:
        if refers_to(entry.make, type(game)):
            return entry
    cls = type(game)
    return GameEntry(cls.__name__, cls, cls.__name__, source=f"{cls.__module__}.{cls.__name__}")
