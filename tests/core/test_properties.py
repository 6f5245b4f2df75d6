"""Properties of the engine on random rounds (hypothesis chooses rules, deal and moves)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from chickenfoot import Move, Round, Rules
from chickenfoot.cli import app
from chickenfoot.errors import IllegalMoveError
from chickenfoot.move import DRAW_MOVE, PASS_MOVE
from chickenfoot.perft import divide, perft
from chickenfoot.position import position_to_dict, read_position, write_position
from chickenfoot.tiles import TILES, Tile, full_set
from chickenfoot.view import own_view

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True)


@st.composite
def rounds(draw: st.DrawFn) -> tuple[Round, random.Random]:
    """A freshly dealt round under random rules, and a random source for its moves."""
    max_pip = draw(st.sampled_from([6, 9, 12]))
    rules = Rules(
        max_pip=max_pip,
        hub_arms=draw(st.sampled_from([4, 6] if max_pip < 8 else [4, 6, 8])),
        drawn_tile=draw(st.sampled_from(["may", "must"])),
        draw_limit=draw(st.sampled_from(["one", "until_playable"])),
        double_blank_points=draw(st.sampled_from([50, 0, 25])),
    )
    players = draw(st.integers(2, 6))
    start = draw(st.integers(0, max_pip))
    seed = draw(st.integers(0, 2**32))
    return Round.deal(rules, players, seed=seed, start_double=start), random.Random(seed)


def state(r: Round) -> tuple[Any, ...]:
    return (position_to_dict(r), r.legal_moves(), r.history, r.ply)


def all_tiles(r: Round) -> list[Tile]:
    held = [t for s in range(r.players) for t in r.hand(s)]
    return sorted(held + r.boneyard_tiles() + [t for t, _ in r.placed()])


@SETTINGS
@given(rounds())
def test_tiles_are_conserved_at_every_step_and_pop_restores_every_state(game: tuple[Round, random.Random]) -> None:
    r, rng = game
    dealt = full_set(r.rules.max_pip)
    states = []
    while not r.is_over():
        assert all_tiles(r) == dealt
        states.append(state(r))
        r.push(rng.choice(r.legal_moves()))
    assert all_tiles(r) == dealt
    while states:
        r.pop()
        assert state(r) == states.pop()


def candidates(r: Round, rng: random.Random) -> list[Move]:
    """Moves that could be written down now: draw, pass, any double as hub, every tile of the mover's
    hand on every placed tile, and a sample of the other tiles on placed tiles."""
    tiles = full_set(r.rules.max_pip)
    targets = [t for t, _ in r.placed()]
    hand = set(r.hand(r.to_move))
    moves = [DRAW_MOVE, PASS_MOVE, *(Move.hub(t) for t in tiles if t.is_double)]
    moves += [Move.play(tile, target) for tile in hand for target in targets if tile != target]
    others = [Move.play(tile, target) for tile in tiles if tile not in hand for target in targets if tile != target]
    return moves + rng.sample(others, min(len(others), 30))


@SETTINGS
@given(rounds(), st.integers(3, 8))
def test_every_legal_move_applies_and_no_other_does(game: tuple[Round, random.Random], every: int) -> None:
    r, rng = game
    step = 0
    while not r.is_over():
        if step % every == 0:
            before = write_position(r), r.ply
            legal = set(r.legal_moves())
            moves = candidates(r, rng)
            assert legal <= set(moves)
            for move in moves:
                if move in legal:
                    r.push(move)
                    r.pop()
                else:
                    try:
                        r.push(move)
                    except IllegalMoveError as exc:
                        assert str(move) in str(exc)
                    else:
                        raise AssertionError(f"{move} was applied but is not legal")
            assert (write_position(r), r.ply) == before
        r.push(rng.choice(r.legal_moves()))
        step += 1


@SETTINGS
@given(rounds(), st.integers(0, 120))
def test_notation_and_position_files_round_trip(game: tuple[Round, random.Random], moves: int) -> None:
    r, rng = game
    for _ in range(moves):
        if r.is_over():
            break
        for move in r.legal_moves():
            assert Move.parse(str(move)) == move
            if move.tile is not None:
                flipped = f"{move.tile.low}-{move.tile.high}"
                if move.target is not None:
                    flipped += f"@{move.target.low}-{move.target.high}"
                assert Move.parse(flipped) == move
        r.push(rng.choice(r.legal_moves()))
    text = write_position(r)
    back = read_position(text)
    assert write_position(back) == text
    assert back.legal_moves() == r.legal_moves() and back.is_over() == r.is_over()


@settings(max_examples=25, deadline=None, derandomize=True)
@given(rounds(), st.integers(0, 60), st.integers(1, 3))
def test_perft_by_push_pop_equals_the_command(game: tuple[Round, random.Random], moves: int, depth: int) -> None:
    r, rng = game
    for _ in range(moves):
        if r.is_over():
            break
        r.push(rng.choice(r.legal_moves()))
    text = write_position(r)
    expected = perft(r, depth)
    assert write_position(r) == text  # perft leaves the round as it found it
    result = CliRunner().invoke(app, ["perft", "-", str(depth)], input=text)
    assert result.exit_code == 0 and result.stdout == f"{expected}\n"
    split = divide(r, depth)
    assert sum(count for _, count in split) == expected
    assert [m for m, _ in split] == r.legal_moves()


def replay_with_hidden_tiles_changed(r: Round, seat: int, rng: random.Random) -> Round | None:
    """The same moves from a deal where what ``seat`` cannot see is shuffled; None if they no longer apply."""
    history = r.history
    while r.ply:
        r.pop()
    hands = [r.hand(s) for s in range(r.players)]
    boneyard = r.boneyard_tiles()
    for step in history:
        r.push(step.move)
    # Hidden now: tiles other seats were dealt and still hold, and the undrawn boneyard. Who
    # holds the starting double is public: that seat must open.
    drawn = sum(1 for step in history if step.drawn is not None)
    start = Tile(r.start_double, r.start_double)
    slots = [
        (s, i) for s in range(r.players) if s != seat for i, t in enumerate(hands[s]) if t in r.hand(s) and t != start
    ]
    slots += [(-1, i) for i in range(drawn, len(boneyard)) if boneyard[i] != start]
    tiles = [hands[s][i] if s >= 0 else boneyard[i] for s, i in slots]
    rng.shuffle(tiles)
    for (s, i), tile in zip(slots, tiles, strict=True):
        if s >= 0:
            hands[s][i] = tile
        else:
            boneyard[i] = tile
    other = Round(r.rules, hands, boneyard, start_double=r.start_double)
    try:
        for step in history:
            other.push(step.move)
    except IllegalMoveError:
        return None
    return other


@settings(max_examples=60, deadline=None, derandomize=True)
@given(rounds(), st.integers(0, 80))
def test_seat_view_hides_other_hands_and_the_boneyard_order(game: tuple[Round, random.Random], moves: int) -> None:
    r, rng = game
    for _ in range(moves):
        if r.is_over():
            break
        r.push(rng.choice(r.legal_moves()))
    for seat in [*range(r.players), None]:
        view = r.view(seat)
        own = set(r.hand(seat)) if seat is not None else set()
        visible = own | {t for t, _ in r.placed()}
        if not r.is_over():
            assert view.revealed_hands is None and view.points is None
            shown = {s.drawn for s in view.history if s.drawn is not None}
            assert shown <= visible | {TILES[t] for t in range(r.rules.tile_count)} - set(r.boneyard_tiles())
            assert all(s.drawn is None for s in view.history if s.seat != seat)
            for move in view.legal_moves:
                assert move.tile is None or move.tile in visible
        # What the seat cannot see may change without changing the view.
        other = replay_with_hidden_tiles_changed(r, seat if seat is not None else -1, rng)
        if other is not None and not r.is_over():
            assert other.view(seat) == view
        # The boneyard order alone never shows: reversing what is left keeps every view.
        if not r.is_over() and r.boneyard_size > 1:
            flipped = r.copy()
            flipped.boneyard.reverse()
            assert flipped.view(seat) == view


@settings(max_examples=40, deadline=None, derandomize=True)
@given(rounds(), st.integers(0, 80))
def test_a_seats_view_is_the_spectators_with_only_its_own_fields_added(
    game: tuple[Round, random.Random], moves: int
) -> None:
    """What a server relies on to build the shared part of every seat's message once."""
    r, rng = game
    for _ in range(moves):
        if r.is_over():
            break
        r.push(rng.choice(r.legal_moves()))
    public = r.view(None)
    for seat in range(r.players):
        view = r.view(seat)
        assert dataclasses.replace(public, **own_view(r, seat)._asdict()) == view
        others_saw = tuple(dataclasses.replace(step, drawn=None) for step in view.history)
        unseated = dataclasses.replace(
            view, seat=None, hand=(), drawn=None, legal_moves=(), forced=None, history=others_saw
        )
        assert unseated == public


def fixed(value: float, calls: list[float]) -> Callable[[], float]:
    """A random source that always answers ``value`` and notes each call."""

    def draw() -> float:
        calls.append(value)
        return value

    return draw


@SETTINGS
@given(rounds(), st.lists(st.floats(0, 1, exclude_max=True), min_size=1, max_size=6))
def test_pick_play_is_the_chosen_entry_of_plays(game: tuple[Round, random.Random], fractions: list[float]) -> None:
    r, rng = game
    while not r.is_over():
        layout = r.layout
        for seat in range(r.players):
            plays = layout.plays(r.hands[seat])
            for fraction in fractions:
                calls: list[float] = []
                picked = layout.pick_play(r.hands[seat], fixed(fraction, calls))
                if not plays:
                    assert picked == -1
                else:
                    assert picked == plays[int(fraction * len(plays))]
                assert len(calls) == (len(plays) > 1)
        r.push(rng.choice(r.legal_moves()))
