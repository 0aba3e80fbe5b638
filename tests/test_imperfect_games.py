"""The games of imperfect information: Kuhn poker, Leduc poker and Liar's Dice.

Each tree is walked to every end and checked against the facts kept in
`tests/data/imperfect/games.json` (counted on OpenSpiel's trees by
`benchmarks/openspiel_rules.py`, which walks OpenSpiel's rules and ours together): the
histories, the terminal histories, each player's information sets and the first player's
expected payoff when both play uniformly at random. The walk also checks what every such game
promises: zero-sum payoffs, exact chance probabilities summing to 1, the same legal moves
throughout an information set, and perfect recall. Hand-played lines check single rules.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import pytest
from oracles import oracle_path

from zerosum.game import Chance, Game, InformationSets, Rendering
from zerosum.games.kuhn import KuhnPoker
from zerosum.games.leduc import LeducPoker
from zerosum.games.liars_dice import LiarsDice
from zerosum.imperfect.tree import unroll

FACTS = json.loads(oracle_path("imperfect", "games.json").read_text())

Past = tuple[tuple[str, str], ...]
"""What a player knew and chose before: their information sets and moves, in order."""


@dataclass
class Tree:
    """What a walk of a whole game tree saw."""

    histories: int = 0
    terminals: int = 0
    moves: dict[tuple[int, str], set[tuple[str, ...]]] = field(
        default_factory=lambda: defaultdict(set)
    )
    pasts: dict[tuple[int, str], set[Past]] = field(default_factory=lambda: defaultdict(set))

    def information_sets(self) -> list[int]:
        return [sum(1 for player, _ in self.moves if player == p) for p in (0, 1)]


def walk(game: Any, state: Any, tree: Tree, pasts: tuple[Past, Past]) -> Fraction:
    """Walk the subtree of `state`, checking each node; the first player's expected payoff there
    when both players choose uniformly at random."""
    tree.histories += 1
    if game.is_terminal(state):
        tree.terminals += 1
        assert game.legal_moves(state) == ()
        value = game.utility(state, 0)
        assert game.utility(state, 1) == -value, game.render(state)
        return Fraction(value)
    if game.is_chance(state):
        outcomes = game.chance_outcomes(state)
        assert all(isinstance(probability, Fraction) for _, probability in outcomes)
        assert sum(probability for _, probability in outcomes) == 1, game.render(state)
        return sum(
            (p * walk(game, game.result(state, outcome), tree, pasts) for outcome, p in outcomes),
            Fraction(0),
        )
    player = game.to_move(state)
    text = game.information_set(state)
    moves = tuple(game.legal_moves(state))
    assert moves and all(isinstance(move, str) for move in moves)
    tree.moves[player, text].add(moves)
    tree.pasts[player, text].add(pasts[player])
    total = Fraction(0)
    for move in moves:
        mine = (*pasts[player], (text, move))
        after = (mine, pasts[1]) if player == 0 else (pasts[0], mine)
        total += walk(game, game.result(state, move), tree, after)
    return total / len(moves)


def check_tree(game: Any, facts: dict[str, Any]) -> None:
    tree = Tree()
    value = walk(game, game.initial_state(), tree, ((), ()))
    for (player, text), moves in tree.moves.items():
        assert len(moves) == 1, f"player {player}'s {text!r} offers different moves: {moves}"
    for (player, text), pasts in tree.pasts.items():
        assert len(pasts) == 1, f"player {player} forgets on the way to {text!r}"
    assert tree.histories == facts["histories"]
    assert tree.terminals == facts["terminal_histories"]
    assert tree.information_sets() == facts["information_sets"]
    assert value == Fraction(facts["uniform_value"])


GAMES = {
    "kuhn": KuhnPoker(),
    "leduc": LeducPoker(),
    "liars_dice_1x3": LiarsDice(numdice=1, faces=3),
    "liars_dice_2x2": LiarsDice(numdice=2, faces=2),
}


@pytest.mark.parametrize("name", GAMES)
def test_whole_tree_matches_openspiel_counts(name: str) -> None:
    check_tree(GAMES[name], FACTS[name])


@pytest.mark.parametrize(("numdice", "faces"), [(1, 2), (1, 3), (2, 2), (2, 3)])
def test_liars_dice_counts_its_histories_as_the_walk_finds_them(numdice, faces) -> None:
    game = LiarsDice(numdice, faces)
    assert game.histories() == unroll(game).nodes


def test_a_liars_dice_too_large_to_unroll_is_refused_by_its_count_before_any_work() -> None:
    game = LiarsDice(numdice=3, faces=7)  # 7**6 deals, each with 2**43 - 1 ways to bid
    assert game.histories() == (7**6 - 1) // 6 + 7**6 * (2**43 - 1)
    with pytest.raises(ValueError, match="histories of the game 1,034,851,547,969,650,951 is"):
        unroll(game)
    assert "bids" not in vars(game)  # refused before the game listed a move


def test_liars_dice_with_more_bids_than_a_game_lists_is_refused() -> None:
    with pytest.raises(ValueError, match=r"\(2 x dice x faces\) 1,000,004 is over the limit"):
        LiarsDice(numdice=250_001, faces=2)


def test_liars_dice_at_openspiels_size() -> None:
    """The default game (one six-sided die each) in full: about 300,000 histories."""
    game = LiarsDice()
    assert (game.dice, game.faces) == (FACTS["liars_dice"]["options"]["numdice"], 6)
    check_tree(game, FACTS["liars_dice"])


def test_capabilities() -> None:
    for game in (KuhnPoker(), LeducPoker(), LiarsDice()):
        for capability in (Game, Chance, InformationSets, Rendering):
            assert isinstance(game, capability), (game, capability)
        assert len(game.player_names) == 2


def play(game: Any, *moves: Any) -> Any:
    state = game.initial_state()
    for move in moves:
        state = game.result(state, move)
    return state


class TestLeduc:
    game = LeducPoker()

    def test_pair_wins_after_raise_call_then_checks(self) -> None:
        # the first player's Jack pairs the public Jack; the King is the higher card alone
        state = play(self.game, "Js", "Kh", "raise", "call", "Jh", "call", "call")
        assert self.game.is_terminal(state)
        assert self.game.utility(state, 0) == 3  # ante 1 + raise 2
        assert self.game.utility(state, 1) == -3

    def test_higher_rank_wins_without_a_pair_and_equal_ranks_split(self) -> None:
        state = play(self.game, "Qs", "Kh", "call", "call", "Js", "raise", "call")
        assert self.game.utility(state, 1) == 5  # ante 1 + second-round raise 4
        state = play(self.game, "Qs", "Qh", "call", "raise", "raise", "call", "Ks", "call", "call")
        assert self.game.utility(state, 0) == 0

    def test_a_fold_pays_the_chips_put_in(self) -> None:
        state = play(self.game, "Ks", "Js", "raise", "fold")
        assert self.game.utility(state, 0) == 1  # the folder's ante
        state = play(self.game, "Js", "Ks", "raise", "raise", "fold")
        assert self.game.utility(state, 1) == 3  # ante 1 + raise 2
        state = play(self.game, "Js", "Ks", "call", "raise", "call", "Qh", "raise", "raise", "fold")
        assert self.game.contributions(state) == [7, 11]
        assert self.game.utility(state, 0) == -7  # ante 1 + call 2 + raise 4

    def test_moves_and_turns(self) -> None:
        game = self.game
        state = play(game, "Qs", "Kh")
        assert game.legal_moves(state) == ("call", "raise")  # no fold before a bet
        state = game.result(state, "call")
        assert game.to_move(state) == 1 and game.legal_moves(state) == ("call", "raise")
        state = play(game, "Qs", "Kh", "call", "raise", "raise")
        assert game.legal_moves(state) == ("fold", "call")  # two raises: no third
        state = game.result(state, "call")
        assert game.is_chance(state)
        assert [card for card, _ in game.chance_outcomes(state)] == ["Js", "Jh", "Qh", "Ks"]
        state = game.result(state, "Jh")
        assert game.to_move(state) == 0  # the first player opens the second round too
        assert game.information_set(state) == "Qs | Jh | call raise raise call /"
        state = game.result(state, "raise")
        assert game.information_set(state) == "Kh | Jh | call raise raise call / raise"
        with pytest.raises(ValueError, match="not a legal move"):
            game.result(play(game, "Qs", "Kh"), "fold")
        with pytest.raises(ValueError, match="not a card left"):
            game.result(play(game, "Qs"), "Qs")


class TestLiarsDice:
    game = LiarsDice()

    def test_a_bid_that_holds_costs_the_caller(self) -> None:
        # two 3s among a 3 and a 6 (the 6 is wild): the bid holds, the caller loses
        state = play(self.game, 3, 6, "1-4", "2-3", "liar")
        assert self.game.is_terminal(state)
        assert self.game.utility(state, 0) == -1 and self.game.utility(state, 1) == 1
        state = play(self.game, 2, 6, "1-6", "liar")  # one 6 for a bid of one 6
        assert self.game.utility(state, 1) == -1

    def test_a_bid_that_fails_costs_the_bidder(self) -> None:
        state = play(self.game, 3, 5, "1-4", "2-3", "liar")
        assert self.game.utility(state, 1) == -1
        state = play(self.game, 2, 5, "2-6", "liar")  # no 6 at all
        assert self.game.utility(state, 1) == 1

    def test_bids_rise_and_liar_needs_a_bid(self) -> None:
        game = self.game
        state = play(game, 4, 1)
        assert game.to_move(state) == 0
        assert game.legal_moves(state) == game.bids and "liar" not in game.legal_moves(state)
        assert len(game.bids) == 12 and game.bids[0] == "1-1" and game.bids[-1] == "2-6"
        state = game.result(state, "1-5")
        assert game.legal_moves(state) == ("1-6", *game.bids[6:], "liar")
        assert game.information_set(state) == "1 | 1-5"
        state = game.result(state, "2-6")
        assert game.legal_moves(state) == ("liar",)
        with pytest.raises(ValueError, match="not a legal move"):
            game.result(state, "2-6")

    def test_several_dice(self) -> None:
        game = LiarsDice(numdice=2, faces=4)
        state = play(game, 3, 1, 4, 3, "3-3")
        assert game.information_set(state) == "3 4 | 3-3"  # the second player's, in order
        assert game.utility(game.result(state, "liar"), 0) == 1  # two 3s and a wild 4
        assert game.utility(play(game, 3, 1, 4, 3, "4-3", "liar"), 0) == -1
        with pytest.raises(ValueError):
            LiarsDice(numdice=0)


@pytest.mark.parametrize("game", [KuhnPoker(), LeducPoker(), LiarsDice()])
def test_random_lines_are_zero_sum(game: Any) -> None:
    rng = random.Random(7)
    for _ in range(200):
        state = game.initial_state()
        while not game.is_terminal(state):
            if game.is_chance(state):
                outcomes, weights = zip(*game.chance_outcomes(state), strict=True)
                state = game.result(state, rng.choices(outcomes, weights)[0])
            else:
                state = game.result(state, rng.choice(game.legal_moves(state)))
        assert game.utility(state, 0) == -game.utility(state, 1)
        assert isinstance(game.render(state), str)
