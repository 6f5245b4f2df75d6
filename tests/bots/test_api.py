"""The public bot API the games are built on: names, difficulty levels and hints."""

from __future__ import annotations

import pytest

from chickenfoot import Round, Rules
from chickenfoot.bots import BOTS, DIFFICULTIES, Budget, Hint, hint, make_bot
from chickenfoot.move import Move
from chickenfoot.view import SeatView


def advance(seed: int, plies: int, players: int = 4) -> Round:
    r = Round.deal(Rules(), players, seed)
    for _ in range(plies):
        if r.is_over():
            break
        r.push(make_bot("greedy", seed).choose(r.view(r.to_move)))
    return r


@pytest.mark.parametrize("name", [*BOTS, *DIFFICULTIES])
def test_every_name_makes_a_bot_that_plays_legally(name: str) -> None:
    r = advance(4, 12)
    bot = make_bot(name, seed=1)
    view = r.view(r.to_move)
    budget = Budget(iterations=30) if name in ("ismcts", "hard", "expert") else None
    assert bot.choose(view, budget) in view.legal_moves


def test_difficulties_are_ordered_and_named() -> None:
    assert list(DIFFICULTIES) == ["easy", "medium", "hard", "expert"]
    assert make_bot("hard").budget == DIFFICULTIES["hard"].budget
    assert make_bot("expert").name == "expert"


def test_unknown_bot_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match=r"unknown bot 'grandmaster'.*expert"):
        make_bot("grandmaster")


def test_hint_is_a_legal_move_with_a_reason() -> None:
    for seed in range(6):
        r = advance(seed, 10)
        if r.is_over():
            continue
        view = r.view(r.to_move)
        h = hint(view)
        assert isinstance(h, Hint)
        assert h.move in view.legal_moves
        assert "the search expects" in h.reason or h.reason == "it is your only legal move"


def test_hint_with_a_budget_uses_the_search() -> None:
    r = advance(2, 14)
    view = r.view(r.to_move)
    h = hint(view, Budget(iterations=40))
    assert h.move in view.legal_moves and h.reason


def test_hint_refuses_when_it_is_not_the_seats_turn() -> None:
    r = advance(1, 3)
    other = (r.to_move + 1) % r.players
    view: SeatView = r.view(other)
    with pytest.raises(ValueError, match="not this seat's turn"):
        hint(view)


def test_root_parallel_search_is_reproducible_and_legal() -> None:
    from chickenfoot.bots.search import SearchBot

    r = advance(3, 16)
    view = r.view(r.to_move)
    runs = [SearchBot(seed=5, budget=Budget(iterations=40), workers=2).statistics(view) for _ in range(2)]
    assert runs[0] == runs[1]
    assert sum(n for n, _ in runs[0].values()) == 40
    assert {Move.from_code(c) for c in runs[0]} == set(view.legal_moves)
    assert make_bot("expert").workers == 2  # type: ignore[attr-defined]
