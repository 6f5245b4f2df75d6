"""The PettingZoo environment passes PettingZoo's own tests and keeps hidden tiles hidden."""

from __future__ import annotations

import random

import numpy as np
import pytest
from interop_helpers import random_positions
from pettingzoo.test import api_test, render_test, seed_test

from chickenfoot.errors import IllegalMoveError, RulesError
from chickenfoot.interop.pettingzoo import env, raw_env
from chickenfoot.knowledge import sample_deal

# PettingZoo's api_test recommends flat observations; classic games (ours included) use a dict with a mask.
pytestmark = pytest.mark.filterwarnings("ignore:Observation")


@pytest.mark.parametrize("players", [2, 4, 8])
def test_api_and_seed(players: int) -> None:
    api_test(env(players=players), num_cycles=200)
    seed_test(lambda: env(players=players), num_cycles=200)


def test_full_match_zero_sum_api() -> None:
    api_test(env(players=3, full_match=True, reward="zero_sum", rounds=2), num_cycles=400)


def play_out(game: raw_env, rng: random.Random) -> dict[str, float]:
    totals = dict.fromkeys(game.possible_agents, 0.0)
    for agent in game.agent_iter():
        obs, reward, terminated, truncated, _ = game.last()
        totals[agent] += float(reward)
        game.step(None if terminated or truncated else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    return totals


def test_round_rewards_are_minus_points() -> None:
    game = raw_env(players=4)
    game.reset(seed=3)
    totals = play_out(game, random.Random(0))
    assert game.round is not None and game.round.is_over()
    assert [totals[a] for a in game.possible_agents] == [-float(p) for p in game.round.points()]


def test_match_rewards_sum_to_zero_each_round() -> None:
    game = raw_env(players=3, full_match=True, reward="zero_sum", rounds=3)
    game.reset(seed=1)
    totals = play_out(game, random.Random(1))
    assert game.match is not None and game.match.is_over()
    assert abs(sum(totals.values())) < 1e-9
    mean = sum(game.match.totals()) / 3
    assert [round(totals[a], 6) for a in game.possible_agents] == [round(mean - t, 6) for t in game.match.totals()]


def test_observation_ignores_hidden_tiles() -> None:
    """Swapping opponents' hidden tiles and the boneyard order for a consistent deal changes no observation."""
    rng = random.Random(2)
    for round_, seat in random_positions(40, seed=9):
        game = raw_env(players=round_.players, **round_.rules.to_dict())
        game.reset(seed=0)
        game.round = round_
        agent = game.possible_agents[seat]
        before = game.observe(agent)
        game.round = sample_deal(round_.view(seat), rng).round
        after = game.observe(agent)
        assert (before["observation"] == after["observation"]).all()
        assert (before["action_mask"] == after["action_mask"]).all()


@pytest.mark.parametrize("full_match", [False, True])
def test_pettingzoo_render_test(full_match: bool, capsys: pytest.CaptureFixture[str]) -> None:
    """PettingZoo's own check: ``ansi`` returns text, ``human`` prints it and returns ``None``."""
    render_test(lambda render_mode=None: env(players=3, full_match=full_match, rounds=1, render_mode=render_mode))
    assert "player_0" in capsys.readouterr().out  # human mode printed the round


def test_human_render_prints_every_step(capsys: pytest.CaptureFixture[str]) -> None:
    game = raw_env(players=2, render_mode="human")
    game.reset(seed=4)
    assert game.render() is None
    game.step(int(np.flatnonzero(game.observe(game.agent_selection)["action_mask"])[0]))
    assert capsys.readouterr().out.count("boneyard") == 2


def test_render_and_errors() -> None:
    game = raw_env(players=2, render_mode="ansi")
    game.reset(seed=4)
    text = game.render()
    assert text is not None and "player_0" in text and "boneyard" in text
    legal = np.flatnonzero(game.observe(game.agent_selection)["action_mask"])
    illegal = next(a for a in range(game.codec.size) if a not in legal)
    with pytest.raises(IllegalMoveError, match="illegal action"):
        game.step(illegal)
    with pytest.raises(RulesError, match="unknown rules field"):
        raw_env(players=2, colour="red")
    with pytest.raises(RulesError, match="reward"):
        raw_env(players=2, reward="wins")


def test_illegal_action_in_wrapped_env_ends_the_episode() -> None:
    game = env(players=2)
    game.reset(seed=4)
    mask = game.observe(game.agent_selection)["action_mask"]
    game.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(game.terminations.values())
