"""How a game is named: the grammar every command, the page and the player specs read.

`NAME(options)`: a name, then options in parentheses (`connect4(width=5,height=4)`,
`race.py:Race(goal=20)`), each value a JSON literal or else text (`parse_options`). A name with
a colon is a user's code: `path/to/file.py:Class` (the file's folder put first on the import
path, as when the file is run) or `package.module:Class` (`code_named`). What the names mean
(the built-in games, the installed ones, OpenSpiel's) is `zerosum.registry`'s.
"""

from __future__ import annotations

import importlib
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from zerosum.limits import clipped

GAME_SPEC = re.compile(r"\s*(?P<name>[^()]+?)\s*(?:\((?P<options>.*)\))?\s*")


def parse_options(text: str) -> dict[str, Any]:
    """`width=5,height=4` or `heaps=[3,5,8],misere=true` as a dict; each value a JSON literal
    or else text. ValueError naming a malformed item."""
    options: dict[str, Any] = {}
    for item in _split_top_level(text):
        key, equals, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not equals or not key.isidentifier() or not value:
            raise ValueError(f"bad game option {clipped(item.strip())}: expected NAME=VALUE")
        if key in options:
            raise ValueError(f"game option {key!r} given twice")
        if _nesting(value) > MOST_NESTING:  # refused alike whatever Python's recursion limit
            raise _unreadable(key, value)
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError as error:
            if value[0] in "[{":
                raise ValueError(
                    f"game option {key}={clipped(value)} is not a JSON list or object:"
                    f" {error.msg} at character {error.pos + 1}"
                ) from None
            options[key] = value
        except (ValueError, RecursionError):  # a number of over 4,300 digits, or deep brackets
            raise _unreadable(key, value) from None
    return options


MOST_NESTING = 100
"""The deepest brackets a game option's value may nest (no game takes more than two)."""


def _nesting(text: str) -> int:
    """How deep the brackets of `text` nest (quotes not told apart: a bound, not a parse)."""
    depth = deepest = 0
    for char in text:
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _unreadable(key: str, value: str) -> ValueError:
    return ValueError(
        f"game option {key}={clipped(value)} cannot be read: a number of more than 4,300"
        " digits, or brackets nested too deep"
    )


def _split_top_level(text: str) -> list[str]:
    """`text` split at the commas outside brackets and quotes; blank items dropped."""
    items, depth, quoted, start = [], 0, False, 0
    for index, char in enumerate(text):
        if char == '"' and (index == 0 or text[index - 1] != "\\"):
            quoted = not quoted
        elif not quoted and char in "[{":
            depth += 1
        elif not quoted and char in "]}":
            depth -= 1
        elif not quoted and depth == 0 and char == ",":
            items.append(text[start:index])
            start = index + 1
    items.append(text[start:])
    return [item for item in items if item.strip()]


def code_named(name: str) -> tuple[Callable[..., Any], str]:
    """The class (or function) that makes the game named `FILE.py:CLASS` or `MODULE:CLASS`, and
    the first line of its docstring (else the name); ValueError saying what was not found."""
    where, _, attribute = name.rpartition(":")
    if not where or not attribute.isidentifier():
        raise ValueError(f"bad game {clipped(name)}: expected FILE.py:CLASS or MODULE:CLASS")
    module = _module_of_file(where) if where.endswith(".py") else _module(where)
    try:
        make = getattr(module, attribute)
    except AttributeError:
        raise ValueError(f"{where} has no {attribute!r}") from None
    if not callable(make):
        raise ValueError(f"{name} is not a class or a function that makes a game")
    doc = (getattr(make, "__doc__", None) or "").strip().splitlines()
    return make, doc[0] if doc else name


def _module(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError as error:
        raise ValueError(f"cannot import {name!r}: {error}") from None
    except Exception as error:  # the user's module failed while running: say how, in one line
        raise ValueError(f"importing {name!r} failed: {type(error).__name__}: {error}") from None


def _module_of_file(path: str) -> Any:
    """The module of the Python file `path`, imported under its file name with its folder
    first on the import path (so its own imports work, and worker processes find it)."""
    file = Path(path)
    if not file.is_file():
        raise ValueError(f"no file {path!r}")
    name = file.stem
    if not name.isidentifier():
        raise ValueError(f"cannot import {path!r}: {name!r} is not a module name")
    folder = str(file.resolve().parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    module = _module(name)
    loaded = getattr(module, "__file__", None)
    if loaded is None or Path(loaded).resolve() != file.resolve():
        raise ValueError(
            f"cannot import {path!r}: the module name {name!r} is taken by {loaded or 'a'}"
            " module already; rename the file"
        )
    return module
