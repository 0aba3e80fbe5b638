"""Leduc poker (Southey et al. 2005): six cards, one private card each, a public card, two rounds.

The deck holds two suits (spades `s`, hearts `h`) of three ranks, Jack < Queen < King: `"Js"`,
`"Jh"`, `"Qs"`, `"Qh"`, `"Ks"`, `"Kh"`. Each player antes 1 chip and is dealt one card face
down (the first player's, then the second's). A round of betting follows; then one public card
is dealt face up from the four left, and a second round of betting follows.

In each round the first player acts first and the players alternate. A player not facing a bet
may `"call"` (check: put in nothing more) or `"raise"`; a player facing a bet may `"fold"`,
`"call"` (match it) or `"raise"` (match it and bet more). A raise is 2 chips in the first round
and 4 in the second, and at most two raises are made in a round (after the second, only fold
and call are left). A round ends when a call follows another action: two checks, or a call of a
raise. A fold ends the game at once: the player who folds loses the chips they put in (antes,
calls and raises) and the other wins them. If the second round ends, the hands are shown: a
player whose card pairs the public card wins, otherwise the higher rank wins, and equal ranks
split the pot (a payoff of 0). The winner wins the chips the loser put in.

These are the rules of OpenSpiel's `leduc_poker` at its default parameters, action for action:
its `Fold`, `Call` and `Raise` are the moves here, offered in the same situations, in that order
(`benchmarks/openspiel_rules.py` walks both trees together).

A state is `(cards, first, second)`: the cards dealt so far (the first player's, the second's,
then the public card) and the moves of the first and second rounds. The information set of the
player to move is their card, the public card once dealt, and the moves of both rounds, the
rounds split by `/`: `"Qs"`, `"Qs | raise"`, `"Qs | Kh | raise call /"`,
`"Qs | Kh | raise call / call raise"`.
"""

from __future__ import annotations

from fractions import Fraction

from zerosum.game import Player

State = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]

RANKS = ("J", "Q", "K")
SUITS = ("s", "h")
CARDS = tuple(rank + suit for rank in RANKS for suit in SUITS)
RANK = {card: RANKS.index(card[0]) for card in CARDS}

ANTE = 1
RAISES = (2, 4)
"""The size of a raise in the first and second round."""
MAX_RAISES = 2
"""Raises allowed in one round."""


def _closed(moves: tuple[str, ...]) -> bool:
    """True when a round with these moves is over: a call that follows another action."""
    return len(moves) >= 2 and moves[-1] == "call"


class LeducPoker:
    """Leduc poker: two players, six cards, antes of 1, raises of 2 then 4, two raises a round."""

    player_names = ("first player", "second player")

    def initial_state(self) -> State:
        return ((), (), ())

    def is_chance(self, state: State) -> bool:
        cards, first, _ = state
        if len(cards) < 2:
            return True
        return len(cards) == 2 and _closed(first)

    def chance_outcomes(self, state: State) -> list[tuple[str, Fraction]]:
        left = [card for card in CARDS if card not in state[0]]
        return [(card, Fraction(1, len(left))) for card in left]

    def to_move(self, state: State) -> Player:
        cards, first, second = state
        return len(second if len(cards) == 3 else first) % 2

    def legal_moves(self, state: State) -> tuple[str, ...]:
        if self.is_chance(state) or self.is_terminal(state):
            return ()
        cards, first, second = state
        moves = second if len(cards) == 3 else first
        facing = bool(moves) and moves[-1] == "raise"
        can_raise = moves.count("raise") < MAX_RAISES
        return ("fold",) * facing + ("call",) + ("raise",) * can_raise

    def result(self, state: State, move: str) -> State:
        cards, first, second = state
        if self.is_chance(state):
            if move not in CARDS or move in cards:
                raise ValueError(f"{move!r} is not a card left to deal")
            return (*cards, move), first, second
        if move not in self.legal_moves(state):
            legal = " ".join(self.legal_moves(state))
            raise ValueError(f"{move!r} is not a legal move: choose one of {legal}")
        if len(cards) == 3:
            return cards, first, (*second, move)
        return cards, (*first, move), second

    def is_terminal(self, state: State) -> bool:
        _, first, second = state
        return "fold" in first or "fold" in second or _closed(second)

    def contributions(self, state: State) -> list[int]:
        """The chips each player has put in so far (ante, calls and raises)."""
        put = [ANTE, ANTE]
        for moves, size in zip(state[1:], RAISES, strict=True):
            for index, move in enumerate(moves):
                if move == "call":
                    put[index % 2] = max(put)
                elif move == "raise":
                    put[index % 2] = max(put) + size
        return put

    def utility(self, state: State, player: Player) -> int:
        cards, first, second = state
        put = self.contributions(state)
        moves = second if len(cards) == 3 else first
        if moves[-1] == "fold":  # the player who folded moved last in the round
            loser = (len(moves) - 1) % 2
            return -put[loser] if player == loser else put[loser]
        strength = [self._strength(card, cards[2]) for card in cards[:2]]
        if strength[0] == strength[1]:
            return 0
        winner = 0 if strength[0] > strength[1] else 1
        return put[0] if player == winner else -put[0]  # both put in the same at a showdown

    @staticmethod
    def _strength(card: str, public: str) -> int:
        """A hand's rank at the showdown: a pair with the public card beats every other hand."""
        return RANK[card] + (len(RANKS) if card[0] == public[0] else 0)

    def information_set(self, state: State) -> str:
        cards, first, second = state
        parts = [cards[self.to_move(state)], *cards[2:]]
        betting = " ".join(first)
        if len(cards) == 3:
            betting = f"{betting} / {' '.join(second)}".rstrip()
        if betting:
            parts.append(betting)
        return " | ".join(parts)

    def render(self, state: State) -> str:
        cards, first, second = state
        names = (*self.player_names, "public")
        dealt = ", ".join(f"{name} {card}" for name, card in zip(names, cards, strict=False))
        rounds = f"first round: {' '.join(first) or 'none'}"
        if len(cards) == 3:
            rounds += f"; second round: {' '.join(second) or 'none'}"
        return f"{dealt or 'no cards dealt'}; {rounds}"
