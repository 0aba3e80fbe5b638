"""The compiled searches are kept on disk between processes (`zerosum.compiled.cache`): a second
process reads what the first compiled, says nothing about compiling, and a damaged cache file
is written again or compiled anew, never a crash."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from zerosum.compiled import cache
from zerosum.compiled.perft import perft

SEARCHES = textwrap.dedent(
    """
    import sys
    from zerosum.compiled import compiling
    compiling.listeners.append(lambda what: print("told:", what))
    from zerosum.compiled.protocol import compiled_twin
    from zerosum.registry import setup

    game = setup(sys.argv[1]).game
    compiled = compiled_twin(game)
    for kind in sys.argv[2:]:
        if kind == "engine":
            from zerosum.compiled.engine import Engine, kernel
            print("value", Engine(game).search(game.initial_state()).value)
        elif kind == "mcts":
            from zerosum.compiled.mcts import MCTS, kernel
            print("move", MCTS(game, iterations=100, seed=1).search(game.initial_state()).best_move)
        else:
            from zerosum.compiled.perft import kernel, perft
            print("nodes", perft(game, game.initial_state(), 4).nodes)
        stats = kernel(compiled).stats
        print(kind, "hits", sum(stats.cache_hits.values()), "misses",
              sum(stats.cache_misses.values()))
    """
)


def run_searches(folder: Path, game: str, *kinds: str) -> str:
    """What a new process says after searching `game` with `kinds` (engine, mcts, perft), the
    cache in `folder`."""
    environment = {
        **os.environ,
        cache.ENVIRONMENT: str(folder),
        "PYTHONPATH": os.pathsep.join(sys.path),
    }
    ran = subprocess.run(
        [sys.executable, "-c", SEARCHES, game, *kinds],
        env=environment, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    return ran.stdout


def test_a_second_process_reads_the_compiled_engine_and_mcts_from_the_cache(tmp_path):
    first = run_searches(tmp_path, "tictactoe", "engine", "mcts")
    assert "engine hits 0 misses 1" in first and "mcts hits 0 misses 1" in first
    assert "told: compiling the engine for tictactoe (once; later runs read the cache)" in first
    assert "told: compiling MCTS for tictactoe (once; later runs read the cache)" in first
    second = run_searches(tmp_path, "tictactoe", "engine", "mcts")
    assert "engine hits 1 misses 0" in second and "mcts hits 1 misses 0" in second
    assert "told" not in second
    assert "value 0" in first and "value 0" in second


def test_connect_fours_rules_of_any_size_are_cached_with_the_searches_over_them(tmp_path):
    game = "connect4(width=5,height=4)"
    first = run_searches(tmp_path, game, "perft")
    assert "perft hits 0 misses 1" in first and "told: compiling perft" in first
    second = run_searches(tmp_path, game, "perft")
    assert "perft hits 1 misses 0" in second and "told" not in second
    assert "nodes 625" in first and "nodes 625" in second
    written = sorted(path.name for path in tmp_path.glob("*.py"))
    assert [name.split("_")[1] for name in written] == ["compiled", "perft"]


USER_GAME = textwrap.dedent(
    """
    import numpy as np
    from numba import njit

    from zerosum.compiled import CompiledGame
    from zerosum.compiled.rules import python_rules
    
    ONE = np.uint64(1)


    @njit
    def initial(state):
        state[0] = 0
        state[1] = 0


    @njit
    def to_move(state):
        return np.int64(state[1])


    @njit
    def moves(state, out):
        count = 0
        for step in (1, 2):
            if state[0] + np.uint64(step) <= np.uint64(10):
                out[count] = step
                count += 1
        return count


    @njit
    def play(state, move, child):
        child[0] = state[0] + np.uint64(move)
        child[1] = ONE - state[1]


    @njit
    def terminal(state):
        return state[0] == np.uint64(10)


    @njit
    def utility(state, player):
        return -1 if np.int64(state[1]) == player else 1


    @njit
    def key(state):
        return state[0] << ONE | state[1]


    RACE = CompiledGame(
        "race to ten", words=2, max_moves=2, move_space=3, max_plies=10, initial=initial,
        to_move=to_move, moves=moves, play=play, terminal=terminal, utility=utility, key=key,
    )


    def race():
        return python_rules(RACE)
    """
)


def test_a_users_game_in_a_file_is_cached_and_a_changed_file_compiled_again(tmp_path):
    folder = tmp_path / "cache"
    game_file = tmp_path / "race_cached.py"
    game_file.write_text(USER_GAME)
    first = run_searches(folder, f"{game_file}:race", "perft")
    assert "perft hits 0 misses 1" in first and "nodes 16" in first
    assert "perft hits 1 misses 0" in run_searches(folder, f"{game_file}:race", "perft")
    game_file.write_text(USER_GAME.replace("for step in (1, 2)", "for step in (2, 1)"))
    changed = run_searches(folder, f"{game_file}:race", "perft")
    assert "perft hits 0 misses 1" in changed and "told: compiling perft" in changed


def test_a_damaged_generated_module_is_written_again(tmp_path):
    run_searches(tmp_path, "tictactoe", "perft")
    (module,) = tmp_path.glob("zerosum_perft_search_*.py")
    text = module.read_text()
    module.write_text(text[: len(text) // 2])  # cut short, as by a full disk
    again = run_searches(tmp_path, "tictactoe", "perft")
    assert "nodes 3024" in again and module.read_text() == text


def test_damaged_numba_cache_files_are_compiled_anew(tmp_path):
    run_searches(tmp_path, "tictactoe", "perft")
    damaged = list((tmp_path / "__pycache__").glob("*.nb*"))
    assert damaged
    for path in damaged:
        path.write_bytes(b"\x00garbage")
    again = run_searches(tmp_path, "tictactoe", "perft")
    assert "nodes 3024" in again and "perft hits 0 misses 1" in again


def test_a_cache_directory_that_cannot_be_written_compiles_in_memory(tmp_path, monkeypatch):
    from zerosum.compiled import perft_search
    from zerosum.games import compiled_tictactoe as rules

    blocked = tmp_path / "a file"
    blocked.write_text("")
    monkeypatch.setenv(cache.ENVIRONMENT, str(blocked / "cache"))
    for name in [name for name in sys.modules if name.startswith("zerosum_perft_search_")]:
        monkeypatch.delitem(sys.modules, name)  # read from the cache by an earlier test
    functions = {"legal": rules.moves, "play": rules.play, "terminal": rules.terminal}
    module = cache.build(perft_search, functions, "perft", lambda module: None)
    assert module.__name__.startswith("zerosum_perft_search_") and not hasattr(module, "__file__")
    states = np.zeros((4, 2), np.uint64)
    assert module.count(states, np.zeros((4, 9), np.int64), 0, 2) == 72


def test_a_closure_is_not_importable_so_its_search_runs_in_memory():
    from zerosum.games.compiled_tictactoe import tictactoe_rules

    rules = tictactoe_rules()
    assert cache._imports({"legal": rules.moves}) == [
        "from zerosum.games.compiled_tictactoe import moves as legal"
    ]

    def local() -> None:
        pass

    assert cache._imports({"legal": local}) is None
    assert perft(rules, (0, 0), 2).nodes == 72


@pytest.mark.parametrize("value", [7, True])
def test_a_constant_is_written_as_itself(value):
    assert cache._imports({"WIDTH": value}) == [f"WIDTH = {value!r}"]
