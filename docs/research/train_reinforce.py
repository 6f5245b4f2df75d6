"""Train a policy for one seat with REINFORCE on the Gymnasium environment, then compare it with no training.

The policy scores each legal action from a few features of its move (the tile's pips, whether it is a
double, a draw, a pass) with one weight each: a softmax over the legal actions only, so the action mask does
all the work of the rules. Untrained (all weights 0) it picks uniformly among the legal moves; trained
against `greedy` bots it learns to shed heavy tiles first. Both are evaluated on the same deals.

    python docs/research/train_reinforce.py                       # the full run
    python docs/research/train_reinforce.py --episodes 30 --eval 10  # the test suite's reduced size
"""

from __future__ import annotations

import argparse

import numpy as np

from chickenfoot.interop.actions import ActionCodec
from chickenfoot.interop.gymnasium import ChickenfootEnv

MAX_PIP = 9


def action_features(codec: ActionCodec) -> np.ndarray:
    """One row per action: pips / (2 × max_pip), a double, a draw, a pass."""
    rows = []
    for action in range(codec.size):
        move = codec.move_of(action)
        tile = move.tile
        rows.append(
            [
                0.0 if tile is None else tile.pips / (2 * MAX_PIP),
                float(tile is not None and tile.is_double),
                float(str(move) == "draw"),
                float(str(move) == "pass"),
            ]
        )
    return np.array(rows, dtype=np.float64)


def policy(weights: np.ndarray, features: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The legal actions and their probabilities."""
    legal = np.flatnonzero(mask)
    logits = features[legal] @ weights
    probabilities = np.exp(logits - logits.max())
    return legal, probabilities / probabilities.sum()


def episode(env: ChickenfootEnv, weights: np.ndarray, features: np.ndarray, seed: int, rng: np.random.Generator):
    """Play one round; return its reward and, per decision, the gradient of the log-probability taken."""
    obs, _ = env.reset(seed=seed)
    gradients = []
    done = False
    reward = 0.0
    while not done:
        legal, probabilities = policy(weights, features, obs["action_mask"])
        choice = rng.choice(len(legal), p=probabilities)
        gradients.append(features[legal[choice]] - probabilities @ features[legal])
        obs, reward, done, _, _ = env.step(int(legal[choice]))
    return float(reward), gradients


def evaluate(env: ChickenfootEnv, weights: np.ndarray, features: np.ndarray, seeds: range) -> float:
    """Mean reward (minus the points left in hand) over the rounds dealt by ``seeds``."""
    rng = np.random.default_rng(0)
    return float(np.mean([episode(env, weights, features, seed, rng)[0] for seed in seeds]))


def train(episodes: int, evaluation: int, learning_rate: float, seed: int) -> dict[str, object]:
    env = ChickenfootEnv(players=2, opponents="greedy", max_pip=MAX_PIP)
    features = action_features(ActionCodec.for_max_pip(MAX_PIP))
    weights = np.zeros(features.shape[1])
    rng = np.random.default_rng(seed)
    baseline = 0.0
    for k in range(episodes):
        reward, gradients = episode(env, weights, features, seed=seed * 1_000_003 + k, rng=rng)
        baseline += (reward - baseline) / (k + 1)  # the running mean reward: less variance, same expectation
        weights += learning_rate * (reward - baseline) * np.sum(gradients, axis=0) / 100
    held_out = range(10**6, 10**6 + evaluation)  # deals never trained on
    return {
        "weights": dict(zip(["pips", "double", "draw", "pass"], np.round(weights, 2).tolist(), strict=True)),
        "untrained": evaluate(env, np.zeros_like(weights), features, held_out),
        "trained": evaluate(env, weights, features, held_out),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--episodes", type=int, default=2000)
    parser.add_argument("--eval", type=int, default=300, help="held-out rounds for the comparison")
    parser.add_argument("--learning-rate", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    result = train(args.episodes, args.eval, args.learning_rate, args.seed)
    print(f"weights: {result['weights']}")
    untrained, trained = result["untrained"], result["trained"]
    print(f"mean reward on {args.eval} held-out rounds: untrained {untrained:.1f}, trained {trained:.1f}")


if __name__ == "__main__":
    main()
