"""Answers kept for a few seconds: one build per key while they last, none kept past a change."""

from __future__ import annotations

from chickenfoot.server.clock import FakeClock
from chickenfoot.server.http.kept import KEEP_ANSWERS, KEEP_SECONDS, Kept


def test_an_answer_is_kept_for_its_seconds_and_then_built_again() -> None:
    clock = FakeClock()
    kept = Kept(clock)
    kept.keep("leaderboard", b"[1]", kept.generation)
    assert kept.get("leaderboard") == b"[1]"
    clock.advance(KEEP_SECONDS - 0.1)
    assert kept.get("leaderboard") == b"[1]"
    clock.advance(0.1)
    assert kept.get("leaderboard") is None


def test_an_answer_begun_before_a_change_is_not_kept_after_it() -> None:
    kept = Kept(FakeClock())
    begun = kept.generation  # a leaderboard is read ...
    kept.clear()  # ... a match is rated meanwhile ...
    kept.keep("leaderboard", b"[stale]", begun)  # ... and the read answered: that once, not kept
    assert kept.get("leaderboard") is None
    kept.keep("leaderboard", b"[fresh]", kept.generation)
    assert kept.get("leaderboard") == b"[fresh]"


def test_the_oldest_answers_go_first_past_the_bound() -> None:
    kept = Kept(FakeClock())
    for number in range(KEEP_ANSWERS + 1):
        kept.keep(f"player{number}", b"{}", kept.generation)
    assert kept.get("player0") is None and kept.get(f"player{KEEP_ANSWERS}") == b"{}"
