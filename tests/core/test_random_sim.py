"""Random simulation in the spirit of OpenSpiel's ``random_sim_test``: many random rounds under every
rule option, invariants checked at every move against an independent reading of the rules."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from chickenfoot import PRESETS, Match, Move, Round, Rules
from chickenfoot.errors import RulesError
from chickenfoot.layout import Phase
from chickenfoot.position import read_position, write_position
from chickenfoot.tiles import IS_DOUBLE, Tile

pytestmark = pytest.mark.slow  # long simulations: many random rounds under every rule option


def reference_moves(r: Round) -> set[str]:
    """The legal moves worked out from scratch from the layout list, the mover's hand and docs/rules.md."""
    if r.is_over():
        return set()
    rules = r.rules
    placed = r.placed()
    hand = r.hand(r.to_move)
    drawn = r.drawn_tile
    start = Tile(r.start_double, r.start_double)
    if not placed:
        return {str(start)} if start in hand else {"draw"}
    hub = placed[0][0]
    attached: dict[Tile, list[Tile]] = {}
    for tile, target in placed[1:]:
        assert target is not None
        attached.setdefault(target, []).append(tile)
    arms = attached.get(hub, [])
    open_feet = [t for t, _ in placed[1:] if t.is_double and len(attached.get(t, [])) < rules.toes]
    ends: list[tuple[Tile, int]]
    if len(arms) < rules.hub_arms:
        ends = [(hub, hub.high)]
    elif open_feet:
        ends = [(open_feet[0], open_feet[0].high)]
    else:
        shown: dict[Tile, int] = {hub: hub.high}  # the number each tile offers the next one
        ends = []
        for tile, target in placed[1:]:
            assert target is not None
            number = target.high if target.is_double else shown[target]
            shown[tile] = tile.other(number) if not tile.is_double else tile.high
            if not tile.is_double:
                ends.append((tile, shown[tile]))
        ends = [(t, n) for t, n in ends if t not in attached]
    movers = [drawn] if drawn is not None else hand
    plays = {f"{tile}@{target}" for tile in movers for target, n in ends if tile.carries(n)}
    if drawn is not None:
        return plays | ({"pass"} if rules.drawn_tile == "may" else set())
    return plays or {"draw" if r.boneyard_size else "pass"}


def check_invariants(r: Round) -> None:
    rules = r.rules
    # Tile ids keep this fast: the comparisons of Tile objects run in Python.
    placed = [(t.id, -1 if g is None else g.id) for t, g in r.placed()]
    held = [t.id for s in range(r.players) for t in r.hand(s)]
    assert sorted(held + [t.id for t in r.boneyard_tiles()] + [t for t, _ in placed]) == list(range(rules.tile_count))
    legal = r.legal_moves()
    assert {str(m) for m in legal} == reference_moves(r)
    assert len(legal) == len(set(legal))
    assert bool(legal) != r.is_over()
    if placed:
        hub = placed[0][0]
        arms = [t for t, g in placed if g == hub]
        toes = [t for t, g in placed[1:] if IS_DOUBLE[g] and g != hub]
        assert not any(IS_DOUBLE[t] for t in arms) and not any(IS_DOUBLE[t] for t in toes)
        targets = Counter(g for _, g in placed)
        feet = [t for t, _ in placed[1:] if IS_DOUBLE[t] and targets[t] < rules.toes]
        assert len(feet) <= 1
        assert not (feet and len(arms) < rules.hub_arms)
        expected = Phase.HUB if len(arms) < rules.hub_arms else Phase.FOOT if feet else Phase.OPEN
    else:
        expected = Phase.EMPTY
    assert r.phase is expected
    if r.is_over():
        points = r.points()
        assert all(p >= 0 for p in points)
        if r.end_reason == "domino":
            assert 0 in points and not all(r.hand(s) for s in range(r.players))
        else:
            assert r.boneyard_size == 0 and reference_moves_for_all(r) == set()


def reference_moves_for_all(r: Round) -> set[str]:
    """Plays any seat could make now (for a blocked round: none)."""
    plays: set[str] = set()
    copy = r.copy()
    copy.end_reason = None
    for seat in range(r.players):
        copy.to_move = seat
        copy.drawn = -1
        plays |= {m for m in reference_moves(copy) if "@" in m}
    return plays


def random_rules(rng: random.Random) -> Rules:
    max_pip = rng.choice([6, 9, 12, 15, 18])
    return Rules(
        max_pip=max_pip,
        hub_arms=rng.choice([a for a in (4, 6, 8) if a <= max_pip]),
        drawn_tile=rng.choice(["may", "must"]),
        draw_limit=rng.choice(["one", "until_playable"]),
        double_blank_points=rng.choice([50, 0, 25, 100]),
    )


def simulate(rules: Rules, players: int, rng: random.Random) -> Round:
    r = Round.deal(rules, players, seed=rng.getrandbits(32), start_double=rng.randint(0, rules.max_pip))
    limit = 4 * rules.tile_count  # every move draws or places a tile, or passes between them
    for _ in range(limit):
        check_invariants(r)
        if r.is_over():
            return r
        if rng.random() < 0.05:
            back = read_position(write_position(r))
            assert back.legal_moves() == r.legal_moves() and write_position(back) == write_position(r)
        r.push(rng.choice(r.legal_moves()))
    raise AssertionError("the round did not end")


@pytest.mark.parametrize("chunk", range(5))
def test_random_rounds_under_random_rules(chunk: int) -> None:
    rng = random.Random(chunk)
    reasons = set()
    for _ in range(80):
        rules = random_rules(rng)
        players = rng.randint(2, 8)
        try:
            rules.hand_size_for(players)
        except RulesError:
            continue
        reasons.add(simulate(rules, players, rng).end_reason)
    assert reasons == {"domino", "blocked"}


@pytest.mark.parametrize("name", list(PRESETS))
def test_random_rounds_under_every_preset(name: str) -> None:
    rng = random.Random(name)
    for players in range(2, 9):
        for _ in range(4):
            simulate(PRESETS[name], players, rng)


def test_many_playouts_end_with_valid_points() -> None:
    rng = random.Random(11)
    for seed in range(1500):
        rules = Rules(max_pip=rng.choice([6, 9, 12]), draw_limit=rng.choice(["one", "until_playable"]))
        r = Round.deal(rules, 2 + seed % 7, seed=seed)
        points = r.playout(rng)
        assert r.is_over() and points == r.points() and min(points) >= 0
        assert (0 in points) == (r.end_reason == "domino") or r.end_reason == "blocked"


@pytest.mark.parametrize(("rules", "players"), [(Rules(max_pip=6), 3), (Rules(rounds=4, hub_arms=6), 5)])
def test_random_matches_replay_from_their_record(rules: Rules, players: int) -> None:
    rng = random.Random(players)
    for seed in range(3):
        m = Match(rules, players, seed=seed)
        while not m.is_over():
            if m.round.is_over():
                m.next_round()
            m.push(rng.choice(m.legal_moves()))
        assert len(m.round_points) == rules.round_count
        assert [r.start_double for r in m.rounds] == rules.start_doubles()
        again = Match.loads(m.dumps())
        assert again.record() == m.record()
        assert again.totals() == m.totals() and again.standings() == m.standings()
        assert again.winners() == m.winners() and again.explain_winner() == m.explain_winner()
        for ours, theirs in zip(m.rounds, again.rounds, strict=True):
            assert ours.history == theirs.history and ours.points() == theirs.points()
        # A record whose moves were changed no longer replays.
        broken = m.record()
        broken["rounds"][0]["moves"][1] = str(Move.parse("pass"))
        if m.rounds[0].history[1].move != Move.parse("pass"):
            with pytest.raises(Exception, match="round 1, move 2"):
                Match.from_record(broken)
