"""The engine against easyAI, aima and OpenSpiel on Connect Four, same depth, same evaluation.

Every search gets the same positions, the same depth in plies and the same leaf evaluation
(zerosum's threat-aware `ConnectFour.evaluate`, from the searching player's point of view):

- zerosum `Engine` (table, killers, history, iterative deepening, PVS; quiescence off, so
  that leaves are judged exactly as the peers judge them);
- easyAI's `Negamax` with its `TranspositionTable`. Its shipped Connect Four has no `ttentry`
  hook and a numpy board; the benchmark plays it on an adapter over zerosum's bitboard game
  (`possible_moves`, `make_move`/`unmake_move`, `ttentry` = the position key, `scoring` = the
  evaluation), so both sides share the rules and the evaluation and only the search differs;
- easyAI's `Negamax` with its `TranspositionTable` on its own shipped `ConnectFour` (numpy
  board, moves left to right, a copy of the game per node unless `unmake_move` exists): the
  benchmark adds the missing hooks (`ttentry` = the board's bytes, `unmake_move`) and plugs the
  same evaluation in through a conversion of the board to bitboards, whose cost is included;
- aima-python's alpha-beta with a depth cut-off, over an adapter to zerosum's rules: by
  default `alphabeta_cutoff_search` from the `aima3` package (aima-python's code packaged on
  PyPI), or `alpha_beta_cutoff_search` from a checkout of aima-python's
  repository named with `--aima DIR` (the same function, renamed since). Its depth is off by
  one (`d` = 0 already searches one ply), so it is called with `d = plies - 1`; its own Connect
  Four (6 columns x 7 rows by default) is not used;
- OpenSpiel's Python `alpha_beta_search` on its own `connect_four` (C++ rules, columns left to
  right); its `value_function` replays the state's history into zerosum's game to evaluate it,
  a cost measured apart and shown.

Times are one run each (this machine is shared); the ratio is the peer's time over zerosum's.
Needs the `bench-search` extra (`pip install -e '.[bench-search]'`: easyAI, OpenSpiel, aima3),
or with `--peers` only the extras of the peers named (`bench-easyai`, `bench-aima`,
`bench-openspiel`).

    python benchmarks/engine_peers.py [--depth 6] [--deeper 2] [--aima PATH/TO/aima-python]
                                      [--peers easyai,easyai-own,aima,openspiel]
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

from zerosum.games.connect4 import ConnectFour
from zerosum.search.engine import Engine

POSITIONS = ["", "4453", "44444326", "3435261"]
GAME = ConnectFour()


def evaluation(state, player):
    return GAME.evaluate(state, player)


def zerosum_search(state, depth):
    result = Engine(GAME, quiescence=False).search(state, depth=depth)
    return result.best_move, result.stats.nodes


# -- easyAI ------------------------------------------------------------------------------------


def easyai_search(state, depth):
    from easyAI import AI_Player, Negamax, TwoPlayerGame
    from easyAI.AI import TranspositionTable

    class BitboardConnectFour(TwoPlayerGame):
        """easyAI's game interface over zerosum's bitboard rules and evaluation."""

        def __init__(self, players, start):
            self.players = players
            self.stack = [start]
            self.current_player = 1 + GAME.to_move(start)
            self.nodes = 0

        def possible_moves(self):
            return GAME.legal_moves(self.stack[-1])

        def make_move(self, move):
            self.nodes += 1
            self.stack.append(GAME.result(self.stack[-1], move))

        def unmake_move(self, move):
            self.stack.pop()

        def is_over(self):
            return GAME.is_terminal(self.stack[-1])

        def scoring(self):
            return evaluation(self.stack[-1], GAME.to_move(self.stack[-1]))

        def ttentry(self):
            return GAME.key(self.stack[-1])

    ai = Negamax(depth, tt=TranspositionTable())
    game = BitboardConnectFour([AI_Player(ai), AI_Player(ai)], state)
    move = ai(game)
    return move, game.nodes + 1


def easyai_own_game_search(state_moves, depth):
    import numpy as np
    from easyAI import AI_Player, Negamax
    from easyAI.AI import TranspositionTable
    from easyAI.games import ConnectFour as EasyConnectFour

    class HookedConnectFour(EasyConnectFour):
        """easyAI's Connect Four with the hooks its Negamax needs for a table and for speed."""

        nodes = 0

        def make_move(self, column):
            self.nodes += 1
            super().make_move(column)

        def unmake_move(self, column):
            filled = np.nonzero(self.board[:, column])[0]
            self.board[filled[-1], column] = 0

        def ttentry(self):
            return self.board.tobytes()

        def scoring(self):
            if self.lose():
                return -1
            first = mask = 0  # the board as bitboards: player 1's stones, every stone
            for row, col in zip(*np.nonzero(self.board), strict=True):
                bit = 1 << (int(col) * 7 + int(row))
                mask |= bit
                if self.board[row, col] == 1:
                    first |= bit
            moves = mask.bit_count()
            position = first if moves % 2 == 0 else first ^ mask
            return evaluation((position, mask, moves, False), self.current_player - 1)

    ai = Negamax(depth, tt=TranspositionTable())
    game = HookedConnectFour([AI_Player(ai), AI_Player(ai)])
    for char in state_moves:
        game.play_move(int(char) - 1)
    move = ai(game)
    return move, game.nodes + 1


# -- aima-python ---------------------------------------------------------------------------------


class AimaAdapter:
    """aima's game interface (actions, result, terminal_test, utility, to_move) over zerosum's."""

    def __init__(self):
        self.nodes = 0

    def actions(self, state):
        return GAME.legal_moves(state)

    def result(self, state, move):
        self.nodes += 1
        return GAME.result(state, move)

    def terminal_test(self, state):
        return GAME.is_terminal(state)

    def utility(self, state, player):
        return GAME.utility(state, player)

    def to_move(self, state):
        return GAME.to_move(state)


AIMA_SEARCH = []
"""aima-python's alpha-beta with a cut-off, once loaded (its code is used, never copied here)."""


def load_aima(checkout: str | None) -> None:
    """Import the search from the installed `aima3` package, or from a checkout of aima-python."""
    if checkout is None:
        from aima3 import games

        AIMA_SEARCH.append(games.alphabeta_cutoff_search)
        return
    folder = Path(checkout).expanduser().resolve()
    if not (folder / "games.py").exists():
        raise SystemExit(f"--aima {checkout}: no games.py there (a checkout of aima-python?)")
    sys.path.insert(0, str(folder))
    import games  # aima-python's module, found through the path just added

    AIMA_SEARCH.append(games.alpha_beta_cutoff_search)


def aima_search(state, depth):
    game = AimaAdapter()
    player = GAME.to_move(state)
    move = AIMA_SEARCH[0](state, game, d=depth - 1, eval_fn=lambda s: evaluation(s, player))
    return move, game.nodes + 1


# -- OpenSpiel -----------------------------------------------------------------------------------

evaluation_seconds = [0.0]


def openspiel_search(state_moves, depth):
    import pyspiel
    from open_spiel.python.algorithms.minimax import alpha_beta_search

    game = pyspiel.load_game("connect_four")
    state = game.new_initial_state()
    for char in state_moves:
        state.apply_action(int(char) - 1)
    root_player = state.current_player()
    leaves = [0]

    def value_function(spiel_state):
        start = time.perf_counter()
        ours = GAME.initial_state()
        for action in spiel_state.history():
            ours = GAME.result(ours, action)
        leaves[0] += 1
        value = evaluation(ours, root_player)
        evaluation_seconds[0] += time.perf_counter() - start
        return value

    _, move = alpha_beta_search(
        game, state=state, value_function=value_function, maximum_depth=depth,
        maximizing_player_id=root_player,
    )  # fmt: skip
    return move, leaves[0]


def timed(search, argument, depth):
    start = time.perf_counter()
    move, nodes = search(argument, depth)
    return time.perf_counter() - start, move, nodes


PEERS = {
    "easyai": ("easyAI Negamax + TT (zerosum's bitboard rules)", easyai_search, False),
    "easyai-own": (
        "easyAI Negamax + TT (its own ConnectFour, hooks added)",
        easyai_own_game_search,
        True,
    ),
    "aima": ("aima alpha-beta cut-off search", aima_search, False),
    "openspiel": ("OpenSpiel alpha_beta_search", openspiel_search, True),
}
"""Each peer by its short name: its row's label, its search, and whether it takes the moves
played (rather than zerosum's state)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--deeper", type=int, default=2, help="extra plies for zerosum alone")
    parser.add_argument(
        "--aima", metavar="DIR", help="a checkout of aima-python instead of the aima3 package"
    )
    parser.add_argument(
        "--peers", default=",".join(PEERS), help=f"the peers to run, of {','.join(PEERS)}"
    )
    args = parser.parse_args()
    depth = args.depth
    chosen = args.peers.split(",")
    unknown = set(chosen) - set(PEERS)
    if unknown:
        raise SystemExit(f"--peers: unknown {', '.join(sorted(unknown))}")
    if "aima" in chosen:
        load_aima(args.aima)
    peers = [PEERS[name] for name in PEERS if name in chosen]
    totals = {"zerosum Engine": [0.0, 0]}
    for name, _, _ in peers:
        totals[name] = [0.0, 0]
    for moves in POSITIONS:
        state = GAME.parse_state(moves)
        seconds, move, nodes = timed(zerosum_search, state, depth)
        totals["zerosum Engine"][0] += seconds
        totals["zerosum Engine"][1] += nodes
        for name, search, by_text in peers:
            seconds, _, nodes = timed(search, moves if by_text else state, depth)
            totals[name][0] += seconds
            totals[name][1] += nodes
    base = totals["zerosum Engine"][0]
    print(f"Depth {depth}, positions {', '.join(repr(m) for m in POSITIONS)} (totals):\n")
    print("| search | seconds | nodes (leaves for OpenSpiel) | time / zerosum |")
    print("|---|---:|---:|---:|")
    for name, (seconds, nodes) in totals.items():
        print(f"| {name} | {seconds:.2f} | {nodes:,} | {seconds / base:.1f} |")
    if "openspiel" in chosen:
        print(
            "\nOpenSpiel's evaluation calls (history replay + evaluate):"
            f" {evaluation_seconds[0]:.2f} s"
        )
    deeper = depth + args.deeper
    start = time.perf_counter()
    nodes = sum(zerosum_search(GAME.parse_state(m), deeper)[1] for m in POSITIONS)
    print(f"zerosum Engine at depth {deeper}: {time.perf_counter() - start:.2f} s, {nodes:,} nodes")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (max RSS): {peak:,.0f} MB")


if __name__ == "__main__":
    main()
