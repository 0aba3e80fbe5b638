"""Backgammon without the doubling cube: bar, hits, bearing off, both dice, doubles, gammons.

The board is kept in player 0's numbering: `points[i]` is point i + 1 counted from player 0's
home (player 0 moves from 24 down to 1 and bears off below 1; player 1 moves the other way).
A positive count is player 0's checkers (shown as X), a negative one player 1's (O). A state is
the tuple `(player, points, bar, off, dice)`: the player on turn, the 24 counts, the checkers
on the bar and borne off per player, and the dice `(high, low)` once rolled, or None while
they are still to roll (a chance node: 21 rolls, doubles 1/36 and the others 2/36). The game
opens with player 0 playing a roll that is never a double, as in the real game where the
player with the higher die plays both dice.

A move is a whole turn: a tuple of steps `(from, to)` in the mover's own numbering (25 is the
bar, 0 is off), written in the standard notation `24/18 13/11`, `bar/22*`, `6/off`,
`13/7(2)`. The rules that make a turn legal: checkers on the bar enter first; a point held by
two or more opposing checkers is closed; a single opposing checker (a blot) is hit and goes to
the bar; checkers are borne off only when all fifteen are home, with the exact number or a
higher one from the highest occupied point; as many dice as possible must be played, and when
only one of two can be, the larger if it can; a double is played four times. A player who can
do nothing passes (the empty move, written `pass`).

The game ends when a player has borne off all fifteen: +1 for a single game, +2 for a gammon
(the loser has borne off none), +3 for a backgammon (the loser also still has a checker on the
bar or in the winner's home board).

A position is written as text (`parse_state` reads it, `format_state` writes it):

    X 6-5: 24:2 13:5 8:3 6:5 / 24:2 13:5 8:3 6:5

the side to move (`X` or `O`), the dice when they are rolled (`6-5`; none while the side is
still to roll), then after the colon the checkers of the side to move, a slash, and the
opponent's checkers. Each side is listed in its own numbering, the one its moves are written
in (its home board is 1-6, it moves towards 1): `POINT:COUNT`, a bare `POINT` for a single
checker, `bar:COUNT` for checkers on the bar. Checkers a side does not list are borne off.
The example is the starting position with X to play 6-5; `O: 6:2 5:3 / bar 22:2 1:12` has O
to roll with five checkers on its 6 and 5 points (ten borne off) against X's checker on the
bar, two on X's 22 point (O's 3 point) and twelve on X's 1 point. A point of one side is point
25 minus it for the other, and may not hold checkers of both.

A GNU Backgammon position ID (14 characters, `4HPwATDgc/ABMA` for the start) may stand in
place of the two lists, `X 4-4: sG/BgCGMM+YAIw`, or alone for X to roll; `position_id` writes
it. It encodes the checkers of the player not on roll first, then those of the player on roll
(as the IDs GNU Backgammon prints do), each side from its ace point to its 24 point and its
bar, a 1 bit a checker and a 0 bit after each point, the 80 bits packed little-endian and
written in base64.
"""

from __future__ import annotations

import base64
import math
import re

from zerosum.game import Player

State = tuple[int, tuple[int, ...], tuple[int, int], tuple[int, int], tuple[int, int] | None]
Step = tuple[int, int]
Move = tuple[Step, ...]
Dice = tuple[int, int]

BAR, OFF = 25, 0
CHECKERS = 15
ROLLS = tuple(
    ((high, low), (1 if high == low else 2) / 36)
    for high in range(1, 7)
    for low in range(1, high + 1)
)
OPENING_ROLLS = tuple(((high, low), 1 / 15) for high in range(2, 7) for low in range(1, high))
START = {24: 2, 13: 5, 8: 3, 6: 5}
MARKS = "XO"


class Backgammon:
    """Backgammon for two players, no doubling cube; player 0 is X and opens."""

    player_names = ("X", "O")

    def __init__(self) -> None:
        self.start = self.position(START, START, player=0)

    # The rules.

    def initial_state(self) -> State:
        return self.start

    def to_move(self, state: State) -> Player:
        return state[0]

    def is_chance(self, state: State) -> bool:
        return state[4] is None and not self.is_terminal(state)

    def chance_outcomes(self, state: State) -> tuple:
        return OPENING_ROLLS if state == self.start else ROLLS

    def legal_moves(self, state: State) -> list[Move]:
        if state[4] is None or self.is_terminal(state):
            return []
        return list(self._plays(state))

    def result(self, state: State, move) -> State:
        player, points, bar, off, dice = state
        if dice is None:  # the roll: `move` is the dice
            high, low = move
            return (player, points, bar, off, (max(high, low), min(high, low)))
        mine, theirs, my_bar, their_bar, my_off = _relative(state)
        for source, target in move:
            my_bar, my_off, their_bar = _step(
                mine, theirs, my_bar, my_off, their_bar, source, target
            )
        return _absolute(player, mine, theirs, my_bar, their_bar, my_off, state)

    def is_terminal(self, state: State) -> bool:
        return CHECKERS in state[3]

    def utility(self, state: State, player: Player) -> int:
        off = state[3]
        if CHECKERS not in off:
            return 0
        winner = 0 if off[0] == CHECKERS else 1
        points = 1
        if off[1 - winner] == 0:
            points = 2
            loser_sign = -1 if winner == 0 else 1
            winners_home = range(0, 6) if winner == 0 else range(18, 24)
            if state[2][1 - winner] or any(state[1][i] * loser_sign > 0 for i in winners_home):
                points = 3
        return points if player == winner else -points

    def key(self, state: State) -> State:
        return state

    def value_bounds(self) -> tuple[int, int]:
        return (-3, 3)

    # Building positions by hand (the mover's numbering, as players read the board).

    def position(
        self,
        mine: dict[int, int],
        theirs: dict[int, int],
        *,
        player: Player = 0,
        bar: tuple[int, int] = (0, 0),
        off: tuple[int, int] | None = None,
        dice: tuple[int, int] | None = None,
    ) -> State:
        """The state with `mine` (point -> checkers, in `player`'s numbering) for `player` and
        `theirs` (in the opponent's own numbering); `bar` and `off` as (mover, opponent), `off`
        defaulting to the checkers not placed. ValueError if it is not a position."""
        points = [0] * 24
        for side, layout in ((player, mine), (1 - player, theirs)):
            sign = 1 if side == 0 else -1
            for point, count in layout.items():
                if not 1 <= point <= 24 or count < 0:
                    raise ValueError(f"bad point {point} or count {count}: points are 1 to 24")
                index = point - 1 if side == 0 else 24 - point
                if points[index] and count:
                    raise ValueError(f"point {point} holds checkers of both players")
                points[index] += sign * count
        bars = (bar[0], bar[1]) if player == 0 else (bar[1], bar[0])
        placed = [
            sum(c for c in points if c > 0) + bars[0],
            -sum(c for c in points if c < 0) + bars[1],
        ]
        if off is None:
            offs = (CHECKERS - placed[0], CHECKERS - placed[1])
        else:
            offs = (off[0], off[1]) if player == 0 else (off[1], off[0])
        if any(p + o != CHECKERS for p, o in zip(placed, offs, strict=True)):
            raise ValueError("each player has 15 checkers on the board, on the bar or off")
        if dice is not None:
            if not all(1 <= d <= 6 for d in dice) or len(dice) != 2:
                raise ValueError(f"bad dice {dice}: two numbers from 1 to 6")
            dice = (max(dice), min(dice))
        return (player, tuple(points), bars, offs, dice)

    # Move generation.

    def _plays(self, state: State) -> dict[Move, None]:
        """The legal turns, one per distinct resulting position, in generation order."""
        high, low = _rolled(state)
        orders = [(high,) * 4] if high == low else [(high, low), (low, high)]
        found: dict[tuple, tuple[Move, tuple[int, ...]]] = {}
        mine, theirs, my_bar, their_bar, my_off = _relative(state)
        for order in orders:
            _extend(mine, theirs, my_bar, my_off, their_bar, order, (), (), found)
        most = max(len(dice) for _, dice in found.values())
        plays = [(move, dice) for move, dice in found.values() if len(dice) == most]
        if most == 1 and high != low and any(dice[0] == high for _, dice in plays):
            plays = [(move, dice) for move, dice in plays if dice[0] == high]
        return dict.fromkeys(move for move, _ in plays)

    # Evaluation.

    def evaluate(self, state: State, player: Player) -> float:
        """An estimate in (-1, 1) for `player`: race, blots, primes and the bar, squashed by tanh.

        The utility itself (up to +-3) on a finished game.
        """
        if self.is_terminal(state):
            return self.utility(state, player)
        score = _side_score(state, 0) - _side_score(state, 1)
        score = math.tanh(score)
        return score if player == 0 else -score

    def pip_count(self, state: State, player: Player) -> int:
        """The pips `player` still has to move to bear everything off."""
        points, bar = state[1], state[2]
        if player == 0:
            return sum((i + 1) * c for i, c in enumerate(points) if c > 0) + 25 * bar[0]
        return sum((24 - i) * -c for i, c in enumerate(points) if c < 0) + 25 * bar[1]

    # Text.

    def format_move(self, state: State, move) -> str:
        if state[4] is None:
            return f"rolled {move[0]}-{move[1]}"
        if not move:
            return "pass"
        mine, theirs, my_bar, their_bar, my_off = _relative(state)
        parts = []
        for source, target in move:
            hit = target != OFF and theirs[target - 1] == 1
            my_bar, my_off, their_bar = _step(
                mine, theirs, my_bar, my_off, their_bar, source, target
            )
            parts.append(f"{_point_name(source)}/{_point_name(target)}{'*' if hit else ''}")
        return " ".join(parts)

    def parse_state(self, text: str) -> State:
        """The position `text` writes (`X 6-5: 24:2 13:5 8:3 6:5 / 24:2 13:5 8:3 6:5`, see the
        module's notes); ValueError saying what is wrong with it otherwise."""
        try:
            return self._read_position(text)
        except ValueError as error:
            raise ValueError(f"bad position {text!r}: {error}") from None

    def _read_position(self, text: str) -> State:
        if POSITION_ID.match(text.strip()):  # a bare GNU Backgammon ID: X to roll
            text = f"X: {text.strip()}"
        header = POSITION.match(text)
        checkers = "" if header is None else header.group(3).strip()
        if header is None or not (POSITION_ID.match(checkers) or checkers.count("/") == 1):
            raise ValueError(
                "write the side to move, the dice if rolled, a colon, its checkers, a slash and"
                " the opponent's, e.g. X 6-5: 24:2 13:5 8:3 6:5 / 24:2 13:5 8:3 6:5"
            )
        player = MARKS.index(header.group(1).upper())
        dice = parse_dice(header.group(2)) if header.group(2) else None
        me, them = MARKS[player], MARKS[1 - player]
        if POSITION_ID.match(checkers):
            (mine, my_bar), (theirs, their_bar) = _read_position_id(checkers)
        else:
            mine_text, theirs_text = checkers.split("/")
            mine, my_bar = _read_side(mine_text, me)
            theirs, their_bar = _read_side(theirs_text, them)
        for layout, bar, mark in ((mine, my_bar, me), (theirs, their_bar, them)):
            total = sum(layout.values()) + bar
            if total > CHECKERS:
                raise ValueError(
                    f"{mark} has {total} checkers on the board and the bar: at most {CHECKERS}"
                    " (those not listed are borne off)"
                )
        for point in mine:
            if 25 - point in theirs:
                raise ValueError(
                    f"{me}'s {point} point is {them}'s {25 - point} point:"
                    " it cannot hold checkers of both sides"
                )
        if not mine and not my_bar:
            raise ValueError(f"{me}, to move, has borne off all 15 checkers: the game is over")
        return self.position(mine, theirs, player=player, bar=(my_bar, their_bar), dice=dice)

    def position_id(self, state: State) -> str:
        """GNU Backgammon's position ID of `state` (14 characters; it leaves out who is to move
        and the dice): the checkers of the player not on roll, then of the player on roll."""
        mine, theirs, my_bar, their_bar, _ = _relative(state)
        bits = []
        for counts, bar in ((theirs[::-1], their_bar), (mine, my_bar)):
            for count in (*counts, bar):  # its ace point to its 24 point, then its bar
                bits += [1] * count + [0]
        key = sum(bit << index for index, bit in enumerate(bits)).to_bytes(10, "little")
        return base64.b64encode(key).decode()[:14]

    def format_state(self, state: State) -> str:
        """The text of a position, as `parse_state` reads it (its inverse)."""
        player, _, _, _, dice = state
        mine, theirs, my_bar, their_bar, _ = _relative(state)
        roll = f" {dice[0]}-{dice[1]}" if dice else ""
        mover, opponent = _side_text(mine, my_bar), _side_text(theirs[::-1], their_bar)
        return f"{MARKS[player]}{roll}: {mover} / {opponent}".rstrip()

    def parse_move(self, state: State, text: str) -> Move | Dice:
        """The legal turn `text` names (`24/18 13/11`, `bar/20*`, `6/off`, `8/5(2)`, `pass`);
        where the dice are still to be rolled, the roll (`6-5`).

        ValueError explaining why when it is not legal.
        """
        if state[4] is None:
            return parse_dice(text)
        legal = self._plays(state)
        steps = _parse_steps(text)
        if not steps:
            if () in legal:
                return ()
            raise ValueError("you have a legal move, so you cannot pass")
        for move in legal:
            if sorted(move) == sorted(steps):
                return move
        reached = self._position_after(state, steps)
        for move in legal:
            if self.result(state, move) == reached:
                return move
        most = max(len(move) for move in legal)
        if len(steps) < most:
            raise ValueError(f"you must play {most} dice here, not {len(steps)}")
        raise ValueError("when only one die can be played, the larger must be played if it can")

    def _position_after(self, state: State, steps: list[Step]) -> State:
        """The position after `steps`, each one die or several (`24/13` for 6-5); ValueError
        naming the first step that cannot be played."""
        high, low = _rolled(state)
        dice = [high] * 4 if high == low else [high, low]
        position = (*_relative(state), dice)
        for source, target in steps:
            walked = _walk(position, source, target)
            if walked is None:
                mine, theirs, my_bar, _, _, left = position
                raise ValueError(_why_not(mine, theirs, my_bar, source, target, left))
            position = walked
        mine, theirs, my_bar, their_bar, my_off, _ = position
        return _absolute(state[0], mine, theirs, my_bar, their_bar, my_off, state)

    def render(self, state: State) -> str:
        """The board from X's side: points 13-24 on top, 12-1 below, bar, off, the dice, and the
        position as `parse_state` reads it."""
        player, points, bar, off, dice = state

        def cell(index: int) -> str:
            count = points[index]
            return " . " if not count else f"{'X' if count > 0 else 'O'}{abs(count):<2d}"

        top = (
            " ".join(cell(i) for i in range(12, 18))
            + " | "
            + " ".join(cell(i) for i in range(18, 24))
        )
        bottom = (
            " ".join(cell(i) for i in range(11, 5, -1))
            + " | "
            + " ".join(cell(i) for i in range(5, -1, -1))
        )
        lines = [
            " 13  14  15  16  17  18    19  20  21  22  23  24",
            (" " + top).rstrip(),
            (" " + bottom).rstrip(),
            " 12  11  10   9   8   7     6   5   4   3   2   1",
            f"bar: X {bar[0]}, O {bar[1]}   off: X {off[0]}, O {off[1]}"
            f"   pips: X {self.pip_count(state, 0)}, O {self.pip_count(state, 1)}",
        ]
        if not self.is_terminal(state):
            roll = "to roll" if dice is None else f"rolled {dice[0]}-{dice[1]}"
            lines.append(f"{MARKS[player]} {roll} (X moves 24 -> 1, O moves 1 -> 24 on this board)")
        lines.append(f"position: {self.format_state(state)}")
        return "\n".join(lines)


def _relative(state: State) -> tuple[list[int], list[int], int, int, int]:
    """The mover's view: own and opposing counts by the mover's point - 1, bars, own off."""
    player, points, bar, off, _ = state
    if player == 0:
        mine = [c if c > 0 else 0 for c in points]
        theirs = [-c if c < 0 else 0 for c in points]
    else:
        mine = [-c if c < 0 else 0 for c in reversed(points)]
        theirs = [c if c > 0 else 0 for c in reversed(points)]
    return mine, theirs, bar[player], bar[1 - player], off[player]


def _absolute(
    player: Player,
    mine: list[int],
    theirs: list[int],
    my_bar: int,
    their_bar: int,
    my_off: int,
    before: State,
) -> State:
    """The state after the mover's turn, in player 0's numbering, the other player to roll."""
    if player == 0:
        points = tuple(m - t for m, t in zip(mine, theirs, strict=True))
        bar, off = (my_bar, their_bar), (my_off, before[3][1])
    else:
        points = tuple(t - m for m, t in zip(reversed(mine), reversed(theirs), strict=True))
        bar, off = (their_bar, my_bar), (before[3][0], my_off)
    return (1 - player, points, bar, off, None)


def _steps(mine: list[int], theirs: list[int], my_bar: int, die: int) -> list[Step]:
    """The single-checker steps a die allows, `(from, to)` in the mover's numbering."""
    if my_bar:
        entry = 25 - die
        return [(BAR, entry)] if theirs[entry - 1] <= 1 else []
    steps = []
    home = not any(mine[6:])
    for index in range(23, -1, -1):
        if not mine[index]:
            continue
        target = index - die
        if target >= 0:
            if theirs[target] <= 1:
                steps.append((index + 1, target + 1))
        elif home and (target == -1 or not any(mine[index + 1 : 6])):
            steps.append((index + 1, OFF))
    return steps


def _step(
    mine: list[int],
    theirs: list[int],
    my_bar: int,
    my_off: int,
    their_bar: int,
    source: int,
    target: int,
) -> tuple[int, int, int]:
    """Play one checker from `source` to `target` in place; the new bar, off and their bar."""
    if source == BAR:
        my_bar -= 1
    else:
        mine[source - 1] -= 1
    if target == OFF:
        my_off += 1
    else:
        if theirs[target - 1] == 1:  # a blot: hit it
            theirs[target - 1] = 0
            their_bar += 1
        mine[target - 1] += 1
    return my_bar, my_off, their_bar


def _extend(mine, theirs, my_bar, my_off, their_bar, dice, move, used, found) -> None:
    """Every way to play `dice` in order from here, recorded in `found` by final position."""
    if dice:
        steps = _steps(mine, theirs, my_bar, dice[0])
        for source, target in steps:
            m, t = mine[:], theirs[:]
            bar, off, opp_bar = _step(m, t, my_bar, my_off, their_bar, source, target)
            _extend(
                m,
                t,
                bar,
                off,
                opp_bar,
                dice[1:],
                (*move, (source, target)),
                (*used, dice[0]),
                found,
            )
        if steps:
            return
    position = (tuple(mine), tuple(theirs), my_bar, my_off, their_bar)
    if position not in found or len(used) > len(found[position][1]):
        found[position] = (move, used)


def _walk(position: tuple, source: int, target: int) -> tuple | None:
    """`position` (the mover's view and the dice left) after one checker goes from `source` to
    `target` with one die or several in a row; None when no dice can do it."""
    mine, theirs, my_bar, their_bar, my_off, dice = position
    for die in sorted(set(dice)):
        if (source, target) in _steps(mine, theirs, my_bar, die):
            m, t = mine[:], theirs[:]
            bar, off, opp_bar = _step(m, t, my_bar, my_off, their_bar, source, target)
            left = list(dice)
            left.remove(die)
            return (m, t, bar, opp_bar, off, left)
    if target == OFF:
        return None
    for die in sorted(set(dice)):
        middle = source - die
        if middle > target and (source, middle) in _steps(mine, theirs, my_bar, die):
            m, t = mine[:], theirs[:]
            bar, off, opp_bar = _step(m, t, my_bar, my_off, their_bar, source, middle)
            left = list(dice)
            left.remove(die)
            walked = _walk((m, t, bar, opp_bar, off, left), middle, target)
            if walked is not None:
                return walked
    return None


def _side_score(state: State, player: Player) -> float:
    """Player's half of the evaluation: pips ahead are counted by the other side."""
    points, bar = state[1], state[2]
    sign = 1 if player == 0 else -1
    mine = [c * sign if c * sign > 0 else 0 for c in points]
    if player == 1:
        mine.reverse()
    pips = sum((i + 1) * c for i, c in enumerate(mine)) + 25 * bar[player]
    blots = sum(1 for c in mine if c == 1)
    prime = longest = 0
    for c in mine:
        longest = longest + 1 if c >= 2 else 0
        prime = max(prime, longest)
    return -pips / 40 - 0.15 * blots + 0.12 * prime - 0.25 * bar[player]


def _rolled(state: State) -> Dice:
    """The dice the player to move has rolled; ValueError while they are still to be rolled."""
    dice = state[4]
    if dice is None:
        raise ValueError("the dice are still to be rolled: no checker moves yet")
    return dice


def parse_dice(text: str) -> Dice:
    """The dice `text` names (`6-5`, `65`, `5 6`), the higher first; ValueError otherwise."""
    match = DICE.match(text)
    if match is None or not all(1 <= int(die) <= 6 for die in match.groups()):
        raise ValueError(f"bad dice {text!r}: two numbers from 1 to 6, like 6-5")
    high, low = sorted(map(int, match.groups()), reverse=True)
    return high, low


def _read_position_id(text: str) -> tuple[tuple[dict[int, int], int], ...]:
    """The checkers a GNU Backgammon position ID gives (points and counts, and the bar), of the
    player on roll and of the other, each in its own numbering; ValueError if it is not one."""
    key = int.from_bytes(base64.b64decode(text + "=="), "little")
    sides: list[tuple[dict[int, int], int]] = []
    counts = [0] * 25
    point = bit = 0
    while len(sides) < 2 and bit < 80:
        if key >> bit & 1:
            counts[point] += 1
        else:
            point += 1
        bit += 1
        if point == 25:
            sides.append(({p + 1: c for p, c in enumerate(counts[:24]) if c}, counts[24]))
            counts, point = [0] * 25, 0
    if len(sides) < 2 or key >> bit:
        raise ValueError(f"{text!r} is not a GNU Backgammon position ID (too many checkers)")
    return sides[1], sides[0]


def _read_side(text: str, mark: str) -> tuple[dict[int, int], int]:
    """One side's checkers (`24:2 13:5 6 bar:1`) as points and counts, and its bar."""
    layout: dict[int, int] = {}
    bar = None
    for word in text.lower().split():
        match = CHECKERS_AT.match(word)
        if match is None:
            raise ValueError(f"{word!r} is not POINT:COUNT, POINT or bar:COUNT")
        where, count = match.group(1), int(match.group(2) or 1)
        if count < 1:
            raise ValueError(f"{word!r}: a count is at least 1 (leave an empty point out)")
        if where == "bar":
            if bar is not None:
                raise ValueError(f"{mark}'s bar is listed twice")
            bar = count
            continue
        point = int(where)
        if not 1 <= point <= 24:
            raise ValueError(f"{word!r}: points are 1 to 24")
        if point in layout:
            raise ValueError(f"{mark}'s {point} point is listed twice")
        layout[point] = count
    return layout, bar or 0


def _side_text(counts: list[int], bar: int) -> str:
    """One side's checkers as `_read_side` reads them, the bar and the highest points first."""
    words = [f"bar:{bar}"] if bar else []
    words += [f"{index + 1}:{counts[index]}" for index in range(23, -1, -1) if counts[index]]
    return " ".join(words)


def _point_name(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


POSITION = re.compile(r"^\s*([XO])\s*([^:]*?)\s*:(.*)$", re.IGNORECASE)
POSITION_ID = re.compile(r"^[A-Za-z0-9+/]{14}$")
DICE = re.compile(r"^\s*(\d+)\s*[-, ]?\s*(\d+)\s*$")
CHECKERS_AT = re.compile(r"^(bar|\d+)(?::(\d+))?$")
STEP = re.compile(r"^(bar|\d+)((?:/(?:off|\d+)\*?)+)(?:\((\d)\))?$")


def _parse_steps(text: str) -> list[Step]:
    """Steps from notation; `13/7/1` is two steps, `8/5(2)` twice; ValueError when malformed."""
    words = text.lower().replace("*", "").split()
    if words in ([], ["pass"], ["-"]):
        return []
    steps: list[Step] = []
    for word in words:
        match = STEP.match(word)
        if not match:
            raise ValueError(
                f"{word!r} is not a move: write steps like 24/18 13/11, bar/22, 6/off or 8/5(2)"
            )
        chain = [match.group(1), *match.group(2).strip("/").split("/")]
        points = [BAR if p == "bar" else OFF if p == "off" else int(p) for p in chain]
        if any(not 0 <= p <= 25 for p in points):
            raise ValueError(f"{word!r}: points are 1 to 24, with bar and off")
        walk = list(zip(points, points[1:], strict=False))
        steps.extend(walk * int(match.group(3) or 1))
    return steps


def _why_not(mine, theirs, my_bar, source, target, dice) -> str:
    """Why the single step `source/target` cannot be played here."""
    name = f"{_point_name(source)}/{_point_name(target)}"
    if my_bar and source != BAR:
        return f"{name}: you have a checker on the bar, enter it first"
    if source != BAR and (source == OFF or not mine[source - 1]):
        return f"{name}: you have no checker on {_point_name(source)}"
    if target != OFF and source != BAR and target >= source:
        return f"{name}: checkers move down, from higher points to lower ones"
    if target != OFF and theirs[target - 1] >= 2:
        return f"{name}: point {target} is closed (your opponent has {theirs[target - 1]} there)"
    if target == OFF and any(mine[6:]):
        return f"{name}: bear off only when all your checkers are in your home board"
    distance = source if target == OFF else source - target
    left = ", ".join(map(str, sorted(set(dice), reverse=True))) or "none"
    return f"{name}: no die of {distance} left to play it (dice left: {left})"
