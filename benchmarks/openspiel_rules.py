"""The games of imperfect information against OpenSpiel's: the same rules, node for node.

    python benchmarks/openspiel_rules.py [--facts tests/data/imperfect/games.json]

Walks OpenSpiel's tree and zerosum's together, from the start to every end, for Kuhn poker
(`kuhn_poker`), Leduc poker (`leduc_poker`) and Liar's Dice (`liars_dice`, and a few smaller
sizes of it), each OpenSpiel action taken as the zerosum move of the same meaning (Leduc's
`Raise` is `"raise"`, Kuhn's `Pass` is `"check"` or `"fold"` as the situation makes it, a
roll of 3 is the face 3). At every node it checks that both are chance nodes, terminal or a
player's turn alike; at chance nodes, the same outcomes with the same probabilities (zerosum's
exact fractions summing to 1); at a player's node, the same player and the same legal moves in
the same order; at the end, the same payoff to each player. It then checks that both split the
histories into the same information sets: two histories share a zerosum `information_set`
text exactly when they share OpenSpiel's `information_state_string`, and every history of an
information set offers the same moves.

It prints, for each game, the histories (every node: chance, decision and terminal), the
terminal histories, the information sets of each player, and the expected payoff of the first
player when both choose uniformly at random among their legal moves: computed exactly on
OpenSpiel's tree (its chance probabilities read as the fractions they round) and on zerosum's,
which must agree, and against OpenSpiel's own `expected_game_score.policy_value` (floats) to
1e-12. `--facts` writes what the tests check (`tests/data/imperfect/`) as JSON.

Needs OpenSpiel (`pip install -e '.[bench-openspiel]'`); run from the repository with
`PYTHONPATH=src`. Liar's Dice's walk (about 300,000 histories) takes the longest.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import pyspiel
from open_spiel.python import policy
from open_spiel.python.algorithms import expected_game_score

from zerosum.games.kuhn import KuhnPoker
from zerosum.games.leduc import CARDS as LEDUC_CARDS
from zerosum.games.leduc import LeducPoker
from zerosum.games.liars_dice import LIAR, LiarsDice

Mapping = Callable[[Any, Any, int], Any]
"""(OpenSpiel state, zerosum state, OpenSpiel action) -> the zerosum move or outcome it is."""


def kuhn_move(os_state: Any, state: Any, action: int) -> Any:
    if os_state.is_chance_node():
        return "JQK"[action]  # OpenSpiel deals cards 0, 1, 2: Jack, Queen, King
    facing = "bet" in state[1]
    if action == 0:  # Pass
        return "fold" if facing else "check"
    return "call" if facing else "bet"


def leduc_move(os_state: Any, state: Any, action: int) -> Any:
    if os_state.is_chance_node():
        # OpenSpiel's card c has rank c // 2 (Jack, Queen, King) and suit c % 2
        return LEDUC_CARDS[action]
    return ("fold", "call", "raise")[action]


def liars_dice_move(os_state: Any, state: Any, action: int) -> Any:
    text = os_state.action_to_string(action)
    if os_state.is_chance_node():
        return int(text.removeprefix("Roll "))
    return LIAR if text == "Liar" else text


@dataclass
class Walk:
    """What the lockstep walk counted and collected."""

    histories: int = 0
    terminals: int = 0
    ours: dict[tuple[int, str], set[str]] = field(default_factory=lambda: defaultdict(set))
    theirs: dict[tuple[int, str], set[str]] = field(default_factory=lambda: defaultdict(set))
    moves: dict[tuple[int, str], set[tuple[Any, ...]]] = field(
        default_factory=lambda: defaultdict(set)
    )


def rational(probability: float) -> Fraction:
    """OpenSpiel's float probability as the fraction it rounds (1/6, 1/5, ...)."""
    exact = Fraction(probability).limit_denominator(10_000)
    assert abs(float(exact) - probability) < 1e-15, probability
    return exact


def walk(game: Any, os_state: Any, state: Any, move_of: Mapping, seen: Walk) -> tuple[Any, Any]:
    """Check the node and its subtree; the first player's uniform-random value there, exactly,
    from OpenSpiel's tree and from zerosum's."""
    seen.histories += 1
    where = f"{os_state.history()} / {game.render(state)}"
    assert os_state.is_terminal() == game.is_terminal(state), where
    if os_state.is_terminal():
        seen.terminals += 1
        returns = os_state.returns()
        for player in (0, 1):
            assert game.utility(state, player) == returns[player], where
        return rational(returns[0]), game.utility(state, 0)
    assert os_state.is_chance_node() == game.is_chance(state), where
    if os_state.is_chance_node():
        outcomes = dict(game.chance_outcomes(state))
        assert sum(outcomes.values()) == 1, where
        theirs = os_state.chance_outcomes()
        assert len(theirs) == len(outcomes), where
        value_theirs, value_ours = Fraction(0), Fraction(0)
        for action, probability in theirs:
            outcome = move_of(os_state, state, action)
            assert isinstance(outcomes[outcome], Fraction), where
            assert rational(probability) == outcomes[outcome], where
            a, b = walk(game, os_state.child(action), game.result(state, outcome), move_of, seen)
            value_theirs += rational(probability) * a
            value_ours += outcomes[outcome] * b
        return value_theirs, value_ours
    player = game.to_move(state)
    assert os_state.current_player() == player, where
    actions = os_state.legal_actions()
    moves = tuple(game.legal_moves(state))
    assert tuple(move_of(os_state, state, action) for action in actions) == moves, where
    text = game.information_set(state)
    assert isinstance(text, str), where
    key = os_state.information_state_string()
    seen.ours[player, text].add(key)
    seen.theirs[player, key].add(text)
    seen.moves[player, text].add(moves)
    value_theirs, value_ours = Fraction(0), Fraction(0)
    for action, move in zip(actions, moves, strict=True):
        a, b = walk(game, os_state.child(action), game.result(state, move), move_of, seen)
        value_theirs += a
        value_ours += b
    return value_theirs / len(actions), value_ours / len(moves)


def check(name: str, os_game: Any, game: Any, move_of: Mapping) -> dict[str, Any]:
    """Walk both trees, check the information sets, print and return the facts."""
    start = time.perf_counter()
    seen = Walk()
    value_theirs, value_ours = walk(
        game, os_game.new_initial_state(), game.initial_state(), move_of, seen
    )
    assert value_theirs == value_ours, (value_theirs, value_ours)
    for (player, text), keys in seen.ours.items():
        assert len(keys) == 1, f"player {player}'s {text!r} is {len(keys)} OpenSpiel sets"
    for (player, key), texts in seen.theirs.items():
        assert len(texts) == 1, f"player {player}'s {key!r} is {len(texts)} zerosum sets: {texts}"
    for (player, text), moves in seen.moves.items():
        assert len(moves) == 1, f"player {player}'s {text!r} offers different moves: {moves}"
    sets = [sum(1 for player, _ in seen.ours if player == p) for p in (0, 1)]
    uniform = policy.UniformRandomPolicy(os_game)
    floats = expected_game_score.policy_value(os_game.new_initial_state(), [uniform, uniform])
    assert abs(float(value_ours) - floats[0]) < 1e-12, (value_ours, floats)
    seconds = time.perf_counter() - start
    print(
        f"{name}: {seen.histories:,} histories, {seen.terminals:,} terminal, information sets "
        f"{sets[0]:,} + {sets[1]:,} = {sum(sets):,}; uniform random: {value_ours} "
        f"({float(value_ours):.15f}, OpenSpiel {floats[0]:.15f}); all checks pass ({seconds:.1f} s)"
    )
    return {
        "openspiel": os_game.get_type().short_name,
        "parameters": dict(os_game.get_parameters()),
        "histories": seen.histories,
        "terminal_histories": seen.terminals,
        "information_sets": sets,
        "uniform_value": str(value_ours),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--facts", help="write the facts the tests check to this JSON file")
    args = parser.parse_args()
    facts = {
        "kuhn": check("Kuhn poker", pyspiel.load_game("kuhn_poker"), KuhnPoker(), kuhn_move),
        "leduc": check("Leduc poker", pyspiel.load_game("leduc_poker"), LeducPoker(), leduc_move),
    }
    for dice, faces in ((1, 3), (2, 2), (1, 6)):
        os_game = pyspiel.load_game("liars_dice", {"numdice": dice, "dice_sides": faces})
        name = f"Liar's Dice, {dice} {'dice' if dice > 1 else 'die'} of {faces} faces"
        fact = check(name, os_game, LiarsDice(dice, faces), liars_dice_move)
        default = (dice, faces) == (1, 6)
        facts["liars_dice" if default else f"liars_dice_{dice}x{faces}"] = {
            "options": {"numdice": dice, "faces": faces},
            **fact,
        }
    if args.facts:
        with open(args.facts, "w") as out:
            json.dump(facts, out, indent=2)
            out.write("\n")
        print(f"wrote {args.facts}")


if __name__ == "__main__":
    main()
