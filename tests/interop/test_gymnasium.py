"""The Gymnasium environment passes Gymnasium's checker and plays against bots."""

from __future__ import annotations

import subprocess
import sys

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from chickenfoot.errors import RulesError
from chickenfoot.interop.gymnasium import ChickenfootEnv


def test_check_env() -> None:
    check_env(ChickenfootEnv(players=4, opponents="greedy"), skip_render_check=True)
    check_env(
        ChickenfootEnv(players=2, seat=1, opponents=["random"], full_match=True, rounds=2), skip_render_check=True
    )


def test_registered_and_plays_to_the_end() -> None:
    environment = gym.make("chickenfoot/Chickenfoot-v0", players=3, seat=2, opponents=["greedy", "random"])
    obs, info = environment.reset(seed=8)
    assert info["seat"] == 2
    done, total, steps = False, 0.0, 0
    while not done:
        action = int(np.flatnonzero(obs["action_mask"])[0])
        obs, reward, done, _, info = environment.step(action)
        total += float(reward)
        steps += 1
    game = environment.unwrapped.game  # type: ignore[attr-defined]
    assert game.round.is_over()
    assert total == -game.round.points()[2]
    assert steps >= 1


def test_illegal_action_ends_the_episode_with_the_penalty() -> None:
    environment = ChickenfootEnv(players=2, illegal_reward=-1000.0)
    obs, _ = environment.reset(seed=0)
    action = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, _, info = environment.step(action)
    assert (reward, terminated, info["illegal"]) == (-1000.0, True, True)
    with pytest.raises(RulesError, match=r"illegal_reward must be at most -545, the worst legal return \(got -7"):
        ChickenfootEnv(players=2, illegal_reward=-7.0)


def test_made_by_id_in_a_fresh_process_without_importing_the_module() -> None:
    program = (
        "import gymnasium, sys\n"
        "env = gymnasium.make('chickenfoot.interop.gymnasium:chickenfoot/Chickenfoot-v0', players=3)\n"
        "obs, info = env.reset(seed=1)\n"
        "print(info['seat'], obs['observation'].shape, 'chickenfoot.interop.gymnasium' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    shape = ChickenfootEnv(players=3).observation_space["observation"].shape
    assert result.stdout.split() == ["0", str(shape).replace(" ", ""), "True"]


def test_bad_configuration_is_reported() -> None:
    with pytest.raises(RulesError, match="one opponent for each"):
        ChickenfootEnv(players=4, opponents=["random"])
    with pytest.raises(RulesError, match="seat"):
        ChickenfootEnv(players=2, seat=2)
    with pytest.raises(ValueError, match="unknown bot"):
        ChickenfootEnv(players=2, opponents="oracle")
