"""Determinized search: sample deals that agree with the view, try each move, roll out to the round's end.

This is single-observer ISMCTS cut at the root (Cowling, Powley & Whitehouse 2012): every iteration
samples a fresh determinization, picks a root move by UCB1 over the moves' running mean rewards, and
plays the round out with a greedy-leaning policy. The reward is the seat's points relative to its
opponents', which is what adds up to the match totals, and for a search that plays for the match
also its chance to win the match from the standings (:mod:`chickenfoot.bots.reward`). Root
parallelism splits the iterations over worker processes and sums their statistics. Small endgames
(boneyard empty, few tiles hidden) are solved exactly over every consistent deal instead
(:mod:`chickenfoot.bots.endgame`).

:class:`CheaterBot` runs the same search on the true deal; the arena alone may use it, as an upper
bound, through :func:`cheat_choose`.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor

from chickenfoot.belief import Belief
from chickenfoot.bots import endgame, sampling
from chickenfoot.bots.base import Bot, Budget
from chickenfoot.bots.policy import RolloutPolicy, rollout_policy
from chickenfoot.bots.reward import Reward, view_reward
from chickenfoot.bots.sampling import SearchRound, compiled, sampler, weighted_sampler
from chickenfoot.knowledge import Knowledge
from chickenfoot.move import Move
from chickenfoot.round import Round
from chickenfoot.view import SeatView

DEFAULT_ITERATIONS = 400
EXPLORATION = 0.7
"""UCB1 constant, on rewards scaled to about [-1, 1]."""
ROLLOUT_EPSILON = 0.2
"""Share of random moves in rollouts, so they do not all follow one line."""
CHECK_EVERY = 16
"""Iterations between clock checks under a time budget."""

Stats = dict[int, tuple[int, float]]
"""Per root move code: (visits, total reward)."""


def rollout(r: SearchRound, rng: random.Random, policy: RolloutPolicy, epsilon: float = ROLLOUT_EPSILON) -> list[int]:
    """Play to the end of the round: mostly the move ``policy`` scores highest (the first of equals),
    sometimes a random move."""
    if not isinstance(r, Round):  # a compiled round plays this same policy in C
        return sampling.rollout_round(r, policy, epsilon)
    rand = rng.random
    legal = r.legal_codes
    push = r.push_code
    score = functools.partial(policy.score, r) if policy.features else policy.tile_score
    while r.end_reason is None:
        codes = legal()
        if len(codes) == 1:
            push(codes[0])
            continue
        if rand() < epsilon:
            push(codes[int(rand() * len(codes))])
            continue
        push(max(codes, key=score))  # the first of equals
    return r.points()


def iteration_numbers(iterations: int | None, deadline: float | None) -> Iterator[int]:
    """0, 1, 2, ... until ``iterations`` are done or ``deadline`` (``time.perf_counter``) has passed."""
    done = 0
    while iterations is None or done < iterations:
        if deadline is not None and done % CHECK_EVERY == 0 and done and time.perf_counter() >= deadline:
            return
        yield done
        done += 1


def search(
    make_round: Callable[[random.Random], SearchRound],
    reward: Reward,
    codes: Sequence[int],
    policy: RolloutPolicy,
    rng: random.Random,
    iterations: int | None,
    deadline: float | None,
    epsilon: float = ROLLOUT_EPSILON,
) -> Stats:
    """Root statistics after ``iterations`` (or until ``deadline`` on ``time.perf_counter``), with
    rollouts by ``policy`` and ``epsilon`` random moves in them.

    A compiled sampler runs this whole loop in C (``Sampler.search``, the same choices and rewards);
    this one is the reference, and serves the pure engine."""
    in_c = compiled(make_round)
    if in_c is not None:
        return in_c.search(rng, codes, policy, epsilon, EXPLORATION, iterations, deadline, reward, CHECK_EVERY)
    visits = dict.fromkeys(codes, 0)
    totals = dict.fromkeys(codes, 0.0)
    for done in iteration_numbers(iterations, deadline):
        r = make_round(rng)
        log_n = math.log(done + 1)
        best_code, best_value = codes[0], -math.inf
        for code in codes:
            n = visits[code]
            value = math.inf if n == 0 else totals[code] / n + EXPLORATION * math.sqrt(log_n / n)
            if value > best_value:
                best_code, best_value = code, value
        r.push_code(best_code)
        totals[best_code] += reward(rollout(r, rng, policy, epsilon))
        visits[best_code] += 1
    return {code: (visits[code], totals[code]) for code in codes}


class Node:
    """A node of the single-observer ISMCTS tree: the move into it, shared by every determinization."""

    __slots__ = ("available", "children", "mover", "total", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        """The seat whose move led here: rewards are counted from its side."""
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.available = 0
        """Iterations in which this node's move was legal (the UCB parent count of ISMCTS)."""
        self.total = 0.0


def tree_search(
    make_round: Callable[[random.Random], SearchRound],
    reward: Reward,
    codes: Sequence[int],
    policy: RolloutPolicy,
    rng: random.Random,
    iterations: int | None,
    deadline: float | None,
) -> Stats:
    """SO-ISMCTS (Cowling, Powley & Whitehouse 2012): one tree over every determinization, each seat
    choosing by UCB on its own rewards, children counted as available whenever their move is legal."""
    rewards: dict[int, Reward] = {}
    """Each seat's reward: the same standings, from its side."""
    root = Node(-1)
    for _ in iteration_numbers(iterations, deadline):
        r = make_round(rng)
        node = root
        path = [root]
        while r.end_reason is None:
            legal = r.legal_codes()
            mover = r.to_move
            untried = [c for c in legal if c not in node.children]
            for code in legal:
                child = node.children.get(code)
                if child is not None:
                    child.available += 1
            if untried:
                code = untried[int(rng.random() * len(untried))]
                child = node.children[code] = Node(mover)
                child.available = 1
                r.push_code(code)
                path.append(child)
                break
            best, best_value = node, -math.inf
            for code in legal:
                child = node.children[code]
                value = child.total / child.visits + EXPLORATION * math.sqrt(math.log(child.available) / child.visits)
                if value > best_value:
                    best, best_value, best_code = child, value, code
            r.push_code(best_code)
            node = best
            path.append(node)
        points = rollout(r, rng, policy) if r.end_reason is None else r.points()
        for visited in path[1:]:
            visited.visits += 1
            mover_reward = rewards.get(visited.mover)
            if mover_reward is None:
                mover_reward = rewards[visited.mover] = dataclasses.replace(reward, seat=visited.mover)
            visited.total += mover_reward(points)
    return {code: (child.visits, child.total) for code, child in root.children.items() if code in codes} | {
        code: (0, 0.0) for code in codes if code not in root.children
    }


def limits(budget: Budget) -> tuple[int | None, float | None]:
    """Iterations and seconds of a budget; an empty budget means the default iterations."""
    if budget.iterations is None and budget.seconds is None:
        return DEFAULT_ITERATIONS, None
    return budget.iterations, budget.seconds


def _worker(
    view: SeatView,
    seed: int,
    iterations: int | None,
    seconds: float | None,
    tree: bool,
    plays_match: bool,
    belief: bool,
    policy: str,
) -> Stats:
    deadline = None if seconds is None else time.perf_counter() + seconds
    knowledge = Knowledge(view)
    rng = random.Random(seed)
    make_round = weighted_sampler(Belief(knowledge), rng) if belief else sampler(knowledge)
    codes = [m.code for m in view.legal_moves]
    run = tree_search if tree else search
    reward = view_reward(view, plays_match)
    return run(make_round, reward, codes, rollout_policy(view.rules, policy), rng, iterations, deadline)


_POOLS: dict[int, ProcessPoolExecutor] = {}


def _pool(workers: int) -> ProcessPoolExecutor:
    """One long-lived pool per size: starting processes per move would cost more than the search."""
    pool = _POOLS.get(workers)
    if pool is None:
        pool = _POOLS[workers] = ProcessPoolExecutor(max_workers=workers)
    return pool


def best_move(stats: Stats) -> int:
    """The most visited move (ties: the better mean); robust against lucky few-visit moves."""
    return max(stats, key=lambda c: (stats[c][0], stats[c][1] / max(stats[c][0], 1)))


def merge(parts: Sequence[Stats]) -> Stats:
    merged: Stats = {}
    for part in parts:
        for code, (n, total) in part.items():
            before = merged.get(code, (0, 0.0))
            merged[code] = (before[0] + n, before[1] + total)
    return merged


class SearchBot(Bot):
    """Determinized search over deals that agree with what the seat knows."""

    name = "ismcts"
    tree = False
    """Search a full SO-ISMCTS tree rather than the root moves alone."""
    exact_endgames = True
    """Solve small endgames exactly (:mod:`chickenfoot.bots.endgame`) instead of sampling them."""
    plays_match = False
    """Play for the match when the view carries its standings (:mod:`chickenfoot.bots.reward`), not
    for the round's margin alone."""
    belief = False
    """Draw deals by how likely they make the opponents' plays (:mod:`chickenfoot.belief`), not uniformly."""
    rollout = "heaviest"
    """The rollout policy (:data:`chickenfoot.bots.policy.POLICIES`)."""

    def __init__(self, seed: int | None = None, budget: Budget | None = None, workers: int = 1) -> None:
        super().__init__(seed, budget or Budget(iterations=DEFAULT_ITERATIONS))
        self.workers = workers

    def statistics(self, view: SeatView, budget: Budget | None = None) -> Stats:
        """Root statistics for ``view`` (visits and total reward per legal move code); in an exact
        endgame, visits are the consistent deals and rewards their exact values."""
        budget = budget or self.budget
        if view.seat is None or not view.legal_moves:
            raise ValueError("it is not this seat's turn")
        iterations, seconds = limits(budget)
        if self.exact_endgames:
            started = time.perf_counter()
            # Under a time budget the solver may spend half of it; the search gets what is left.
            deadline = None if seconds is None else started + seconds / 2
            exact = endgame.solve(view, deadline=deadline, value=view_reward(view, self.plays_match))
            if exact is not None:
                return exact
            if seconds is not None:
                seconds -= time.perf_counter() - started
        seeds = [self.rng.getrandbits(63) for _ in range(self.workers)]
        if self.workers == 1:
            return _worker(view, seeds[0], iterations, seconds, self.tree, self.plays_match, self.belief, self.rollout)
        share = None if iterations is None else -(-iterations // self.workers)
        pool = _pool(self.workers)
        args = (share, seconds, self.tree, self.plays_match, self.belief, self.rollout)
        return merge([f.result() for f in [pool.submit(_worker, view, seed, *args) for seed in seeds]])

    def choose(self, view: SeatView, budget: Budget | None = None) -> Move:
        if len(view.legal_moves) == 1:
            return view.legal_moves[0]
        return Move.from_code(best_move(self.statistics(view, budget)))


class BeliefSearchBot(SearchBot):
    """The same search on deals weighted by how likely they make the opponents' plays."""

    name = "ismcts-belief"
    belief = True


class BlockingSearchBot(SearchBot):
    """The same search with rollouts that open numbers the next seat lacks (:mod:`chickenfoot.bots.policy`)."""

    name = "ismcts-blocking"
    rollout = "blocking"


class LearnedSearchBot(SearchBot):
    """The same search with the learned rollout policy (:mod:`chickenfoot.bots.policy`)."""

    name = "ismcts-learned"
    rollout = "learned"


class TreeSearchBot(SearchBot):
    """The same search with a full SO-ISMCTS tree below the root."""

    name = "ismcts-tree"
    tree = True


class CheaterBot(SearchBot):
    """The same search on the true deal: an upper bound for the arena, never an opponent for people."""

    name = "cheater"

    def choose(self, view: SeatView, budget: Budget | None = None) -> Move:
        raise TypeError("the cheater needs the true round: the arena calls cheat_choose")


def cheat_choose(bot: CheaterBot, round_: Round, budget: Budget | None = None) -> Move:
    """Arena-only entry point: search the true deal (hidden hands and boneyard order are known)."""
    codes = round_.legal_codes()
    if len(codes) == 1:
        return Move.from_code(codes[0])
    iterations, seconds = limits(budget or bot.budget)
    deadline = None if seconds is None else time.perf_counter() + seconds
    stats = search(
        lambda _: round_.copy(),
        Reward(round_.to_move),
        list(codes),
        rollout_policy(round_.rules, bot.rollout),
        bot.rng,
        iterations,
        deadline,
    )
    return Move.from_code(best_move(stats))


__all__ = [
    "BeliefSearchBot",
    "BlockingSearchBot",
    "CheaterBot",
    "LearnedSearchBot",
    "SearchBot",
    "TreeSearchBot",
    "cheat_choose",
    "rollout",
]
