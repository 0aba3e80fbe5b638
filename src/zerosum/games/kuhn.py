"""Kuhn poker (Kuhn 1950): three cards, one card each, one round of betting.

The deck is a Jack, a Queen and a King. Each player antes 1 chip and is dealt one card face
down (the first player's card, then the second's: two chance nodes). The first player checks
or bets 1 chip. After a check the second player checks (showdown for the antes) or bets 1;
facing that bet the first player folds or calls. After a first bet the second player folds or
calls. A fold loses the chips put in; at a showdown the higher card takes the pot. The pay-off
for the winner is +1 (a showdown after two checks, or a fold to a bet) or +2 (a called bet).

A state is `(cards, moves)`: the cards dealt so far (`"J"`, `"Q"`, `"K"`) and the moves played
(`"check"`, `"bet"`, `"fold"`, `"call"`). The information set of the player to move is their
card and the moves so far, as `"K"`, `"Q check bet"`. The game's value for the first player
is -1/18 (Kuhn's solution).
"""

from __future__ import annotations

from fractions import Fraction

from zerosum.game import Player

State = tuple[tuple[str, ...], tuple[str, ...]]

CARDS = ("J", "Q", "K")
RANK = {card: rank for rank, card in enumerate(CARDS)}


class KuhnPoker:
    """Kuhn poker: two players, three cards, antes of 1, bets of 1."""

    player_names = ("first player", "second player")

    def initial_state(self) -> State:
        return ((), ())

    def is_chance(self, state: State) -> bool:
        return len(state[0]) < 2

    def chance_outcomes(self, state: State) -> list[tuple[str, Fraction]]:
        left = [card for card in CARDS if card not in state[0]]
        return [(card, Fraction(1, len(left))) for card in left]

    def to_move(self, state: State) -> Player:
        return len(state[1]) % 2

    def legal_moves(self, state: State) -> tuple[str, ...]:
        if self.is_chance(state) or self.is_terminal(state):
            return ()
        return ("fold", "call") if "bet" in state[1] else ("check", "bet")

    def result(self, state: State, move: str) -> State:
        cards, moves = state
        if self.is_chance(state):
            if move not in CARDS or move in cards:
                raise ValueError(f"{move!r} is not a card left to deal")
            return (*cards, move), moves
        if move not in self.legal_moves(state):
            legal = " ".join(self.legal_moves(state))
            raise ValueError(f"{move!r} is not a legal move: choose one of {legal}")
        return cards, (*moves, move)

    def is_terminal(self, state: State) -> bool:
        moves = state[1]
        return moves in (("check", "check"), ("bet", "fold"), ("bet", "call")) or len(moves) == 3

    def utility(self, state: State, player: Player) -> int:
        cards, moves = state
        if "fold" in moves:  # the player who folded is the one who moved last
            loser = (len(moves) - 1) % 2
            return -1 if player == loser else 1
        stake = 2 if "call" in moves else 1
        winner = 0 if RANK[cards[0]] > RANK[cards[1]] else 1
        return stake if player == winner else -stake

    def information_set(self, state: State) -> str:
        cards, moves = state
        return " ".join((cards[self.to_move(state)], *moves))

    def render(self, state: State) -> str:
        cards, moves = state
        names = self.player_names[: len(cards)]
        dealt = ", ".join(f"{name} {card}" for name, card in zip(names, cards, strict=True))
        return f"{dealt}; moves: {' '.join(moves) or 'none'}"
