"""A Gymnasium environment: one learning seat against bots, registered as ``chickenfoot/Chickenfoot-v0``.

Gymnasium 1.0 dropped the plugin entry points that let ``gymnasium.make`` find a package's
environments by themselves; its way now names the module to import in the id, so no import of this
module is needed first:

>>> import gymnasium
>>> env = gymnasium.make("chickenfoot.interop.gymnasium:chickenfoot/Chickenfoot-v0", players=3)
>>> env.unwrapped.seat, env.unwrapped.game.players
(0, 3)

>>> e = ChickenfootEnv(players=4, opponents="greedy")
>>> obs, info = e.reset(seed=1)
>>> obs["observation"].shape, int(obs["action_mask"].sum()) >= 1, info["seat"]
((299,), True, 0)

The other seats are played by :func:`chickenfoot.bots.make_bot` bots (one name for all, or a list
with one name per other seat, in seat order), each given only its own seat view. Observations,
actions and rewards are those of :mod:`chickenfoot.interop.pettingzoo` for the learning seat; the
episode ends with the round (or the match, with ``full_match=True``). An illegal action (one
whose ``action_mask`` bit is 0, or outside the action space) forfeits the episode, as described in
:mod:`chickenfoot.interop.illegal`: it ends with ``illegal_reward`` (default and maximum:
:func:`~chickenfoot.interop.illegal.illegal_reward`, worse than any legal play) and
``info["illegal"] = True``, so unmasked agents and Gymnasium's checker can run.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np

from chickenfoot.bots import Bot, make_bot
from chickenfoot.errors import RulesError
from chickenfoot.interop.pettingzoo import Observation, RewardKind, raw_env


class ChickenfootEnv(gym.Env[Observation, np.int64]):
    """One seat of a Chicken Foot round (or match) against bots (see the module docstring)."""

    metadata = {  # noqa: RUF012 (the libraries define metadata as a plain dict)
        "render_modes": ["ansi", "human"]
    }
    """Gymnasium's description of the environment: its render modes."""

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
        """The learning seat ``seat`` of ``players`` against bots named by ``opponents``; ``preset``, the rule
        fields, ``reward``, ``full_match`` and ``render_mode`` as for
        :class:`~chickenfoot.interop.pettingzoo.raw_env`. ``illegal_reward`` (at most the default, the worst
        legal return) is what an illegal action pays. A bad option raises
        :class:`~chickenfoot.errors.RulesError` naming it."""
        self.game = raw_env(
            players, preset=preset, reward=reward, full_match=full_match, render_mode=render_mode, **rules
        )
        """The PettingZoo environment that plays the game; ``game.round`` is the whole truth, never the agent's."""
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise RulesError(f"seat must be from 0 to {players - 1} (got {seat!r})")
        names = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != players - 1:
            raise RulesError(f"give one opponent for each of the {players - 1} other seats (got {len(names)})")
        self.seat = seat
        """The learning seat."""
        self.agent = f"player_{seat}"
        """Its agent's name in :attr:`game`."""
        self.opponent_names = names
        """The bot of each other seat, in seat order."""
        self.bots: dict[int, Bot] = {}
        """The bots playing the other seats, by seat."""
        self.make_bots(None)
        self.render_mode = render_mode
        """``"ansi"``, ``"human"`` or ``None``."""
        worst = self.game.illegal_reward
        if illegal_reward is not None and not illegal_reward <= worst:
            raise RulesError(
                f"illegal_reward must be at most {worst:g}, the worst legal return (got {illegal_reward!r})"
            )
        self.illegal_reward = worst if illegal_reward is None else illegal_reward
        """What an illegal action pays (it ends the episode)."""
        self.action_space = self.game.action_space(self.agent)
        """``Discrete`` over every move of the set (:class:`~chickenfoot.interop.actions.ActionCodec`)."""
        self.observation_space = self.game.observation_space(self.agent)
        """A ``Dict`` of ``observation`` (the features) and ``action_mask``."""

    def make_bots(self, seed: int | None) -> None:
        """Make the opponents afresh, seat ``s``'s seeded ``seed + s`` (``None``: unseeded)."""
        others = [s for s in range(self.game.players) if s != self.seat]
        self.bots = {
            s: make_bot(name, None if seed is None else seed + s)
            for s, name in zip(others, self.opponent_names, strict=True)
        }

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new round (or match) and let the bots move until the learning seat is to act: its
        observation and ``{"seat": seat}``. A ``seed`` also reseeds the bots."""
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
        """Play the learning seat's action, then the bots' until it is to act again: Gymnasium's five-tuple.
        An illegal action ends the episode with :attr:`illegal_reward` and ``info["illegal"]``."""
        game = self.game
        if game.terminations[self.agent]:
            raise RuntimeError("the episode is over: call reset()")
        if game.illegal_reason(int(action)) is not None:
            game.forfeit(self.illegal_reward)
            return game.observe(self.agent), self.illegal_reward, True, False, {**self._info(), "illegal": True}
        self._reward = 0.0
        game.step(int(action))
        self._reward += game.rewards[self.agent]
        self._play_bots()
        return game.observe(self.agent), self._reward, game.terminations[self.agent], False, self._info()

    def render(self) -> str | None:
        """``ansi``: the round as text; ``human``: that text printed."""
        text = self.game.render()
        if self.render_mode == "human" and text is not None:
            print(text)
            return None
        return text


gym.register(id="chickenfoot/Chickenfoot-v0", entry_point="chickenfoot.interop.gymnasium:ChickenfootEnv")
