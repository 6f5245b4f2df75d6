"""Sessions expire when idle and at their absolute end, on a fake clock; the cookie's attributes."""

from __future__ import annotations

import asyncio
import secrets

from starlette.requests import Request
from starlette.responses import Response

from chickenfoot.server.accounts.sessions import COOKIE, SessionPolicy, Sessions, csrf_token
from chickenfoot.server.accounts.store import AccountStore
from chickenfoot.server.clock import FakeClock, utc
from chickenfoot.server.storage import Storage

HOUR = 3600.0
POLICY = SessionPolicy(idle_seconds=10 * HOUR, absolute_seconds=40 * HOUR, touch_seconds=60)


def test_idle_and_absolute_expiry(database_url: str) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        storage = Storage(database_url, clock)
        await storage.migrate()
        store = AccountStore(storage)
        try:
            name = f"m{secrets.token_hex(4)}"
            account = await store.create(name, secrets.token_urlsafe(32), utc(clock))
            assert account is not None
            sessions = Sessions(store, clock, POLICY)
            session_id = await sessions.start(account.id, "Firefox  on\\nLinux" + "x" * 500, replacing=None)
            for _ in range(4):  # seen every 9 hours: idle never reaches 10 hours
                clock.advance(9 * HOUR)
                found = await sessions.find(session_id)
                assert found is not None and len(found.user_agent) == 120
            clock.advance(9 * HOUR)  # 45 hours after sign-in: past the absolute end, though seen recently
            assert await sessions.find(session_id) is None

            idle = await sessions.start(account.id, "", replacing=None)
            clock.advance(10 * HOUR)
            assert await sessions.find(idle) is None
            assert await sessions.find(None) is None and await sessions.find("forged") is None
        finally:
            await storage.close()

    asyncio.run(scenario())


def test_the_cookie_and_the_csrf_token() -> None:
    def cookie(scheme: str, policy: SessionPolicy) -> str:
        request = Request({"type": "http", "scheme": scheme, "server": ("h", 80), "path": "/", "headers": []})
        response = Response()
        Sessions(None, FakeClock(), policy).set_cookie(request, response, "the-id")  # type: ignore[arg-type]
        return response.headers["set-cookie"]

    plain = cookie("http", SessionPolicy())
    assert plain.startswith(f"{COOKIE}=the-id;") and "HttpOnly" in plain and "SameSite=lax" in plain
    assert "Secure" not in plain
    assert "Secure" in cookie("https", SessionPolicy())
    assert "Secure" in cookie("http", SessionPolicy(secure_cookies=True))
    assert csrf_token("a") != csrf_token("b") and len(csrf_token("a")) == 64
