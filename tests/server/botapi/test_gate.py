"""The flood gate's memory of paused tokens, on a fake clock."""

from __future__ import annotations

import json

from chickenfoot.server.botapi.gate import PausedTokens, bearer_secret, paused_answer


def test_a_paused_token_is_known_until_its_pause_ends() -> None:
    now = [100.0]
    paused = PausedTokens(lambda: now[0])
    assert paused.remaining("digest") is None
    paused.pause("digest", 60)
    now[0] += 59.5
    assert paused.remaining("digest") == 1
    now[0] += 0.5
    assert paused.remaining("digest") is None and paused.until == {}


def test_the_cached_refusal_is_the_apis_error_shape() -> None:
    text, headers = paused_answer(42)
    assert json.loads(text)["code"] == "botapi.paused" and json.loads(text)["seconds"] == 42
    assert (b"retry-after", b"42") in headers and (b"content-length", str(len(text)).encode()) in headers
    assert bearer_secret("Bearer cfb_x") == "cfb_x" and bearer_secret("Basic cfb_x") is None
