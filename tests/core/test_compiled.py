"""The compiled core against the pure-Python engine, its reference: the same legal moves in the same order,
the same states after every move and every ``pop()``, the same points; playouts, rollouts and samples
alike in distribution (the compiled core draws from its own generator)."""

from __future__ import annotations

import hashlib
import math
import os
import random
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Sequence

import pytest

from chickenfoot import Round, Rules
from chickenfoot.bots import sampling
from chickenfoot.bots.policy import MOVE_FEATURES, POLICIES, Coefficients, RolloutPolicy, policy, rollout_policy
from chickenfoot.bots.reward import Reward, reward_for
from chickenfoot.bots.search import ROLLOUT_EPSILON, SearchBot, rollout, search
from chickenfoot.errors import IllegalMoveError, RulesError
from chickenfoot.knowledge import Knowledge
from chickenfoot.layout import Layout
from chickenfoot.move import DRAW, PASS
from chickenfoot.view import MatchStanding, SeatView

from .test_random_sim import random_rules

if not sampling.COMPILED:
    if os.environ.get("CI") and os.environ.get("CHICKENFOOT_PURE") != "1":
        pytest.fail("the compiled core was not built", pytrace=False)
    pytest.skip("the compiled core is not built (or CHICKENFOOT_PURE=1)", allow_module_level=True)

from chickenfoot._engine import CompiledRound, playouts  # only once the skip above has not fired
from chickenfoot.bots._search import rollout_round


def layout_state(layout: Layout) -> tuple[object, ...]:
    """The pure layout's bookkeeping in the order of ``CompiledRound.layout_state``."""
    return (
        layout.hub,
        layout.hub_number,
        layout.arms,
        layout.foot,
        layout.foot_number,
        layout.toe_count,
        layout.gate,
        layout.gate_mask if layout.gate >= 0 else 0,
        layout.end_numbers,
        layout.ends,
        layout.open_number,
    )


def assert_same(r: Round, c: CompiledRound) -> None:
    assert c.legal_codes() == r.legal_codes()
    assert (c.to_move, c.drawn, c.end_reason) == (r.to_move, r.drawn, r.end_reason)
    assert c.hands == r.hands and c.boneyard == r.boneyard
    assert c.layout_state() == layout_state(r.layout)
    assert c.points() == r.points()


@pytest.mark.slow  # a long simulation
def test_random_rounds_move_by_move_under_every_rule_option() -> None:
    """Random rounds under random rules (every option), driven from Python on both engines at once."""
    rng = random.Random(2024)
    seen: Counter[str] = Counter()
    rounds = 0
    while rounds < 400:
        rules = random_rules(rng)
        players = rng.randint(2, 8)
        try:
            rules.hand_size_for(players)
        except RulesError:
            continue
        rounds += 1
        seen.update([f"max_pip={rules.max_pip}", f"arms={rules.hub_arms}", rules.drawn_tile, rules.draw_limit])
        seen[f"players={players}"] += 1
        r = Round.deal(rules, players, seed=rng.getrandbits(32), start_double=rng.randint(0, rules.max_pip))
        c = CompiledRound.from_round(r)
        assert_same(r, c)
        while not r.is_over():
            codes = r.legal_codes()
            code = codes[rng.randrange(len(codes))]
            seen[
                "draw" if code == DRAW else "pass" if code == PASS else "drawn tile played" if r.drawn >= 0 else "play"
            ] += 1
            r.push_code(code)
            c.push_code(code)
            assert_same(r, c)
            if rng.random() < 0.03:  # take back a few moves on both, then play on
                for _ in range(min(rng.randint(1, 5), c.ply)):
                    assert c.pop() == r.pop().code
                    assert_same(r, c)
                seen["pop"] += 1
            if rng.random() < 0.02:  # a position built mid-round equals the one played to
                c = CompiledRound.from_round(r)
                assert_same(r, c)
        seen[str(r.end_reason)] += 1
        # Back to the deal through every state on the way.
        while c.ply:
            assert c.pop() == r.pop().code
            assert_same(r, c)
    expected = {"domino", "blocked", "draw", "pass", "drawn tile played", "pop", "may", "must", "one", "until_playable"}
    expected |= {f"max_pip={n}" for n in (6, 9, 12, 15, 18)} | {f"arms={a}" for a in (4, 6, 8)}
    expected |= {f"players={p}" for p in range(2, 9)}
    assert expected <= set(seen), expected - set(seen)


def checksum(make: type[Round] | type[CompiledRound], games: int) -> str:
    """A digest of seeded games on one engine: every list of legal moves, the points, every state back to the deal."""
    digest = hashlib.sha256()
    for seed in range(games):
        rules = Rules(max_pip=(6, 9, 12)[seed % 3], draw_limit=("one", "until_playable")[seed % 2])
        deal = Round.deal(rules, 2 + seed % 6, seed=seed)
        r: Round | CompiledRound = deal if make is Round else CompiledRound.from_round(deal)
        rng = random.Random(seed)
        plies = 0
        while r.end_reason is None:
            codes = r.legal_codes()
            digest.update(repr(codes).encode())
            r.push_code(codes[rng.randrange(len(codes))])
            plies += 1
        digest.update(repr(r.points()).encode())
        for _ in range(plies):
            r.pop()
            digest.update(repr((r.legal_codes(), r.to_move, r.hands, r.boneyard)).encode())
    return digest.hexdigest()


def test_checksum_of_seeded_games_is_the_same_on_both_engines() -> None:
    assert checksum(CompiledRound, 150) == checksum(Round, 150)


def test_an_illegal_code_is_refused_and_changes_nothing() -> None:
    r = Round.deal(Rules(), 4, seed=5)
    c = CompiledRound.from_round(r)
    for code in (DRAW, PASS, 0, 54 << 8 | 3, 12345, -7):
        if code in r.legal_codes():
            continue
        with pytest.raises(IllegalMoveError):
            c.push_code(code)
        assert_same(r, c)
    with pytest.raises(ValueError):
        CompiledRound.from_round(Round.deal(Rules(max_pip=18, hand_size=1), 40, seed=1))  # beyond 32 seats
    with pytest.raises(ValueError):
        rollout_round(c, RolloutPolicy((1.0,) * 10, (), -0.5), 0.1)  # a weight per tile of the set
    with pytest.raises(ValueError):
        rollout_round(c, RolloutPolicy((1.0,) * 55, (1.0, 2.0), -0.5), 0.1)  # every move feature, or none
    with pytest.raises(TypeError):
        CompiledRound()


def mean_and_error(samples: Sequence[Sequence[float]], seat: int) -> tuple[float, float]:
    values = [s[seat] for s in samples]
    mean = sum(values) / len(values)
    variance = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
    return mean, math.sqrt(variance / len(values))


def assert_alike(pure: Sequence[Sequence[float]], compiled: Sequence[Sequence[float]]) -> None:
    """Per seat, the means differ by less than 4 standard errors of their difference."""
    for seat in range(len(pure[0])):
        (a, ea), (b, eb) = mean_and_error(pure, seat), mean_and_error(compiled, seat)
        assert abs(a - b) < 4 * math.hypot(ea, eb), (seat, a, b, ea, eb)


def midgame(seed: int, rules: Rules, players: int) -> Round:
    r = Round.deal(rules, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(5, 25)):
        if r.is_over():
            break
        codes = r.legal_codes()
        r.push_code(codes[rng.randrange(len(codes))])
    assert not r.is_over()
    return r


@pytest.mark.slow  # a long simulation
@pytest.mark.parametrize("name", POLICIES)
@pytest.mark.parametrize(("rules", "players"), [(Rules(), 4), (Rules(max_pip=6, drawn_tile="must"), 2)])
def test_playouts_and_rollouts_agree_in_distribution(rules: Rules, players: int, name: str) -> None:
    """From fixed positions: uniform playouts (``Round.playout``) and the search's rollouts by each policy."""
    chosen = rollout_policy(rules, name)
    rng = random.Random(3)
    for seed in (1, 2):
        r = midgame(seed, rules, players)
        c = CompiledRound.from_round(r, seed=seed)
        n = 1500
        assert_alike([r.copy().playout(rng) for _ in range(n)], [c.copy().playout() for _ in range(n)])
        assert_alike(
            [rollout(r.copy(), rng, chosen) for _ in range(n)],
            [rollout_round(c.copy(), chosen, ROLLOUT_EPSILON) for _ in range(n)],
        )


def random_policy(rules: Rules, rng: random.Random) -> RolloutPolicy:
    """Coefficients of any sign, so every move feature and the pass decide some choices."""
    move = tuple(rng.uniform(-3, 3) for _ in MOVE_FEATURES)
    return policy(rules, Coefficients((rng.uniform(-1, 1), rng.uniform(-5, 5)), move, rng.uniform(-10, 10)))


@pytest.mark.parametrize("name", [*POLICIES, "random"])
def test_greedy_rollouts_are_identical(name: str) -> None:
    """Without random moves the search's rollout policies are deterministic: both engines end alike."""
    rng = random.Random(4)
    for seed in range(100):
        rules = random_rules(rng)
        players = rng.randint(2, 4)
        r = midgame(seed, rules, players)
        c = CompiledRound.from_round(r)
        chosen = random_policy(rules, random.Random(seed)) if name == "random" else rollout_policy(rules, name)
        assert rollout_round(c, chosen, 0.0) == rollout(r, random.Random(seed), chosen, 0.0)
        assert c.hands == r.hands and c.layout_state() == layout_state(r.layout)


def test_dealt_playouts_agree_in_distribution() -> None:
    """Whole rounds dealt and played in C against ``Round.deal`` + ``Round.playout``."""
    rules, n = Rules(), 3000
    rng = random.Random(9)
    pure = [Round.deal(rules, 4, rng=rng).playout(rng) for _ in range(n)]
    moves, sums, squares = playouts(rules, 4, n, seed=9)
    assert 40 * n < moves < 80 * n
    for seat in range(4):
        a, ea = mean_and_error(pure, seat)
        b = sums[seat] / n
        eb = math.sqrt((squares[seat] / n - b * b) / n)
        assert abs(a - b) < 4 * math.hypot(ea, eb), (seat, a, b)


def views(count: int, players: int) -> list[SeatView]:
    return [(lambda r: r.view(r.to_move))(midgame(seed, Rules(), players)) for seed in range(count)]


def test_compiled_samples_agree_with_the_view_and_the_pure_sampler() -> None:
    for view in views(6, 4):
        knowledge = Knowledge(view)
        sample = sampling.sampler(knowledge)
        rng = random.Random(1)
        where_pure: Counter[tuple[int, int]] = Counter()
        where_compiled: Counter[tuple[int, int]] = Counter()
        n = 600
        for _ in range(n):
            c = sample(rng)
            r = knowledge.round(rng)
            assert isinstance(c, CompiledRound)
            # The view's state: same layout, mover and own hand; hidden hands of the right sizes.
            assert c.layout_state() == layout_state(r.layout) and c.to_move == view.to_move
            assert c.hands[knowledge.seat] == r.hands[knowledge.seat]
            assert [h.bit_count() for h in c.hands] == list(view.hand_sizes) and len(c.boneyard) == view.boneyard_size
            for seat, hand in enumerate(c.hands):
                if seat != knowledge.seat:
                    assert all(any(slot.allows(t) for slot in knowledge.slots[seat]) for t in _ids(hand))
                    where_compiled.update((seat, t) for t in _ids(hand))
                    where_pure.update((seat, t) for t in _ids(r.hands[seat]))
        # Each hidden tile lands in each seat about as often (binomial counts, 4.5 standard errors).
        for key in where_pure.keys() | where_compiled.keys():
            p = (where_pure[key] + where_compiled[key]) / (2 * n)
            spread = math.sqrt(2 * n * p * (1 - p)) + 1
            assert abs(where_pure[key] - where_compiled[key]) < 4.5 * spread, key


def _ids(mask: int) -> list[int]:
    return [t for t in range(mask.bit_length()) if mask >> t & 1]


def test_the_search_runs_on_the_compiled_core() -> None:
    for view in views(3, 3):
        stats = SearchBot(seed=1).statistics(view)
        assert sum(n for n, _ in stats.values()) == 400
        assert set(stats) == {m.code for m in view.legal_moves}
        assert isinstance(sampling.sampler(Knowledge(view))(random.Random(0)), CompiledRound)


@pytest.mark.parametrize(("pure", "name"), [("1", "pure-Python core"), ("", "compiled core")])
def test_version_names_the_core(pure: str, name: str) -> None:
    env = {**os.environ, "CHICKENFOOT_PURE": pure}
    out = subprocess.run([sys.executable, "-m", "chickenfoot", "--version"], capture_output=True, text=True, env=env)
    assert out.returncode == 0 and out.stdout.strip().endswith(f"({name})")


def endgame_views(count: int) -> list[SeatView]:
    """2-player positions with the boneyard empty and a choice: the opponent's hand is known exactly."""
    found: list[SeatView] = []
    seed = 0
    while len(found) < count:
        seed += 1
        r = Round.deal(Rules(max_pip=6), 2, seed=seed)
        rng = random.Random(seed)
        while not r.is_over():
            view = r.view(r.to_move)
            if view.boneyard_size == 0 and len(view.legal_moves) > 1:
                found.append(view)
                break
            codes = r.legal_codes()
            r.push_code(codes[rng.randrange(len(codes))])
    return found


@pytest.mark.parametrize("name", POLICIES)
@pytest.mark.parametrize(
    "standing",
    [
        None,
        MatchStanding(3, 7, (40, 52), (1, 0), (None, 4)),  # rounds left: the normal law of the rest
        MatchStanding(7, 7, (61, 60), (0, 1), (5, 3)),  # the last round: the exact order, tie-breaks included
    ],
)
def test_the_compiled_search_loop_is_the_pure_one_when_nothing_is_random(
    standing: MatchStanding | None, name: str
) -> None:
    """Where every sample is the same deal and rollouts make no random move, the search's root loop in
    C (UCB1, rollouts by either policy, rewards with or without the match) makes the pure loop's choices exactly."""
    for view in endgame_views(12):
        assert view.seat is not None
        reward = reward_for(view.seat, 2, standing, plays_match=True)
        knowledge = Knowledge(view)
        codes = [m.code for m in view.legal_moves]
        compiled = sampling.sampler(knowledge)
        assert sampling.compiled(compiled) is not None
        chosen = rollout_policy(view.rules, name)
        pure = search(knowledge.round, reward, codes, chosen, random.Random(1), 300, None, epsilon=0.0)
        fast = search(compiled, reward, codes, chosen, random.Random(1), 300, None, epsilon=0.0)
        assert {c: n for c, (n, _) in fast.items()} == {c: n for c, (n, _) in pure.items()}
        for code, (_, total) in fast.items():
            assert total == pytest.approx(pure[code][1], rel=1e-9, abs=1e-9)


@pytest.mark.slow  # a long simulation
@pytest.mark.parametrize("name", POLICIES)
def test_the_compiled_search_values_moves_as_the_pure_rollouts_do(name: str) -> None:
    """With sampled deals and random rollout moves: a huge exploration constant makes the C loop visit
    the moves in turn, so each move's mean reward must agree with pure samples and rollouts of it."""
    for view in views(3, 4):
        assert view.seat is not None
        reward = reward_for(view.seat, 4, MatchStanding(9, 10, (30, 45, 38, 60), (0,) * 4, (None,) * 4), True)
        knowledge = Knowledge(view)
        codes = [m.code for m in view.legal_moves]
        sampler = sampling.compiled(sampling.sampler(knowledge))
        assert sampler is not None
        n = 800
        chosen = rollout_policy(view.rules, name)
        stats = sampler.search(random.Random(2), codes, chosen, ROLLOUT_EPSILON, 1e9, n * len(codes), None, reward, 16)
        rng = random.Random(3)
        for code in codes:
            assert stats[code][0] == n
            rewards = []
            for _ in range(n):
                r = knowledge.round(rng)
                r.push_code(code)
                rewards.append(reward(rollout(r, rng, chosen)))
            mean = sum(rewards) / n
            error = math.sqrt(sum((x - mean) ** 2 for x in rewards) / (n - 1) / n)
            assert abs(stats[code][1] / n - mean) < 4.5 * error * math.sqrt(2), (code, stats[code][1] / n, mean)


def test_the_compiled_search_stops_at_its_deadline() -> None:
    view = views(1, 4)[0]
    assert view.seat is not None
    sampler = sampling.sampler(Knowledge(view))
    codes = [m.code for m in view.legal_moves]
    started = time.perf_counter()
    stats = search(
        sampler, Reward(view.seat), codes, rollout_policy(view.rules), random.Random(0), None, started + 0.05
    )
    assert time.perf_counter() - started < 0.5
    assert sum(n for n, _ in stats.values()) > 16
