"""One illegal-action policy: refused with the reason by the raw interfaces, forfeited in the learning
environments for less than any legal play could ever get (compared with docs/rules.md §5's scoring)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test

from chickenfoot.errors import IllegalMoveError
from chickenfoot.interop.gymnasium import ChickenfootEnv
from chickenfoot.interop.illegal import illegal_reward
from chickenfoot.interop.pettingzoo import env, parallel_env, raw_env
from chickenfoot.rules import Rules


def worst_legal_round_reward(rules: Rules, players: int, kind: str) -> float:
    """The lowest reward a seat could get for a round under any split of the tiles, from the scoring
    rule alone: a tile left in a hand scores its pips, the 0-0 ``double_blank_points``."""
    n = rules.max_pip
    values = [rules.double_blank_points if a == b == 0 else a + b for a in range(n + 1) for b in range(a, n + 1)]
    if kind == "points":  # minus one's own points: worst holding every tile that scores above 0
        return -float(sum(v for v in values if v > 0))
    # the table's mean minus one's own: a tile in one's hand adds -(P-1)v/P, in another's v/P, on the table 0
    return sum(min(-(players - 1) * v / players, v / players, 0.0) for v in values)


@dataclass(frozen=True)
class Case:
    rules: Rules
    players: int
    reward: str
    full_match: bool

    def kwargs(self) -> dict[str, Any]:
        return {"reward": self.reward, "full_match": self.full_match, **self.rules.to_dict()}

    @property
    def rounds(self) -> int:
        return self.rules.round_count if self.full_match else 1


CASES = [
    Case(Rules(), 4, "points", False),
    Case(Rules(), 2, "zero_sum", False),
    Case(Rules(double_blank_points=-40), 3, "zero_sum", False),
    Case(Rules(double_blank_points=-40), 2, "points", False),
    Case(Rules(max_pip=6, double_blank_points=0), 3, "points", False),
    Case(Rules(max_pip=6, rounds=2), 2, "zero_sum", True),
    Case(Rules(rounds=2), 3, "points", True),
]
SEEDS = range(6)


@pytest.mark.parametrize("case", CASES)
def test_the_penalty_is_below_the_worst_legal_return_of_the_scoring(case: Case) -> None:
    worst = worst_legal_round_reward(case.rules, case.players, case.reward)
    assert illegal_reward(case.rules, full_match=case.full_match) <= worst * case.rounds
    assert raw_env(case.players, **case.kwargs()).illegal_reward == illegal_reward(
        case.rules, full_match=case.full_match
    )


Policy = Callable[[np.ndarray[Any, Any], int], int]
"""Chooses an action from a mask and the step number."""


def random_legal(rng: random.Random) -> Policy:
    return lambda mask, _: int(rng.choice(np.flatnonzero(mask)))


def illegal_at(step: int, prefix: Policy) -> Policy:
    """Plays ``prefix`` until ``step``, then an action the mask forbids."""
    return lambda mask, k: int(np.flatnonzero(mask == 0)[0]) if k == step else prefix(mask, k)


def continued(step: int, prefix: Policy, rest: Policy) -> Policy:
    return lambda mask, k: prefix(mask, k) if k < step else rest(mask, k)


Episode = tuple[dict[str, float], str, bool, int]
"""Every agent's return, the last agent to act, whether an action was illegal, and the steps taken."""


def play_aec(case: Case, seed: int, policy: Policy) -> Episode:
    """An episode of the wrapped AEC environment."""
    game = env(case.players, **case.kwargs())
    game.reset(seed=seed)
    returns = dict.fromkeys(game.possible_agents, 0.0)
    step, actor, illegal = 0, "", False
    while not all(game.terminations.values()):
        actor = game.agent_selection
        game.step(policy(game.observe(actor)["action_mask"], step))
        for agent, value in game.rewards.items():
            returns[agent] += value
        illegal = illegal or bool(game.infos[actor].get("illegal"))
        step += 1
    return returns, actor, illegal, step


def play_parallel(case: Case, seed: int, policy: Policy) -> Episode:
    game = parallel_env(case.players, **case.kwargs())
    observations, _ = game.reset(seed=seed)
    returns = dict.fromkeys(game.possible_agents, 0.0)
    step, actor, illegal = 0, "", False
    while game.agents:
        actor = game.game.agent_selection
        actions = {a: policy(observations[a]["action_mask"], step) if a == actor else 0 for a in game.agents}
        observations, rewards, _, _, infos = game.step(actions)
        for agent, value in rewards.items():
            returns[agent] += value
        illegal = illegal or bool(infos[actor].get("illegal"))
        step += 1
    return returns, actor, illegal, step


def play_gymnasium(case: Case, seed: int, policy: Policy) -> Episode:
    game = ChickenfootEnv(case.players, opponents="random", **case.kwargs())
    obs, _ = game.reset(seed=seed)
    total, step, done, illegal = 0.0, 0, False, False
    while not done:
        obs, reward, done, _, info = game.step(policy(obs["action_mask"], step))
        total += float(reward)
        illegal = illegal or bool(info.get("illegal"))
        step += 1
    return {game.agent: total}, game.agent, illegal, step


@pytest.mark.parametrize("play", [play_aec, play_parallel, play_gymnasium])
@pytest.mark.parametrize("case", CASES)
def test_an_illegal_action_never_pays_better_than_playing_on_legally(
    case: Case, play: Callable[[Case, int, Policy], Episode]
) -> None:
    for seed in SEEDS:
        *_, steps = play(case, seed, random_legal(random.Random(seed)))
        step = random.Random(seed).randrange(steps)
        # The same legal steps as that episode up to ``step``, then an illegal one.
        cheated, offender, flagged, taken = play(case, seed, illegal_at(step, random_legal(random.Random(seed))))
        assert flagged and taken == step + 1
        # Whatever legal play follows the same steps instead pays more (the bound of the scoring is
        # the test above; these are real continuations).
        honest = [
            play(case, seed, continued(step, random_legal(random.Random(seed)), random_legal(random.Random(k))))
            for k in range(2)
        ]
        assert all(not episode[2] and cheated[offender] < episode[0][offender] for episode in honest)


def test_the_raw_interfaces_refuse_with_the_reason_and_change_nothing() -> None:
    game = raw_env(players=2)
    game.reset(seed=4)
    before = game.observe(game.agent_selection)
    illegal = int(np.flatnonzero(before["action_mask"] == 0)[0])
    with pytest.raises(IllegalMoveError, match=rf"^illegal action {illegal} \(\S+\) for player_\d: \S+"):
        game.step(illegal)
    after = game.observe(game.agent_selection)
    assert all(np.array_equal(before[key], after[key]) for key in before)
    with pytest.raises(IllegalMoveError, match="out of range"):
        game.step(game.codec.size)


def test_the_parallel_environment_passes_the_parallel_api_test() -> None:
    parallel_api_test(parallel_env(players=3), num_cycles=1000)
    parallel_api_test(parallel_env(players=2, reward="zero_sum", full_match=True, rounds=2), num_cycles=1000)


def test_the_parallel_environment_needs_the_action_of_the_agent_to_move_and_forfeits_an_illegal_one() -> None:
    game = parallel_env(players=2)
    game.reset(seed=1)
    others = {agent: 0 for agent in game.agents if agent != game.game.agent_selection}
    with pytest.raises(IllegalMoveError, match="no action for player_"):
        game.step(others)
    mover = game.game.agent_selection
    illegal = int(np.flatnonzero(game.game.observe(mover)["action_mask"] == 0)[0])
    _, rewards, terminations, _, infos = game.step({mover: illegal})
    assert rewards == {a: game.game.illegal_reward if a == mover else 0.0 for a in game.possible_agents}
    assert all(terminations.values()) and infos[mover]["illegal"] and game.agents == []
    with pytest.raises(RuntimeError, match="call reset"):
        game.step({mover: 0})
