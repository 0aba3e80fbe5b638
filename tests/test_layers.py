"""The package's layers, read from its imports: arrows point one way.

Faces (`cli`, `web`) -> the registry and the players -> algorithms (`search`, `compiled`,
`imperfect`, `learn`, `theory`, `solve`, `show`) -> the games and the protocol. Every import is
counted, at the top of a module or inside a function (an import deferred for speed is an
arrow all the same); only the names a type checker alone reads (`if TYPE_CHECKING:`) are not.
And the command starts without the heavy libraries: what `import zerosum`, `zerosum --help` and
`zerosum games` load is read from `sys.modules` in a fresh interpreter.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

import zerosum

PACKAGE = Path(zerosum.__file__).parent

HEAVY = ("numba", "scipy", "jax", "dask", "distributed", "starlette", "uvicorn", "pyspiel")
"""Libraries that take from a tenth of a second to seconds to import: only the commands that
use them may."""


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(node: ast.AST, module: str, package: bool) -> Iterator[str]:
    """The zerosum modules the import statement `node` of `module` names (a name imported
    from a package is its submodule when there is one)."""
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names if alias.name.startswith("zerosum"))
        return
    assert isinstance(node, ast.ImportFrom)
    base = node.module or ""
    if node.level:
        parts = module.split(".")[: len(module.split(".")) - node.level + package]
        base = ".".join([*parts, base] if base else parts)
    if not base.startswith("zerosum"):
        return
    for alias in node.names:
        submodule = f"{base}.{alias.name}"
        yield submodule if submodule in modules() else base


def _statements(tree: ast.AST) -> Iterator[ast.AST]:
    """Every statement of `tree`, in functions too, except under `if TYPE_CHECKING:`."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for child in node.orelse:
                yield child
                yield from _statements(child)
            continue
        yield node
        yield from _statements(node)


@cache
def modules() -> dict[str, Path]:
    return {_module_name(path): path for path in PACKAGE.rglob("*.py")}


@cache
def imports() -> dict[str, frozenset[str]]:
    """Each module of the package and the package's modules it imports."""
    found = {}
    for name, path in modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        package = path.name == "__init__.py"
        found[name] = frozenset(
            target
            for node in _statements(tree)
            if isinstance(node, (ast.Import, ast.ImportFrom))
            for target in _imported(node, name, package)
            if target != name
        )
    return found


def arrows(source: str, target: str) -> list[str]:
    """The imports from modules of the package `source` to modules of `target`."""
    return sorted(
        f"{module} -> {imported}"
        for module, imported_ in imports().items()
        if module == source or module.startswith(source + ".")
        for imported in imported_
        if imported == target or imported.startswith(target + ".")
    )


def test_the_import_graph_is_read_from_every_module():
    assert len(modules()) > 150
    assert "zerosum.registry" in imports()["zerosum.cli.common"]
    assert "zerosum.compiled.alphabeta_search" in imports()["zerosum.compiled.engine"]
    # an import inside a function counts: the Connect Four solver loads its kernel on demand
    assert "zerosum.solve.compiled_connect4" in imports()["zerosum.solve.connect4"]


def test_the_page_imports_nothing_from_the_command_line():
    assert arrows("zerosum.web", "zerosum.cli") == []


def test_the_command_line_imports_the_page_only_to_serve_it():
    assert {arrow.split(" -> ")[0] for arrow in arrows("zerosum.cli", "zerosum.web")} == {
        "zerosum.cli.serve"
    }


def test_learning_imports_neither_the_registry_nor_the_players():
    assert arrows("zerosum.learn", "zerosum.registry") == []
    assert arrows("zerosum.learn", "zerosum.players") == []


ENVIRONMENTS = "zerosum.adapters.pettingzoo"
"""PettingZoo's environments: a face, for the code that learns (`env("connect4")`)."""


@pytest.mark.parametrize("layer", ["zerosum.games", "zerosum.adapters"])
def test_games_import_no_algorithm_and_no_face(layer):
    """A game's compiled twin may use the compiled layer's protocol and bits, nothing else."""
    for above in ("search", "solve", "imperfect", "learn", "theory", "show", "cli", "web"):
        assert arrows(layer, f"zerosum.{above}") == []
    games = [arrow for arrow in arrows(layer, "zerosum.registry") if ENVIRONMENTS not in arrow]
    assert games == arrows(layer, "zerosum.players") == []
    twins = {arrow.split(" -> ")[0] for arrow in arrows(layer, "zerosum.compiled")}
    assert all(name.rsplit(".", 1)[-1].startswith("compiled_") for name in twins), twins


def test_the_environments_name_their_games_by_the_registry_and_nothing_imports_them():
    """As the command line and the page, PettingZoo's environments read a game's name by the
    registry; and as they, they are imported by none of the package's modules."""
    assert arrows(ENVIRONMENTS, "zerosum.registry") == [f"{ENVIRONMENTS} -> zerosum.registry"]
    assert arrows("zerosum", ENVIRONMENTS) == []


def test_a_game_never_imports_its_compiled_twin():
    for module, imported in imports().items():
        if module.startswith("zerosum.games.") and "compiled_" not in module:
            assert not [name for name in imported if "compiled" in name], module


def _cycles() -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    graph = imports()
    index: dict[str, int] = {}
    lowest: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(module: str) -> None:
        index[module] = lowest[module] = len(index)
        stack.append(module)
        for imported in graph.get(module, ()):
            if imported not in index:
                visit(imported)
                lowest[module] = min(lowest[module], lowest[imported])
            elif imported in stack:
                lowest[module] = min(lowest[module], index[imported])
        if lowest[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def test_no_module_imports_itself_through_others():
    assert _cycles() == []


def test_the_cycle_finder_finds_a_circle(monkeypatch):
    circle = {"zerosum.a": frozenset({"zerosum.b"}), "zerosum.b": frozenset({"zerosum.a"})}
    monkeypatch.setattr(sys.modules[__name__], "imports", lambda: circle)
    assert _cycles() == [["zerosum.a", "zerosum.b"]]


def _loaded_by(code: str) -> dict[str, object]:
    """What a fresh interpreter has imported after running `code`: the heavy libraries and
    the number of zerosum's modules."""
    body = textwrap.indent(code, " " * 8)
    probe = textwrap.dedent(
        """
        import contextlib, io, json, sys
        quiet = io.StringIO()
        with contextlib.redirect_stdout(quiet), contextlib.redirect_stderr(quiet):
            try:
        {body}
            except SystemExit:
                pass
        heavy = [name for name in {heavy!r} if name in sys.modules]
        ours = [name for name in sys.modules if name.startswith("zerosum")]
        print(json.dumps({{"heavy": heavy, "ours": len(ours)}}))
        """
    ).format(body=body, heavy=HEAVY)
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    return json.loads(done.stdout)


def test_import_zerosum_loads_no_heavy_library():
    assert _loaded_by("import zerosum")["heavy"] == []


def test_help_imports_no_command_and_no_heavy_library():
    loaded = _loaded_by("from zerosum.cli import main\nmain(['--help'])")
    assert loaded["heavy"] == []
    assert loaded["ours"] <= 10  # the package, the command's table, the registry and its words


def test_the_list_of_games_loads_the_games_and_no_heavy_library():
    loaded = _loaded_by("from zerosum.cli import main\nmain(['games'])")
    assert loaded["heavy"] == []


def test_a_search_to_the_end_in_python_loads_no_compiler():
    loaded = _loaded_by("from zerosum.cli import main\nmain(['solve', 'tictactoe'])")
    assert loaded["heavy"] == []


def test_the_registry_describes_its_games_without_importing_them():
    loaded = _loaded_by(
        "from zerosum import registry\n"
        "names = sorted(registry.games())\n"
        "assert {'chess', 'connect4', 'othello'} <= set(names)\n"
        "assert not [m for m in sys.modules if m.startswith('zerosum.games.')]"
    )
    assert loaded["heavy"] == []
