"""Liar's Dice for two players: each rolls their dice in secret, then they bid on all the dice.

Each player rolls `numdice` dice of `faces` faces (one six-sided die each by default), seen only by
their owner: the first player's dice are rolled first, then the second's. The players then bid
in turn, the first player first. A bid `"Q-F"` claims that at least `Q` of all the dice on the
table show the face `F`; the highest face is wild and counts as every face (with six faces, a 6
counts as a 1, a 2, ..., and as a 6). Bids are ordered by quantity, then by face (`"1-1"` <
`"1-2"` < ... < `"1-6"` < `"2-1"` < ...), and each bid must be higher than the one before, with
any face after a higher quantity. Instead of bidding, a player may call the last bid a lie
(`"liar"`, not allowed before the first bid; the only move left after the highest bid). The dice
are then shown: if the bid holds (enough dice show its face or the wild face) the caller loses,
otherwise the bidder loses. The winner scores +1, the loser -1.

These are the rules of OpenSpiel's `liars_dice` (its default "reset-face" bidding rule), and at
the defaults the same tree, move for move: its bids are named alike, its `Liar` is `"liar"`
(`benchmarks/openspiel_rules.py` walks both trees together).

A state is `(dice, bids)`: the faces rolled so far (1 to `faces`, the first player's dice, then
the second's) and the moves played. The information set of the player to move is their own
dice, in increasing order, and the bids so far: `"3"`, `"3 | 1-4 2-3"`, `"2 5 | 1-4"`.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cached_property

from zerosum.game import Player
from zerosum.limits import Limit

State = tuple[tuple[int, ...], tuple[str, ...]]

LIAR = "liar"

BIDS = Limit(
    "the bids of a game of Liar's Dice (2 x dice x faces)",
    1_000_000,
    "the game lists every bid (a million take 0.4 s and 140 MB here), and each one doubles"
    " the histories of every deal, which a solver of the whole tree takes a few dozen of",
    liftable=False,
)


class LiarsDice:
    """Liar's Dice: two players, `numdice` dice each of `faces` faces, the highest face wild."""

    player_names = ("first player", "second player")

    def __init__(self, numdice: int = 1, faces: int = 6) -> None:
        if numdice < 1:
            raise ValueError(f"each player needs at least one die, got {numdice}")
        if faces < 2:
            raise ValueError(f"a die needs at least two faces, got {faces}")
        BIDS.check(2 * numdice * faces)
        self.dice = numdice
        self.faces = faces

    @cached_property
    def bids(self) -> tuple[str, ...]:
        """Every bid, lowest first (listed when first asked: a game too large to unroll is
        refused by its count of `histories` without them)."""
        quantities, sides = range(1, 2 * self.dice + 1), range(1, self.faces + 1)
        return tuple(f"{quantity}-{face}" for quantity in quantities for face in sides)

    @cached_property
    def _rank(self) -> dict[str, int]:
        return {bid: index for index, bid in enumerate(self.bids)}

    def histories(self) -> int:
        """The histories of the game, exactly: the rolls (`faces ** k` after k dice), then,
        after each of the `faces ** (2 * numdice)` deals, every increasing sequence of the B
        bids (2**B of them, the empty one included) and, after each bid, the call of liar:
        2**(B + 1) - 1 histories a deal."""
        deals = self.faces ** (2 * self.dice)
        rolling = (deals - 1) // (self.faces - 1)  # 1 + faces + ... + faces**(2 numdice - 1)
        bidding = (deals << (2 * self.dice * self.faces + 1)) - deals
        return rolling + bidding

    def initial_state(self) -> State:
        return ((), ())

    def is_chance(self, state: State) -> bool:
        return len(state[0]) < 2 * self.dice

    def chance_outcomes(self, state: State) -> list[tuple[int, Fraction]]:
        return [(face, Fraction(1, self.faces)) for face in range(1, self.faces + 1)]

    def to_move(self, state: State) -> Player:
        return len(state[1]) % 2

    def legal_moves(self, state: State) -> tuple[str, ...]:
        if self.is_chance(state) or self.is_terminal(state):
            return ()
        bids = state[1]
        if not bids:
            return self.bids
        return (*self.bids[self._rank[bids[-1]] + 1 :], LIAR)

    def result(self, state: State, move: str | int) -> State:
        dice, bids = state
        if self.is_chance(state):
            if not isinstance(move, int) or not 1 <= move <= self.faces:
                raise ValueError(f"a die is rolling: {move!r} is not a face (1 to {self.faces})")
            return (*dice, move), bids
        if not isinstance(move, str) or move not in self.legal_moves(state):
            legal = " ".join(self.legal_moves(state))
            raise ValueError(f"{move!r} is not a legal move: choose one of {legal}")
        return dice, (*bids, move)

    def is_terminal(self, state: State) -> bool:
        bids = state[1]
        return bool(bids) and bids[-1] == LIAR

    def utility(self, state: State, player: Player) -> int:
        dice, bids = state
        quantity, face = (int(number) for number in bids[-2].split("-"))
        caller = (len(bids) - 1) % 2
        shown = sum(1 for die in dice if die in (face, self.faces))
        loser = caller if shown >= quantity else 1 - caller
        return -1 if player == loser else 1

    def hand(self, state: State, player: Player) -> tuple[int, ...]:
        """The dice `player` has rolled so far, in increasing order."""
        return tuple(sorted(state[0][player * self.dice : (player + 1) * self.dice]))

    def information_set(self, state: State) -> str:
        dice = " ".join(str(die) for die in self.hand(state, self.to_move(state)))
        bids = state[1]
        return f"{dice} | {' '.join(bids)}" if bids else dice

    def render(self, state: State) -> str:
        hands = [" ".join(str(die) for die in self.hand(state, player)) for player in (0, 1)]
        rolled = ", ".join(
            f"{name} {hand or 'none'}" for name, hand in zip(self.player_names, hands, strict=True)
        )
        return f"{rolled}; bids: {' '.join(state[1]) or 'none'}"
