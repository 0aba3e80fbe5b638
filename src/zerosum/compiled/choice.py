"""Which engine or MCTS searches a game: the compiled one for a game with compiled rules, unless
asked otherwise.

`implementation(game, asked)` answers "compiled" or "python" for `asked` in (None, "compiled",
"python"), None meaning the default; `engine(game, impl, **settings)` and `mcts(game, impl,
**options)` make the chosen one.
"""

from __future__ import annotations

from typing import Any

from zerosum.compiled.protocol import CompiledGame, compiled_twin
from zerosum.game import Evaluating, Noisy

IMPLEMENTATIONS = ("compiled", "python")


def implementation(game: object, asked: str | None = None) -> str:
    """ "compiled" when `game` has compiled rules and `asked` is not "python", else "python";
    ValueError for an unknown `asked`, or "compiled" asked of a game without compiled rules.
    By default, compiled rules that give a search less than the Python game does (no
    evaluation, or no noisy moves for quiescence, where the Python game has them) leave the
    game to the Python search: the compiled one would search it blind."""
    if asked not in (None, *IMPLEMENTATIONS):
        raise ValueError(f"impl must be compiled or python, got {asked!r}")
    if asked == "python":
        return "python"
    try:
        twin = compiled_twin(game)
    except ValueError as error:  # rules that do not fit (a board wider than 64 bits)
        if asked == "compiled":
            raise
        del error
        twin = None
    if twin is None:
        if asked == "compiled":
            raise ValueError(
                f"{type(game).__name__} has no compiled rules: use the Python search (impl=python)"
            )
        return "python"
    if asked is None and not _as_much(twin, game):
        return "python"
    return "compiled"


def _as_much(compiled: CompiledGame, game: object) -> bool:
    """Whether `compiled` gives a search everything the Python `game` gives it."""
    if compiled.evaluate is None and isinstance(game, Evaluating):
        return False
    return not (compiled.noisy is None and isinstance(game, Noisy))


def engine(game: Any, impl: str | None = None, **settings: Any) -> Any:
    """The engine `implementation(game, impl)` names, made with `settings`."""
    if implementation(game, impl) == "compiled":
        from zerosum.compiled.engine import Engine as CompiledEngine

        return CompiledEngine(game, **settings)
    from zerosum.search.engine import Engine

    return Engine(game, **settings)


def mcts(game: Any, impl: str | None = None, **options: Any) -> Any:
    """The MCTS `implementation(game, impl)` names, made with `options`."""
    if implementation(game, impl) == "compiled":
        from zerosum.compiled.mcts import MCTS as CompiledMCTS

        return CompiledMCTS(game, **options)
    if "playouts" in options:
        raise ValueError("playouts= is the compiled MCTS's option: the Python MCTS's are random")
    from zerosum.search.mcts import MCTS

    return MCTS(game, **options)
