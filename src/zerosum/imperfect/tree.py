"""A game of imperfect information unrolled once into arrays: the tree every solver walks.

`unroll(game)` visits every history of a game with `InformationSets` breadth first, so that a
node's parent comes before it and its children sit side by side (`first_child[n]`,
`child_count[n]`). A pass from the first node to the last goes down the tree (reach
probabilities), a pass from the last to the first comes up (values), with no recursion and no
call to the game: this is what makes the solvers fast, and lets compiled code walk the same
arrays.

Information sets are numbered in the order they are met. Information set `i` belongs to
`owner[i]`, has the moves `moves[i]` and owns the slots `action_start[i] : action_start[i+1]`
of every per-move array (a strategy, regrets): slot `action_start[i] + k` is the `k`-th move
of `i`, and the `k`-th child of each of its nodes. A slot is also a *sequence* of its owner
(Koller, Megiddo and von Stengel): the owner's moves that lead to it, ending with that one.
`parent_sequence[i]` is the slot of the owner's last move before `i` (-1: none), and
`sequence[p, n]` the slot of player `p`'s last move on the way to node `n`.

Utilities are the first player's, as floats for the iterative solvers and as fractions
(`exact_utility`, with `exact_chance`) for the exact ones.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

import numpy as np

from zerosum.game import Chance, Game, InformationSets, require
from zerosum.limits import NO_LIMIT, Limit, clipped

ZERO, ONE = Fraction(0), Fraction(1)
SMALL = {value: Fraction(value) for value in range(-100, 101)}
"""Fractions of the small integers, made once: most payoffs are among them."""

#: The kinds of node: the player to move (0 or 1), chance, the end of the game.
CHANCE, TERMINAL = 2, 3

#: The most histories `unroll` walks: Leduc poker has 9,457, Liar's Dice with one die each
#: 294,883; every history costs a call to the game and about 100 bytes of arrays.
HISTORIES = Limit(
    "histories of the game",
    20_000_000,
    "each is a state built in Python and kept in arrays (minutes, gigabytes)",
)


PATHS = 8
"""The random paths from the start whose estimates of the histories `unroll` reads before it
walks a game that does not count its own (see `_refuse_far_over`)."""

FAR_OVER = 100
"""How far over `HISTORIES` every path's estimate must be for the game to be refused unwalked."""


@dataclass(frozen=True, eq=False)
class GameTree:
    """Every history of a game of imperfect information, breadth first (see the module).

    Per node: `kind` (0 or 1 to move, CHANCE, TERMINAL), `first_child`, `child_count`,
    `infoset` (-1 where no player moves), `chance` (the probability of the chance move that
    led here, 1 after a player's move), `utility` (the first player's payoff at the end, 0
    elsewhere), `sequence` (shape 2 x nodes). Per information set: `keys`, `owner`, `moves`,
    `action_start` (one entry more than the sets), `parent_sequence`. `depth`: the most moves
    (chance's included) from the start to an end. `levels`: where each depth's nodes start
    (breadth-first order keeps them together), and the end: nodes `levels[d] : levels[d + 1]`
    are `d` moves deep.
    """

    kind: np.ndarray
    first_child: np.ndarray
    child_count: np.ndarray
    infoset: np.ndarray
    chance: np.ndarray
    utility: np.ndarray
    sequence: np.ndarray
    keys: tuple[str, ...]
    owner: np.ndarray
    moves: tuple[tuple[str, ...], ...]
    action_start: np.ndarray
    parent_sequence: np.ndarray
    exact_chance: tuple[Fraction, ...]
    exact_utility: tuple[Fraction, ...]
    depth: int
    levels: np.ndarray

    @property
    def nodes(self) -> int:
        return len(self.kind)

    @property
    def actions(self) -> int:
        """The number of slots: (information set, move) pairs, and sequences."""
        return int(self.action_start[-1])

    @cached_property
    def parents(self) -> np.ndarray:
        """Each node's parent (-1 for the first): children sit side by side in their parents'
        order, so the parents are the nodes repeated by their numbers of children."""
        return np.concatenate(([-1], np.repeat(np.arange(self.nodes), self.child_count)))

    @cached_property
    def chance_reach(self) -> np.ndarray:
        """The probability that chance's moves lead to each node (the players' count 1),
        multiplied down the path from the first node."""
        reach = np.ones(self.nodes)
        parent, chance = self.parents, self.chance
        for n in range(1, self.nodes):
            reach[n] = reach[parent[n]] * chance[n]
        return reach

    @cached_property
    def exact_chance_reach(self) -> list[Fraction]:
        """`chance_reach` in fractions (from `exact_chance`)."""
        parent = self.parents.tolist()
        reach = [Fraction(1)] * self.nodes
        for n in range(1, self.nodes):
            reach[n] = reach[parent[n]] * self.exact_chance[n]
        return reach

    @cached_property
    def sets_level(self) -> bool:
        """True when every information set's nodes lie at one depth (as when what a player
        knows includes how many moves were made): the compiled best response needs it."""
        depth = np.repeat(np.arange(len(self.levels) - 1), np.diff(self.levels))
        decisions = self.infoset >= 0
        sets, depths = self.infoset[decisions], depth[decisions]
        low = np.full(len(self.keys), len(self.levels))
        high = np.full(len(self.keys), -1)
        np.minimum.at(low, sets, depths)
        np.maximum.at(high, sets, depths)
        return bool(np.all(low == high))

    def index(self) -> dict[str, int]:
        """Each information set's number, by key."""
        return {key: i for i, key in enumerate(self.keys)}

    def infosets_of(self, player: int) -> np.ndarray:
        """The numbers of `player`'s information sets."""
        return np.flatnonzero(self.owner == player)

    def uniform(self) -> np.ndarray:
        """The strategy profile that plays every legal move alike, one probability a slot."""
        counts = np.diff(self.action_start)
        return np.repeat(1.0 / counts, counts)


def _refuse_far_over(game: Any, chance_game: bool) -> None:
    """ValueError when the game's histories are surely far over `HISTORIES`, found without
    walking them: along a random path from the start, the sum over its depths of the products
    of the numbers of moves met so far is Knuth's estimate of the histories, whose mean over
    random paths is their number. Were they within the limit, a path would estimate over
    `FAR_OVER` times the limit with a probability of at most 1/`FAR_OVER` (Markov's
    inequality), all `PATHS` of them at most 1/`FAR_OVER`**`PATHS` (1e-16). A path stops as
    soon as its estimate is that far over, so a game of chess's size (OpenSpiel's kriegspiel,
    which a walk would not end in hours) is refused after a few moves of each path."""
    bound = FAR_OVER * HISTORIES.most
    draw = random.Random(0)  # the same paths each time: the same answer for the same game
    least = math.inf
    for _ in range(PATHS):
        state, product, estimate = game.initial_state(), 1, 1
        while estimate <= bound and not game.is_terminal(state):
            if chance_game and game.is_chance(state):
                children = [outcome for outcome, _ in game.chance_outcomes(state)]
            else:
                children = list(game.legal_moves(state))
            if not children:
                break  # unroll says what is wrong with this state
            product *= len(children)
            estimate += product
            state = game.result(state, draw.choice(children))
        least = min(least, estimate)
        if least <= bound:
            return
    raise ValueError(
        f"the game has far more histories than the limit of {HISTORIES.most:,}: each of"
        f" {PATHS} random paths from the start estimates over {bound:,} (Knuth's estimate), so"
        " walking its whole tree cannot end in bounded time (each history is a state built in"
        f" Python and kept in arrays); pass {NO_LIMIT} to try anyway"
    )


def unroll(game: Any, *, lifted: bool = False) -> GameTree:
    """Every history of `game` (a `Game` with `InformationSets`, and `Chance` if it deals or
    rolls), in arrays. ValueError when the game is not one of imperfect information, breaks
    the rules of one (an information set whose states offer different moves or belong to
    different players, a player who forgets: imperfect recall; chance probabilities that do
    not sum to 1; utilities that do not sum to 0), or has more than `HISTORIES` histories
    (unless `lifted`): before any work when the game counts them (`histories()`, as Liar's
    Dice does) or they are surely far more (`_refuse_far_over`), else as soon as the walk
    passes the limit."""
    require(game, Game, "a game of imperfect information")
    require(game, InformationSets, "a game of imperfect information")
    counted = getattr(game, "histories", None)
    chance_game = isinstance(game, Chance)
    if callable(counted):
        HISTORIES.check(int(counted()), lifted=lifted)
    elif not lifted:
        _refuse_far_over(game, chance_game)
    states = [game.initial_state()]
    kind: list[int] = []
    first_child: list[int] = []
    child_count: list[int] = []
    infoset: list[int] = []
    exact_chance: list[Fraction] = [ONE]
    chance: list[float] = [1.0]
    exact_utility: list[Fraction] = []
    sequence: list[tuple[int, int]] = [(-1, -1)]
    depth = [0]
    keys: list[str] = []
    index: dict[str, int] = {}
    owner: list[int] = []
    moves: list[tuple[str, ...]] = []
    action_start = [0]
    parent_sequence: list[int] = []
    n = 0
    while n < len(states):
        state = states[n]
        states[n] = None  # the arrays keep what is needed: let the states go
        first_child.append(len(states))
        if game.is_terminal(state):
            kind.append(TERMINAL)
            infoset.append(-1)
            exact_utility.append(_utility(game, state))
            child_count.append(0)
        elif chance_game and game.is_chance(state):
            kind.append(CHANCE)
            infoset.append(-1)
            exact_utility.append(ZERO)
            outcomes = list(game.chance_outcomes(state))
            exact = [Fraction(p) for _, p in outcomes]
            total = sum(exact, ZERO)
            # Exactly 1 for fractions; floats (1/6 six times) only come close.
            if abs(total - 1) > 1e-9 or any(p <= 0 for p in exact):
                raise ValueError(
                    "chance's probabilities must be positive and sum to 1, got"
                    f" {clipped(float(total))} at {clipped(state)}"
                )
            for (outcome, _), probability in zip(outcomes, exact, strict=True):
                states.append(game.result(state, outcome))
                exact_chance.append(probability)
                chance.append(float(probability))
                sequence.append(sequence[n])
                depth.append(depth[n] + 1)
            child_count.append(len(outcomes))
        else:
            player = game.to_move(state)
            key = game.information_set(state)
            legal = tuple(game.legal_moves(state))
            if not isinstance(key, str):
                raise ValueError(f"an information set must be text, got {clipped(key)}")
            if not legal:
                raise ValueError(f"no legal move in a state that is not over: {clipped(state)}")
            own = sequence[n][player]
            i = index.get(key)
            if i is None:
                i = index[key] = len(keys)
                keys.append(key)
                owner.append(player)
                moves.append(tuple(str(move) for move in legal))
                action_start.append(action_start[-1] + len(legal))
                parent_sequence.append(own)
            elif owner[i] != player or moves[i] != tuple(str(move) for move in legal):
                raise ValueError(
                    f"information set {clipped(key)} holds states with different players or"
                    " different legal moves: the key must say all the player to move knows"
                )
            elif parent_sequence[i] != own:
                raise ValueError(
                    f"information set {clipped(key)} is reached after different moves of its"
                    " own player: the game forgets what a player did (imperfect recall)"
                )
            kind.append(player)
            infoset.append(i)
            exact_utility.append(ZERO)
            for k, move in enumerate(legal):
                states.append(game.result(state, move))
                exact_chance.append(ONE)
                chance.append(1.0)
                slot = action_start[i] + k
                sequence.append((slot, sequence[n][1]) if player == 0 else (sequence[n][0], slot))
                depth.append(depth[n] + 1)
            child_count.append(len(legal))
        HISTORIES.check(len(states), lifted=lifted)
        n += 1
    return GameTree(
        kind=np.array(kind, dtype=np.int8),
        first_child=np.array(first_child, dtype=np.int64),
        child_count=np.array(child_count, dtype=np.int64),
        infoset=np.array(infoset, dtype=np.int64),
        chance=np.array(chance),
        utility=_floats(exact_utility),
        sequence=np.array(sequence, dtype=np.int64).T.copy(),
        keys=tuple(keys),
        owner=np.array(owner, dtype=np.int8),
        moves=tuple(moves),
        action_start=np.array(action_start, dtype=np.int64),
        parent_sequence=np.array(parent_sequence, dtype=np.int64),
        exact_chance=tuple(exact_chance),
        exact_utility=tuple(exact_utility),
        depth=depth[-1],
        levels=np.searchsorted(depth, np.arange(depth[-1] + 2)),
    )


def _floats(numbers: list[Fraction]) -> np.ndarray:
    """The fractions as floats, each distinct one converted once."""
    converted = {number: float(number) for number in set(numbers)}
    return np.array([converted[number] for number in numbers])


def _utility(game: Any, state: Any) -> Fraction:
    """The first player's payoff at the end, exactly; ValueError unless the game is zero-sum."""
    first, second = game.utility(state, 0), game.utility(state, 1)
    if type(first) is int and type(second) is int:  # the usual case, checked fast
        if first != -second:
            raise ValueError(
                f"the payoffs {first} and {second} do not sum to 0 at {clipped(state)}:"
                " the game is not zero-sum"
            )
        return SMALL[first] if first in SMALL else Fraction(first)
    if Fraction(first) != -Fraction(second):
        raise ValueError(
            f"the payoffs {clipped(first)} and {clipped(second)} do not sum to 0 at"
            f" {clipped(state)}: the game is not zero-sum"
        )
    return Fraction(first)
