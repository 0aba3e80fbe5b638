"""zerosum's games as PettingZoo environments: `env("connect4")`, `env(TicTacToe())`, or
`raw_env("tictactoe")` without PettingZoo's wrappers.

PettingZoo (`pip install pettingzoo`) is the interface reinforcement-learning code meets
multi-agent games through. Its AEC ("agent environment cycle") API steps one agent at a time,
which is how a two-player game takes turns. `ZerosumEnv(game)` wraps a zerosum game whose moves
are numbered once and for all (`NumberedMoves`) and that shows its positions as arrays
(`Observing`): tic-tac-toe, Connect Four, Othello, Nim, or a game of your own with
`move_count`, `move_number`, `numbered_move`, `observation_shape` and `observation`. The game
is a game object or its name as the command line takes it (`"connect4(width=5,height=4)"`,
`"race.py:Race"`, `"openspiel:go(board_size=9)"`), made by the registry: this module is one of
the package's faces, as the command line and the page are, and no other module imports it.

- the agents are `player_0` (who moves first) and `player_1`;
- an action is a move's number, the action space `Discrete(move_count())`;
- an observation is a dict: `observation`, the game's planes of 0s and 1s from the agent's side
  (`Observing`: the agent's own pieces first), and `action_mask`, 1 for the legal moves of the
  agent to move (all 0 for the other);
- rewards come at the end: each agent's utility (zero-sum: the two add up to 0), 0 before;
- `render()` is the game's drawing of the position, as text.

Refused with the reason (ValueError): a game without numbered moves or observations, with
chance (an environment would hide the dice from the agents' turns) or hidden information.

As PettingZoo's own classic games, the module has `raw_env` (the environment itself) and `env`
(it inside PettingZoo's wrappers that check the calls' order and the actions' range).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from zerosum.game import (
    Game,
    InformationSets,
    NumberedMoves,
    Observing,
    Rendering,
    has_chance,
)
from zerosum.registry import named_game

AGENTS = ("player_0", "player_1")
"""The agents' names: PettingZoo's classic environments call their players so."""


class ZerosumEnv(AECEnv):
    """A zerosum game as a PettingZoo AEC environment (see the module)."""

    metadata = {"name": "zerosum", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game: Game[Any, Any] | str, render_mode: str | None = None) -> None:
        super().__init__()
        game = named_game(game)
        _check(game)
        assert isinstance(game, NumberedMoves)  # as `_check` has just said
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be 'ansi' or None, got {render_mode!r}")
        self.game = game
        self.numbered: NumberedMoves = game
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"zerosum_{type(game).__name__.lower()}"}
        self.possible_agents = list(AGENTS)
        count = game.move_count()
        assert isinstance(game, Observing)  # as `_check` has just said
        self.observing: Observing = game
        shape = tuple(game.observation_shape())
        self._action_space = spaces.Discrete(count)
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0, 1, shape, np.int8),
                "action_mask": spaces.Box(0, 1, (count,), np.int8),
            }
        )
        self.position: Any = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """The game's start; `seed` has no use (the rules have no chance)."""
        self.agents = list(AGENTS)
        self.position = self.game.initial_state()
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = AGENTS[self.game.to_move(self.position)]

    def legal_numbers(self) -> list[int]:
        """The numbers of the legal moves of the player to move (none once the game is over)."""
        if self.game.is_terminal(self.position):
            return []
        return [self.numbered.move_number(m) for m in self.game.legal_moves(self.position)]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """What `agent` sees: the position from its side and the mask of its legal moves."""
        planes = np.asarray(self.observing.observation(self.position, AGENTS.index(agent)), np.int8)
        mask = np.zeros(self.numbered.move_count(), np.int8)
        if agent == self.agent_selection:
            mask[self.legal_numbers()] = 1
        return {"observation": planes, "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play the move numbered `action` for the agent to move; after the end, each agent's
        last step (PettingZoo's way of letting it see the result) takes `None`. ValueError for
        a number that is not a legal move."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or int(action) not in self.legal_numbers():
            raise ValueError(f"{action!r} is not a legal move's number for {agent}")
        self._cumulative_rewards[agent] = 0.0
        self.position = self.game.result(self.position, self.numbered.numbered_move(int(action)))
        if self.game.is_terminal(self.position):
            for player, name in enumerate(AGENTS):
                self.rewards[name] = float(self.game.utility(self.position, player))
                self.terminations[name] = True
            self.agent_selection = AGENTS[1 - AGENTS.index(agent)]
        else:
            self.agent_selection = AGENTS[self.game.to_move(self.position)]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The position drawn as text (`render_mode="ansi"`); None without a render mode."""
        if self.render_mode is None:
            return None
        if isinstance(self.game, Rendering):
            return self.game.render(self.position)
        return str(self.position)

    def close(self) -> None:
        """Nothing to release."""


raw_env = ZerosumEnv
"""PettingZoo's name for an environment without its wrappers."""


def env(
    game: Game[Any, Any] | str,
    render_mode: str | None = None,
    illegal_reward: float | None = None,
) -> AECEnv:
    """`ZerosumEnv(game, render_mode)` (the game itself or its name, `"connect4"`) inside
    PettingZoo's wrappers, as its classic games come:
    acting, observing or rendering before `reset` is refused (`OrderEnforcingWrapper`), and so
    is an action outside the action space (`AssertOutOfBoundsWrapper`), each by an
    AssertionError. A number in range that is not a legal move is a ValueError, unless
    `illegal_reward` is given: then the game ends there, that reward going to the agent who
    tried the move and 0 to the other (`TerminateIllegalWrapper`; PettingZoo's classic games
    give -1)."""
    wrapped: AECEnv = ZerosumEnv(game, render_mode)
    if illegal_reward is not None:
        wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=illegal_reward)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(wrapped))


def _check(game: Game[Any, Any]) -> None:
    """ValueError naming why `game` cannot be an environment."""
    name = type(game).__name__
    if isinstance(game, InformationSets):
        raise ValueError(f"{name} hides information: an environment here shows the whole game")
    if has_chance(game):
        raise ValueError(f"{name} has chance: an environment here is for games without dice")
    if not isinstance(game, NumberedMoves):
        raise ValueError(
            f"{name} does not number its moves (NumberedMoves: move_count, move_number,"
            " numbered_move): an environment's actions are a fixed range of numbers"
        )
    if not isinstance(game, Observing):
        raise ValueError(
            f"{name} does not show its positions as arrays (Observing: observation_shape,"
            " observation): an environment's agents see arrays"
        )
