"""The OpenSpiel game passes OpenSpiel's random simulation test and ISMCTS plays it."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

import chickenfoot.interop.openspiel  # noqa: F401 (registers the game)
from chickenfoot.errors import IllegalMoveError, RulesError


@pytest.mark.parametrize("players", [2, 4])
def test_random_sim_test(players: int) -> None:
    game = pyspiel.load_game("python_chickenfoot", {"players": players})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def play_round(game: pyspiel.Game, bots: dict[int, ismcts.ISMCTSBot], rng: np.random.RandomState) -> pyspiel.State:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        elif state.current_player() in bots:
            state.apply_action(int(bots[state.current_player()].step(state)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_ismcts_plays_a_round_against_random() -> None:
    game = pyspiel.load_game("python_chickenfoot", {"players": 2, "max_pip": 6, "zero_sum": True})
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0, max_simulations=15, random_state=rng)
    state = play_round(game, {0: bot}, rng)
    returns = state.returns()
    assert len(returns) == 2 and sum(returns) == 0.0
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM


def test_resampled_states_share_the_information_state() -> None:
    game = pyspiel.load_game("python_chickenfoot", {"players": 4})
    rng = np.random.RandomState(1)
    state = game.new_initial_state()
    differed = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        player = state.current_player()
        sample = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.information_state_tensor(player) == state.information_state_tensor(player)
        assert sample.observation_tensor(player) == state.observation_tensor(player)
        assert sample.legal_actions() == state.legal_actions()
        differed += str(sample) != str(state)
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert differed > 5


def test_bad_parameters_are_reported() -> None:
    with pytest.raises(RulesError, match="players"):
        pyspiel.load_game("python_chickenfoot", {"players": 1})
    with pytest.raises(RulesError, match="hub_arms"):
        pyspiel.load_game("python_chickenfoot", {"hub_arms": 5})


def test_evaluate_bots_runs_a_round() -> None:
    game = pyspiel.load_game("python_chickenfoot", {"players": 3})
    bots = [pyspiel.make_uniform_random_bot(seat, seat) for seat in range(3)]
    returns = evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))
    assert len(returns) == 3 and all(value <= 0 for value in returns) and 0.0 in returns


def dealt_state(players: int, seed: int) -> pyspiel.State:
    game = pyspiel.load_game("python_chickenfoot", {"players": players})
    state, rng = game.new_initial_state(), np.random.RandomState(seed)
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    return state


def test_a_clone_is_independent_and_shares_only_the_settings() -> None:
    state = dealt_state(2, 3)
    clone = state.clone()
    assert clone.round is not state.round and clone.config is state.config
    assert clone.history() == state.history() and str(clone) == str(state)
    clone.apply_action(clone.legal_actions()[0])
    assert clone.history() != state.history() and str(clone) != str(state)
    assert state.legal_actions() == dealt_state(2, 3).legal_actions()


@pytest.mark.parametrize("seed", range(3))
def test_an_illegal_action_is_refused_with_its_reason_and_changes_nothing(seed: int) -> None:
    state = dealt_state(4, seed)
    game = state.get_game()
    legal = set(state.legal_actions())
    before = (state.history(), str(state))
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in legal)
    with pytest.raises(IllegalMoveError, match=r"^illegal move \S+: "):
        state.apply_action(illegal)
    with pytest.raises(IllegalMoveError, match="out of range"):
        state.apply_action(game.num_distinct_actions())
    assert (state.history(), str(state)) == before
    dealt = state.history()[0]
    fresh = game.new_initial_state()
    fresh.apply_action(dealt)
    with pytest.raises(IllegalMoveError, match="not a tile left to deal"):
        fresh.apply_action(dealt)
