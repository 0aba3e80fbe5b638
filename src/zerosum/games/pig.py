"""Pig, the dice game: roll to build a turn total, hold to bank it, a 1 loses the turn.

On a turn the player to move rolls a die as often as they like. A 1 ends the turn and the turn
total is lost; any other face is added to the turn total. Holding banks the turn total and
passes the turn (a player must roll at least once, so a turn always ends with something
risked). The first player whose banked score plus turn total reaches the target (100 by
default) wins at once.

A state is the tuple `(player, score0, score1, turn, rolling)`: the player whose turn it is,
the two banked scores, the turn total, and whether the die is in the air (`rolling`: a chance
node, the player has chosen to roll). The moves are the strings `"roll"` and `"hold"`; the
chance outcomes are the faces 1-6, each with probability 1/6. Utilities are +1 for the winner
and -1 for the loser.

As text a position is `"score0 score1 turn player"` (e.g. `"35 40 12 0"`: player 0 has banked
35, player 1 40, and player 0 is on a turn total of 12); `"35 40"` means a turn just started
for player 0.
"""

from __future__ import annotations

from zerosum.game import Player

State = tuple[int, int, int, int, bool]

ROLL, HOLD = "roll", "hold"
FACES = tuple((face, 1 / 6) for face in range(1, 7))


class Pig:
    """Pig to `target` points (two players, one die)."""

    player_names = ("P0", "P1")

    def __init__(self, target: int = 100) -> None:
        if target < 1:
            raise ValueError(f"the target must be at least 1 point, got {target}")
        self.target = target

    def initial_state(self) -> State:
        return (0, 0, 0, 0, False)

    def to_move(self, state: State) -> Player:
        return state[0]

    def legal_moves(self, state: State) -> tuple[str, ...]:
        if state[4] or self.is_terminal(state):
            return ()
        return (ROLL, HOLD) if state[3] else (ROLL,)

    def result(self, state: State, move: str | int) -> State:
        player, score0, score1, turn, rolling = state
        if rolling:  # `move` is the face the die shows
            if not isinstance(move, int):
                raise ValueError(f"the die is rolling: {move!r} is not a face")
            if move == 1:
                return (1 - player, score0, score1, 0, False)
            turn += move
            mine = (score0 if player == 0 else score1) + turn
            if mine >= self.target:  # reached the target: bank it, the game is over
                if player == 0:
                    return (0, mine, score1, 0, False)
                return (1, score0, mine, 0, False)
            return (player, score0, score1, turn, False)
        if move == ROLL:
            return (player, score0, score1, turn, True)
        if player == 0:
            return (1, score0 + turn, score1, 0, False)
        return (0, score0, score1 + turn, 0, False)

    def is_terminal(self, state: State) -> bool:
        return state[1] >= self.target or state[2] >= self.target

    def utility(self, state: State, player: Player) -> int:
        winner = 0 if state[1] >= self.target else 1 if state[2] >= self.target else None
        if winner is None:
            return 0
        return 1 if winner == player else -1

    def is_chance(self, state: State) -> bool:
        return state[4]

    def chance_outcomes(self, state: State) -> tuple[tuple[int, float], ...]:
        return FACES

    def key(self, state: State) -> State:
        return state

    def value_bounds(self) -> tuple[float, float]:
        return (-1, 1)

    def evaluate(self, state: State, player: Player) -> float:
        """A race estimate for `player` in [-1, 1]: the lead in points, counting the turn total.

        Exact (+1 or -1) on finished games.
        """
        if self.is_terminal(state):
            return self.utility(state, player)
        mover, score0, score1, turn, _ = state
        if mover == 0:
            score0 += turn
        else:
            score1 += turn
        lead = (score0 - score1) / self.target
        return lead if player == 0 else -lead

    def parse_move(self, state: State, text: str) -> str:
        word = text.strip().lower()
        move = ROLL if word in ("r", "roll") else HOLD if word in ("h", "hold") else None
        if move is None:
            raise ValueError(f"{text!r} is not a move: type roll (r) or hold (h)")
        if move not in self.legal_moves(state):
            raise ValueError("you cannot hold before rolling at least once this turn")
        return move

    def format_move(self, state: State, move: str | int) -> str:
        return f"rolled {move}" if state[4] else str(move)

    def parse_state(self, text: str) -> State:
        parts = text.split()
        if len(parts) not in (2, 4) or not all(part.isdigit() for part in parts):
            raise ValueError(
                f"bad position {text!r}: expected 'score0 score1' or 'score0 score1 turn player'"
            )
        score0, score1, turn, player = (*map(int, parts), 0, 0)[:4]
        if player not in (0, 1):
            raise ValueError(f"bad position {text!r}: the player is 0 or 1, got {player}")
        if turn == 1:
            raise ValueError(f"bad position {text!r}: a turn total cannot be 1 (a 1 ends the turn)")
        over = max(score0, score1) >= self.target
        if over and turn:
            raise ValueError(f"bad position {text!r}: the game is over, there is no turn total")
        mine = score0 if player == 0 else score1
        if not over and mine + turn >= self.target:
            raise ValueError(
                f"bad position {text!r}: {mine} + {turn} reaches the target {self.target},"
                " so the game is already over"
            )
        return (player, score0, score1, turn, False)

    def render(self, state: State) -> str:
        """The banked scores of P0 and P1, and the turn total of the player on turn."""
        player, score0, score1, turn, rolling = state
        lines = [f"Pig to {self.target}"]
        for who, score in ((0, score0), (1, score1)):
            line = f"  P{who}: {score:3d}"
            if who == player and not self.is_terminal(state):
                line += f"   on turn, turn total {turn}" + (", rolling" if rolling else "")
            lines.append(line)
        return "\n".join(lines)
