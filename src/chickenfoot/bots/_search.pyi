"""Type stub of the compiled search (``_search.pyx``); see :mod:`chickenfoot.bots.sampling`."""

import random
from collections.abc import Callable, Sequence

from chickenfoot._engine import CompiledRound
from chickenfoot.belief import Choice
from chickenfoot.bots.policy import RolloutPolicy
from chickenfoot.bots.reward import Reward
from chickenfoot.round import Round

def rollout_round(round_: CompiledRound, policy: RolloutPolicy, epsilon: float) -> list[int]: ...

class Sampler:
    def __init__(
        self,
        make_round: Callable[[random.Random], Round],
        sample: Callable[[random.Random], tuple[list[int], list[int]]],
        seat: int,
        own: int,
        order: list[tuple[int, list[int]]],
        unseen: list[int],
        tries: int,
    ) -> None: ...
    def believe(
        self,
        rng: random.Random,
        size: int,
        scale: Sequence[float],
        choices: Sequence[Choice],
        fallback: Callable[[random.Random], Sequence[int]],
    ) -> None: ...
    def __call__(self, rng: random.Random) -> CompiledRound: ...
    def search(
        self,
        rng: random.Random,
        codes: Sequence[int],
        policy: RolloutPolicy,
        epsilon: float,
        exploration: float,
        iterations: int | None,
        deadline: float | None,
        reward: Reward,
        check_every: int,
    ) -> dict[int, tuple[int, float]]: ...
