"""A PettingZoo AEC environment: one round (or a whole match) of Chicken Foot.

>>> e = env(players=3, max_pip=6)
>>> e.reset(seed=7)
>>> e.agent_selection, int(e.action_space("player_0").n)
('player_0', 303)
>>> obs, reward, terminated, truncated, info = e.last()
>>> sorted(obs), int(obs["action_mask"].sum())
(['action_mask', 'observation'], 1)

Agents are ``player_0`` .. ``player_{P-1}`` (seat ``s`` is ``player_s``). Actions are numbered by
:class:`~chickenfoot.interop.actions.ActionCodec`; the observation is
``{"observation": features, "action_mask": legal actions}`` with the features of
:mod:`chickenfoot.interop.features`, built from the agent's own seat view only. The same agent may
act several times in a row (it draws, then plays the drawn tile).

Rewards come when a round ends: ``reward="points"`` gives each agent minus its points;
``reward="zero_sum"`` gives the table's mean points minus its own (the rewards sum to 0). With
``full_match=True`` the episode is a whole match (docs/rules.md §2): each round's rewards arrive as it
ends and the next round is dealt at once.

An illegal action (see :mod:`chickenfoot.interop.illegal`): ``raw_env`` refuses it with an
:class:`~chickenfoot.errors.IllegalMoveError` saying why, changing nothing; ``env()`` and
``parallel_env()`` end the episode and give the offender
:func:`~chickenfoot.interop.illegal.illegal_reward`, worse than any legal play.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from chickenfoot.errors import IllegalMoveError, RulesError
from chickenfoot.interop.actions import ActionCodec
from chickenfoot.interop.features import ObservationEncoder
from chickenfoot.interop.illegal import illegal_reward
from chickenfoot.match import Match
from chickenfoot.round import Round
from chickenfoot.rules import Rules

RewardKind = Literal["points", "zero_sum"]
Observation = dict[str, np.ndarray[Any, Any]]


def make_rules(preset: str | None, options: dict[str, Any]) -> Rules:
    """Rules from an optional preset name and rule fields (``max_pip=12``, ``hub_arms=6`` ...)."""
    base = Rules.preset(preset) if preset is not None else Rules()
    return Rules.from_dict({**base.to_dict(), **options})


def round_rewards(points: list[int], kind: RewardKind) -> list[float]:
    if kind == "points":
        return [-float(p) for p in points]
    mean = sum(points) / len(points)
    return [mean - p for p in points]


def render_text(round_: Round, totals: list[int] | None = None) -> str:
    """The round as text: layout, open ends, every hand (a render is for people watching, not agents)."""
    lines = [f"round with hub {round_.start_double}-{round_.start_double}, boneyard {round_.boneyard_size}"]
    layout = " ".join(str(tile) if target is None else f"{tile}@{target}" for tile, target in round_.placed())
    lines.append(f"layout: {layout or '(empty)'}")
    view = round_.view(None)
    ends = ", ".join(f"{number} on {target}" for target, number in view.open_ends)
    lines.append(f"open ends ({view.phase.name.lower()}): {ends or '-'}")
    for seat in range(round_.players):
        marker = "*" if seat == round_.to_move and not round_.is_over() else " "
        hand = " ".join(str(t) for t in round_.hand(seat))
        total = f" total {totals[seat]}" if totals is not None else ""
        lines.append(f"{marker} player_{seat} ({len(round_.hand(seat))}){total}: {hand}")
    if round_.is_over():
        lines.append(f"round over ({round_.end_reason}): points {round_.points()}")
    return "\n".join(lines)


class raw_env(AECEnv):  # type: ignore[misc]
    """Chicken Foot as an AEC environment (see the module docstring)."""

    metadata = {  # noqa: RUF012 (the libraries define metadata as a plain dict)
        "render_modes": ["ansi", "human"],
        "name": "chickenfoot_v0",
        "is_parallelizable": False,
    }
    """PettingZoo's description of the environment: its render modes and name."""

    def __init__(
        self,
        players: int = 4,
        *,
        preset: str | None = None,
        reward: RewardKind = "points",
        full_match: bool = False,
        render_mode: str | None = None,
        **rules: Any,
    ) -> None:
        """A table of ``players`` seats. The rules are a preset's (``preset="six-arms"``) or the defaults, with
        any rule field given by name changed (``max_pip=12``); ``reward`` is ``"points"`` or ``"zero_sum"``;
        ``full_match`` makes the episode a whole match; ``render_mode`` is ``"ansi"``, ``"human"`` or ``None``.
        A bad option raises :class:`~chickenfoot.errors.RulesError` naming it."""
        super().__init__()
        self.rules = make_rules(preset, rules)
        """The rule options every round is played by."""
        self.rules.hand_size_for(players)
        if reward not in ("points", "zero_sum"):
            raise RulesError(f"reward must be 'points' or 'zero_sum' (got {reward!r})")
        if render_mode is not None and render_mode not in ("ansi", "human"):
            raise RulesError(f"render_mode must be 'ansi' or 'human' (got {render_mode!r})")
        self.players = players
        """The number of seats (and agents)."""
        self.reward_kind: RewardKind = reward
        """``"points"`` (minus one's own points) or ``"zero_sum"`` (the table's mean minus one's own)."""
        self.full_match = full_match
        """Whether an episode is a whole match rather than one round."""
        self.render_mode = render_mode
        """``"ansi"``, ``"human"`` or ``None`` (:meth:`render`)."""
        self.codec = ActionCodec.for_max_pip(self.rules.max_pip)
        """The numbering of actions."""
        self.encoder = ObservationEncoder(self.rules, players, match=full_match)
        """The features of each agent's observation."""
        self.possible_agents = [f"player_{s}" for s in range(players)]
        """``player_0`` .. ``player_{P-1}``: seat ``s`` is ``player_s``."""
        self.agents = self.possible_agents[:]
        """The agents still in the episode."""
        self._action_space = spaces.Discrete(self.codec.size)
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, shape=(self.encoder.size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(self.codec.size,), dtype=np.int8),
            }
        )
        self.action_spaces = dict.fromkeys(self.possible_agents, self._action_space)
        """Each agent's action space: ``Discrete(codec.size)``, the same for all."""
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._observation_space)
        """Each agent's observation space: a ``Dict`` of ``observation`` (the features) and ``action_mask``."""
        self.np_random, _ = seeding.np_random(None)
        self.match: Match | None = None
        """The match being played, with ``full_match`` (else ``None``)."""
        self.round: Round | None = None
        """The round being played (``None`` before :meth:`reset`): the whole truth, hidden hands included;
        agents are given only their views."""
        self.illegal_reward = illegal_reward(self.rules, full_match=full_match)
        """What an illegal action pays in the forfeiting environments (:mod:`chickenfoot.interop.illegal`)."""

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new round (or match); ``seed`` makes the deals reproducible. ``options`` is unused."""
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        deal_seed = int(self.np_random.integers(2**63))
        if self.full_match:
            self.match = Match(self.rules, self.players, seed=deal_seed)
            self.round = self.match.round
        else:
            self.round = Round.deal(self.rules, self.players, seed=deal_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.round.to_move]

    def _current(self) -> Round:
        if self.round is None:
            raise RuntimeError("call reset() before using the environment")
        return self.round

    def observe(self, agent: str) -> Observation:
        """``{"observation": features, "action_mask": legal actions}`` of ``agent``, from its own seat view."""
        round_ = self._current()
        view = round_.view(self.possible_agents.index(agent))
        if self.match is not None:
            features = self.encoder.encode(view, self.match.totals(), len(self.match.round_points))
        else:
            features = self.encoder.encode(view)
        return {"observation": features, "action_mask": self.encoder.action_mask(view)}

    def illegal_reason(self, action: int | None) -> str | None:
        """Why the agent to move may not take ``action`` now (``None``: it may)."""
        if action is None or not 0 <= int(action) < self.codec.size:
            return f"action {action!r} is out of range 0..{self.codec.size - 1}"
        round_ = self._current()
        if self.codec.codes[int(action)] in round_.legal_codes():
            return None
        move = self.codec.move_of(int(action))
        return f"illegal action {int(action)} ({move}) for {self.agent_selection}: {round_.why_illegal(move)}"

    def forfeit(self, reward: float | None = None) -> None:
        """End the episode because the agent to move chose an illegal action: it gets ``reward``
        (default :attr:`illegal_reward`), the others 0, and its info says ``"illegal": True``."""
        agent = self.agent_selection
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = self.illegal_reward if reward is None else reward
        self._cumulative_rewards[agent] = 0.0
        self.terminations = dict.fromkeys(self.agents, True)
        self.infos[agent] = {**self.infos[agent], "illegal": True}
        self._accumulate_rewards()

    def step(self, action: int | None) -> None:
        """Play the action of the agent to move; an illegal one raises
        :class:`~chickenfoot.errors.IllegalMoveError` saying why and changes nothing."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        reason = self.illegal_reason(action)
        if reason is not None:
            raise IllegalMoveError(reason)
        assert action is not None
        round_ = self._current()
        code = self.codec.codes[int(action)]
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.match is not None:
            self.match.push(self.codec.move_of(int(action)))
        else:
            round_.push_code(code)
        if round_.is_over():
            for name, value in zip(self.possible_agents, round_rewards(round_.points(), self.reward_kind), strict=True):
                self.rewards[name] = value
            if self.match is not None and not self.match.is_over():
                self.round = self.match.next_round()
            else:
                self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = self.possible_agents[self._current().to_move]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """``ansi``: the round as text; ``human``: that text printed (returning ``None``, as PettingZoo expects)."""
        if self.render_mode is None:
            return None
        totals = self.match.totals() if self.match is not None else None
        text = render_text(self._current(), totals)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


class ForfeitIllegal(wrappers.BaseWrapper):  # type: ignore[misc]
    """An illegal action ends the episode (:meth:`raw_env.forfeit`) instead of raising."""

    def step(self, action: int | None) -> None:
        game = self.env.unwrapped
        agent = game.agent_selection
        if not (game.terminations[agent] or game.truncations[agent]) and game.illegal_reason(action) is not None:
            game.forfeit()
        else:
            super().step(action)


def env(players: int = 4, **kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual classic-game wrappers, an illegal action forfeiting
    the episode (:mod:`chickenfoot.interop.illegal`) where ``raw_env`` refuses it."""
    wrapped: AECEnv = raw_env(players, **kwargs)
    wrapped = ForfeitIllegal(wrapped)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class parallel_env(ParallelEnv):  # type: ignore[misc]
    """The game through PettingZoo's parallel API: every live agent is asked for an action each step,
    and only that of the agent to move is played (the others' masks are all 0; their actions are
    ignored). The agent to move's action must be given; an illegal one forfeits the episode
    (:mod:`chickenfoot.interop.illegal`). Arguments as for :class:`raw_env`.

    >>> e = parallel_env(players=2)
    >>> observations, infos = e.reset(seed=3)
    >>> [int(observations[a]["action_mask"].sum() > 0) for a in e.agents]
    [1, 0]
    """

    metadata = {  # noqa: RUF012 (the libraries define metadata as a plain dict)
        "render_modes": ["ansi", "human"],
        "name": "chickenfoot_v0",
    }
    """PettingZoo's description of the environment: its render modes and name."""

    def __init__(self, players: int = 4, **kwargs: Any) -> None:
        self.game = raw_env(players, **kwargs)
        """The AEC environment that plays the game."""
        self.possible_agents = self.game.possible_agents
        """``player_0`` .. ``player_{P-1}``."""
        self.agents: list[str] = []
        """The agents of the episode under way (empty before :meth:`reset` and once it is over)."""
        self.render_mode = self.game.render_mode
        """``"ansi"``, ``"human"`` or ``None``."""

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent``."""
        return self.game.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``."""
        return self.game.action_space(agent)

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        """Deal a new round (or match): every agent's observation and info."""
        self.game.reset(seed=seed, options=options)
        self.agents = self.game.agents[:]
        return self._observations(), {agent: {} for agent in self.agents}

    def _observations(self) -> dict[str, Observation]:
        return {agent: self.game.observe(agent) for agent in self.agents}

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[
        dict[str, Observation],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """Play the action of the agent to move (the others' are ignored): observations, rewards,
        terminations, truncations and infos of every live agent."""
        game = self.game
        if not self.agents:
            raise RuntimeError("the episode is over: call reset()")
        mover = game.agent_selection
        if mover not in actions:
            raise IllegalMoveError(f"no action for {mover}, the agent to move")
        if game.illegal_reason(actions[mover]) is None:
            game.step(int(actions[mover]))
        else:
            game.forfeit()
        live = self.agents
        result = (
            self._observations(),
            {agent: float(game.rewards[agent]) for agent in live},
            {agent: bool(game.terminations[agent]) for agent in live},
            {agent: bool(game.truncations[agent]) for agent in live},
            {agent: dict(game.infos[agent]) for agent in live},
        )
        if all(game.terminations.values()):
            self.agents = []
        return result

    def render(self) -> str | None:
        """As :meth:`raw_env.render`."""
        return self.game.render()

    def close(self) -> None:
        """Nothing to release."""
        self.game.close()
