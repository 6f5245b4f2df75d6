"""A Gymnasium environment: one learning seat against bots.

>>> e = ChickenfootEnv(players=4, opponents="greedy")
>>> obs, info = e.reset(seed=1)
>>> obs["observation"].shape, int(obs["action_mask"].sum()) >= 1, info["seat"]
((299,), True, 0)

The other seats are played by :func:`chickenfoot.bots.make_bot` bots (one name for all, or a list
with one name per other seat, in seat order), each given only its own seat view. Observations,
actions and rewards are those of :mod:`chickenfoot.interop.pettingzoo` for the learning seat; the
episode ends with the round (or the match, with ``full_match=True``). An illegal action ends the
episode with ``illegal_reward`` (default: minus the most points a hand can score in a round) and
``info["illegal"] = True``, so unmasked agents and Gymnasium's checker can run.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np

from chickenfoot.bots import Bot, make_bot
from chickenfoot.errors import RulesError
from chickenfoot.interop.features import max_round_points
from chickenfoot.interop.pettingzoo import Observation, RewardKind, raw_env


class ChickenfootEnv(gym.Env[Observation, np.int64]):
    """One seat of a Chicken Foot round (or match) against bots (see the module docstring)."""

    metadata = {  # noqa: RUF012 (the libraries define metadata as a plain dict)
        "render_modes": ["ansi", "human"]
    }

    def __init__(
        self,
        players: int = 4,
        *,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        preset: str | None = None,
        reward: RewardKind = "points",
        full_match: bool = False,
        illegal_reward: float | None = None,
        render_mode: str | None = None,
        **rules: Any,
    ) -> None:
        self.game = raw_env(
            players, preset=preset, reward=reward, full_match=full_match, render_mode=render_mode, **rules
        )
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise RulesError(f"seat must be from 0 to {players - 1} (got {seat!r})")
        names = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != players - 1:
            raise RulesError(f"give one opponent for each of the {players - 1} other seats (got {len(names)})")
        self.seat = seat
        self.agent = f"player_{seat}"
        self.opponent_names = names
        self.bots: dict[int, Bot] = {}
        self.make_bots(None)
        self.render_mode = render_mode
        self.illegal_reward = -float(max_round_points(self.game.rules)) if illegal_reward is None else illegal_reward
        self.action_space = self.game.action_space(self.agent)
        self.observation_space = self.game.observation_space(self.agent)

    def make_bots(self, seed: int | None) -> None:
        others = [s for s in range(self.game.players) if s != self.seat]
        self.bots = {
            s: make_bot(name, None if seed is None else seed + s)
            for s, name in zip(others, self.opponent_names, strict=True)
        }

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self.make_bots(seed)
        self.game.reset(seed=int(self.np_random.integers(2**63)))
        self._reward = 0.0
        self._play_bots()
        return self.game.observe(self.agent), self._info()

    def _info(self) -> dict[str, Any]:
        return {"seat": self.seat}

    def _play_bots(self) -> None:
        """Let the bots move until it is the learning seat's turn or the episode is over."""
        game = self.game
        while not game.terminations[self.agent] and game.agent_selection != self.agent:
            round_ = game._current()
            seat = round_.to_move
            move = self.bots[seat].choose(round_.view(seat))
            game.step(game.codec.index[move.code])
            self._reward += game.rewards[self.agent]

    def step(self, action: np.int64 | int) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        game = self.game
        if game.terminations[self.agent]:
            raise RuntimeError("the episode is over: call reset()")
        mask = game.encoder.action_mask(game._current().view(self.seat))
        if not 0 <= int(action) < len(mask) or not mask[int(action)]:
            info = {**self._info(), "illegal": True}
            game.terminations = dict.fromkeys(game.agents, True)
            return game.observe(self.agent), self.illegal_reward, True, False, info
        self._reward = 0.0
        game.step(int(action))
        self._reward += game.rewards[self.agent]
        self._play_bots()
        return game.observe(self.agent), self._reward, game.terminations[self.agent], False, self._info()

    def render(self) -> str | None:
        text = self.game.render()
        if self.render_mode == "human" and text is not None:
            print(text)
            return None
        return text


gym.register(id="chickenfoot/Chickenfoot-v0", entry_point="chickenfoot.interop.gymnasium:ChickenfootEnv")
