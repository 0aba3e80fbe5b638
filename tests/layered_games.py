"""Layered games as a user writes them, whose moves may skip layers: a test names them as
Python objects, and a command by this file (`tests/layered_games.py:TakeOneTwoFive`)."""

from __future__ import annotations

State = tuple[tuple[int, ...], int]
"""The heaps, and the player to move."""

TAKES = (1, 2, 5)


class TakeOneTwoFive:
    """`heaps` heaps of `size` stones; a move takes 1, 2 or 5 stones from one heap; whoever
    takes the last stone wins. A layer is the stones taken so far, so that a move adds 1, 2 or
    5 to it. A move is a number, `8 * heap + stones` (the stones alone from the first heap); a
    position is the heaps and then the player to move (`7 1`: seven stones, the second
    player to move)."""

    def __init__(self, size: int = 20, heaps: int = 1) -> None:
        self.size, self.heaps = size, heaps

    def initial_state(self) -> State:
        return ((self.size,) * self.heaps, 0)

    def to_move(self, state: State) -> int:
        return state[1]

    def legal_moves(self, state: State) -> list[int]:
        heaps, _ = state
        return [
            8 * heap + take for heap, left in enumerate(heaps) for take in TAKES if take <= left
        ]

    def result(self, state: State, move: int) -> State:
        heaps, player = state
        heap, take = divmod(move, 8)
        return (heaps[:heap] + (heaps[heap] - take,) + heaps[heap + 1 :], 1 - player)

    def is_terminal(self, state: State) -> bool:
        return not any(state[0])

    def utility(self, state: State, player: int) -> int:
        return 1 if player != state[1] else -1  # the player who took the last stone won

    def key(self, state: State) -> int:
        heaps, player = state
        key = 0
        for left in heaps:
            key = key * (self.size + 1) + left
        return 2 * key + player

    def from_keys(self, keys) -> list[State]:
        states = []
        for key in map(int, keys):
            key, player = divmod(key, 2)
            heaps = []
            for _ in range(self.heaps):
                key, left = divmod(key, self.size + 1)
                heaps.append(left)
            states.append((tuple(reversed(heaps)), player))
        return states

    def layer(self, state: State) -> int:
        return self.heaps * self.size - sum(state[0])

    def parse_state(self, text: str) -> State:
        *heaps, player = (int(word) for word in text.split())
        if len(heaps) != self.heaps or not all(0 <= left <= self.size for left in heaps):
            raise ValueError(f"expected {self.heaps} heap(s) of at most {self.size}, then 0 or 1")
        return (tuple(heaps), player)


class WithoutKeys:
    """The same game without `from_keys`: its positions travel between processes pickled."""

    def __init__(self, size: int = 20, heaps: int = 1) -> None:
        self.game = TakeOneTwoFive(size, heaps)

    def __getattr__(self, name: str):
        if name in ("game", "from_keys"):  # `game` too: unpickling asks before it is set
            raise AttributeError(name)
        return getattr(self.game, name)
