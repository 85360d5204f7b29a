"""env.py: a game of the Anywoli family as a turn-based environment in the style of
PettingZoo's AEC API (agent_iter, last, step, reset, observe), without importing PettingZoo.

    env = anywoli.env(variant="anywoli")
    env.reset(seed=42)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else pick(obs["action_mask"])
        env.step(action)

The rules are the engine's (anywoli.Game); docs/python.md documents the observation, the
actions and the rewards.
"""
import numpy as np

from .arguments import as_int
from .game import PLAYERS, Game, IllegalMove


class AnywoliEnv:
    """Two agents, "south" and "north", take turns (an extra turn or a pass may give the same
    agent two turns running: agent_selection always names the one to move).

    Actions: 0 .. holes - 1, the hole of the acting agent's own row (South's hole a is the
    board's hole a, North's is holes + a). Observation (observe(agent)): a dict of
    `observation`, int32 of 2 x holes + 2: the agent's own row, then the opponent's row (each
    in sowing order, so both sides see the board as South sees it), then its own store and
    the opponent's; and `action_mask`, int8 of holes, 1 where the action is legal (all 0 when
    it is not the agent's turn or the game has stopped). Rewards come only at the end: +1 to
    the winner and -1 to the loser under the variant's final_four convention (the lottery's
    coin seeded by reset's seed), 0 each for a draw or an endless game. A game that reaches
    max_plies is truncated, with no reward.
    """
    metadata = {"name": "anywoli_v0", "render_modes": ["ansi"], "is_parallelizable": False}
    possible_agents = list(PLAYERS)

    def __init__(self, variant="anywoli", max_plies=None, render_mode=None, **params):
        if max_plies is not None:
            params["max_plies"] = max_plies
        self._variant, self._params = variant, params
        self.render_mode = render_mode
        self.game = Game(variant, **params)   # a bad variant fails here, not at reset
        self.holes = self.game.holes
        self.num_actions = self.holes
        self.observation_shape = (2 * self.holes + 2,)
        # Each side's view as indices into the board (pits, then the two stores): its own row
        # first, both rows in sowing order, its own store first.
        h = self.holes
        south = np.arange(2 * h + 2)
        north = np.concatenate([np.arange(h, 2 * h), np.arange(h), [2 * h + 1, 2 * h]])
        self._view = (south, north)
        self.agents = []

    def reset(self, seed=None, options=None):
        """A new game from the variant's start; seed (an int, 0 to 2**64 - 1) seeds the
        lottery coin."""
        self.game = Game(self._variant, seed=1 if seed is None else seed, **self._params)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = PLAYERS[self.game.side_to_move]

    def observe(self, agent):
        """agent's observation and action mask (see the class)."""
        board = np.asarray(self.game.board(), dtype=np.int32)
        return {"observation": board[self._view[self._side(agent)]],
                "action_mask": self.action_mask(agent)}

    def action_mask(self, agent=None):
        """1 for each legal action of agent (default: the one to move), else 0."""
        agent = self.agent_selection if agent is None else agent
        side = self._side(agent)
        mask = np.zeros(self.holes, dtype=np.int8)
        if self.game.side_to_move == side:
            mask[np.asarray(self.game.legal_moves(), dtype=np.intp) - side * self.holes] = 1
        return mask

    def step(self, action):
        """The agent to move plays action (None once it is terminated or truncated, which
        removes it). IllegalMove, the game unchanged, for an action that is not legal."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._remove(agent, action)
            return
        if action is None:
            raise IllegalMove(f"{agent}: action None, but the game is not over for it")
        hole = self._hole(agent, action)
        self._cumulative_rewards[agent] = 0
        self.game.play(hole)
        self.rewards = {a: 0 for a in self.agents}
        if self.game.is_over():
            self._end()
        self.agent_selection = PLAYERS[self.game.side_to_move]
        for a in self.agents:
            self._cumulative_rewards[a] += self.rewards[a]

    def last(self, observe=True):
        """(observation, cumulative reward, termination, truncation, info) of the agent to
        move."""
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def agent_iter(self, max_iter=2 ** 63):
        """The agent to act, step after step, until every agent is removed."""
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def render(self):
        """The position in APN."""
        return self.game.to_apn()

    def close(self):
        pass

    def _side(self, agent):
        try:
            return PLAYERS.index(agent)
        except ValueError:
            raise IllegalMove(f"unknown agent {agent!r} (expected south or north)") from None

    def _hole(self, agent, action):
        """The board's hole of agent's action, if legal: TypeError unless an int (the rule of
        every integer argument, arguments.py), else IllegalMove saying why not."""
        a = as_int(action, f"{agent}: action", (0, self.holes - 1), IllegalMove)
        hole = a + self._side(agent) * self.holes
        if hole not in self.game.legal_moves():
            legal = [m - self._side(agent) * self.holes for m in self.game.legal_moves()]
            raise IllegalMove(f"{agent}: action {a} is not legal: its hole is empty (legal: "
                              f"{legal})")
        return hole

    def _end(self):
        """Terminations (over, endless) or truncations (max_plies), and the final rewards."""
        status = self.game.status
        for a in self.agents:
            if status == "unfinished":
                self.truncations[a] = True
            else:
                self.terminations[a] = True
        returns = self.game.returns()
        self.rewards = {a: int(returns[self._side(a)]) for a in self.agents}
        result = self.game.result()
        for a in self.agents:
            self.infos[a] = {"outcome": result.outcome, "scores": (result.south, result.north),
                             "plies": self.game.plies}

    def _remove(self, agent, action):
        """The dead step of a terminated or truncated agent: it leaves the game."""
        if action is not None:
            raise IllegalMove(f"{agent}: the game has stopped; its step takes None, not "
                              f"{action!r}")
        self.agents.remove(agent)
        self._cumulative_rewards.pop(agent)
        if self.agents:
            self.agent_selection = self.agents[0]


def env(**kwargs):
    """A new AnywoliEnv (PettingZoo's `env()` constructor)."""
    return AnywoliEnv(**kwargs)
