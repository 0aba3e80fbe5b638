"""Compiled searches kept on disk between processes: a small module written per game and
search, whose functions numba caches (`cache=True`).

A search (the engine, MCTS, perft) calls a game's functions. numba cannot cache a closure over
them, nor a function given them as arguments (both are keyed by the dispatchers' identities,
new in every process), so the search is written as a *template*: a module of source text whose
game block (between `GAME` and `END`) binds the names the search calls (`to_move`, `legal`,
...) and `compiled`, its decorator. In the template itself they are placeholders and the
functions stay plain Python (the module can be imported and read, and is linted and typed as
any other). `build` makes the template one game's search:

- when every function of the game lives at the top of a module with a file (a built-in game's
  rules, a user's game in a file), the game block becomes imports of them by module path and
  `compiled = njit(cache=True, nogil=True)`, and the text is written to the cache directory
  (`directory()`) under a name that hashes the text, the files of the game's modules and of
  zerosum, and zerosum's version: a new process imports the same file and numba reads the
  compiled search from its cache beside it;
- otherwise (a closure, a game typed into an interpreter) the same text is run in memory with
  the functions bound, compiled once a process as before.

Every search releases the GIL while it runs (`nogil=True`): two searches in two threads run
on two cores, and a server's event loop goes on answering while a search runs. The search
takes the GIL back only to look at its budget (an object mode block, every few hundred nodes).

A file is written atomically, and checked on load: one whose text is not what it should be is
written again. Listeners of `zerosum.compiled.compiling` are told when numba really compiles,
never when it reads its cache.
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import itertools
import os
import sys
import tempfile
import threading
import types
import warnings
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["GAME", "END", "build", "directory", "placeholder", "told", "uncompiled"]

GAME = "# -- the game: bound per game by zerosum.compiled.cache --"
END = "# -- end of the game --"
"""The lines around a template's game block."""

_MEMORY = itertools.count(1)
"""Numbers the modules run in memory (each a game's)."""

ENVIRONMENT = "ZEROSUM_CACHE_DIR"
"""Where the generated modules go, if set (else `$XDG_CACHE_HOME/zerosum` or
`~/.cache/zerosum`)."""


def placeholder(*arguments: Any) -> Any:
    """A template's stand-in for a game's function: never called in the template itself."""
    raise RuntimeError("a search template's game function was called unbound")


def uncompiled(*signature: Any) -> Callable[[Any], Any]:
    """A template's stand-in for its decorator: the function as it is."""
    return lambda function: function


def directory() -> Path:
    """The folder of the generated modules (numba's cache files go beside them)."""
    if os.environ.get(ENVIRONMENT):
        return Path(os.environ[ENVIRONMENT])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "zerosum"


# A search's look at its budget (an object mode block) takes the GIL, so two threads cannot run
# it at once: numba says so as it compiles each search. That is the design, and not news to a
# user.
warnings.filterwarnings("ignore", ".*Code running in object mode won't allow parallel")

_BUILDING = threading.RLock()
"""Held while a module is built: a second thread asking for the same module waits for the
first to finish it (it is in `sys.modules`, half made, while it compiles)."""


def build(
    template: types.ModuleType,
    bindings: Mapping[str, Any],
    what: str,
    compile_now: Callable[[types.ModuleType], None],
) -> types.ModuleType:
    """`template` made a module over `bindings` (name -> the game's compiled function, or an
    integer constant), with `compile_now(module)` run in it (compiling, or
    loading from numba's cache). `what` is told to the listeners if numba compiles. One
    thread at a time builds."""
    with _BUILDING:
        imports = _imports(bindings)
        source = inspect.getsource(template)
        if imports is not None:
            key = _key(source, imports)
            name = f"zerosum_{template.__name__.rsplit('.', 1)[-1]}_{key[:20]}"
            text = _with_game(source, [*imports, _decorator(cache=True)])
            with told(f"{what} (once; later runs read the cache)"):
                module = _load(name, text)  # a search with signatures compiles as it is imported
                if module is not None:
                    compile_now(module)
            if module is not None:
                return module
        text = _with_game(source, [_decorator(cache=False)])
        module = types.ModuleType(f"zerosum_{template.__name__.rsplit('.', 1)[-1]}_{next(_MEMORY)}")
        module.__dict__.update(bindings)
        sys.modules[module.__name__] = module  # numba finds an object mode block's globals there
        with told(f"{what} (once a process)"):
            exec(compile(text, inspect.getfile(template), "exec"), module.__dict__)
            compile_now(module)
        return module


def _decorator(cache: bool) -> str:
    """The line binding a built module's `compiled`: numba without the GIL, caching on disk
    when the module is a file."""
    return f"compiled = functools.partial(njit, nogil=True{', cache=True' * cache})"


def _with_game(source: str, lines: list[str]) -> str:
    """`source` with its game block replaced by numba's imports and `lines`."""
    start, end = source.index(GAME), source.index(END)
    block = ["import functools", "", "from numba import njit", *lines]
    return source[: start + len(GAME)] + "\n" + "\n".join(block) + "\n" + source[end:]


def _imports(bindings: Mapping[str, Any]) -> list[str] | None:
    """A line binding each name to its value, or None when one cannot be written: a constant
    as itself, a function by an import, if it is defined at the top of a module with a file
    and found there by its name."""
    lines = []
    for name, value in bindings.items():
        if type(value) in (int, bool):  # a constant (a board's size): written as it is
            lines.append(f"{name} = {value!r}")
            continue
        function = getattr(value, "py_func", value)
        module = sys.modules.get(getattr(function, "__module__", "") or "")
        qualname = getattr(function, "__qualname__", "")
        if (
            module is None
            or not getattr(module, "__file__", None)
            or "." in qualname
            or getattr(module, qualname, None) is not value
        ):
            return None
        lines.append(f"from {module.__name__} import {qualname} as {name}")
    return lines


def _key(source: str, imports: list[str]) -> str:
    """A hash of everything the compiled search depends on: the template, the imports, the
    files of the modules imported and of zerosum, zerosum's and numba's versions."""
    import numba

    import zerosum

    digest = hashlib.sha256(source.encode())
    digest.update("\n".join(imports).encode())
    digest.update(f"{zerosum.__version__} {numba.__version__} {sys.version}".encode())
    digest.update(_package_digest())
    for line in imports:
        if not line.startswith("from "):
            continue
        module = sys.modules[line.split()[1]]
        digest.update(Path(str(module.__file__)).read_bytes())
    return digest.hexdigest()


@cache
def _package_digest() -> bytes:
    """A hash of zerosum's own source files (the searches' helpers, the games' constants)."""
    import zerosum

    digest = hashlib.sha256()
    root = Path(zerosum.__file__).parent
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.digest()


def _load(name: str, text: str) -> types.ModuleType | None:
    """The module `name` of `text` from the cache directory, written (again) when missing or
    not `text`; None when the directory cannot be written or the module not imported."""
    if name in sys.modules:
        return sys.modules[name]
    folder = directory()
    path = folder / f"{name}.py"
    try:
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            folder.mkdir(parents=True, exist_ok=True)
            _write_atomically(path, text)
    except (OSError, UnicodeDecodeError):
        return None
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception:  # a broken file: run in memory instead
        del sys.modules[name]
        return None
    return module


def _write_atomically(path: Path, text: str) -> None:
    """Write `text` to `path` so that no reader ever sees half of it."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


@contextmanager
def told(what: str) -> Iterator[None]:
    """Tell the listeners of `zerosum.compiled.compiling` about `what` when numba starts
    compiling within the block (once), not when it loads from its cache."""
    from numba.core import event

    from zerosum.compiled.compiling import announce

    class Listener(event.Listener):
        told = False

        def on_start(self, event: Any) -> None:
            if not self.told:
                self.told = True
                announce(what)

        def on_end(self, event: Any) -> None:
            pass

    with event.install_listener("numba:compile", Listener()):
        yield
