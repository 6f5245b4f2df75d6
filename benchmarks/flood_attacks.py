"""The floods of issue 39, each bounded in count and time: what the attacker does (in a process of its own,
from many loopback addresses), what is made for it beforehand, what an honest client checks meanwhile,
and what is counted in the store afterwards.

Every count is the issue's, times ``scale`` (``floods.py --scale``); durations are the issue's. Each
attack says when its phases begin (``report``) and returns its own figures, never a list per request.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import random
import sqlite3
import subprocess
import sys
import time
import traceback
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine
from contextlib import AsyncExitStack, closing, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from multiprocessing.queues import Queue
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import httpx
import sqlalchemy as sa
from attack import attacker_addresses, quantiles
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from chickenfoot.server.accounts.names import normalised, skeleton
from chickenfoot.testing.clients import create_table

PASSWORD = "tile hub toe chicken"
Report = Callable[[str], None]
"""Called with a phase's name as it begins."""


@dataclass(frozen=True)
class Target:
    """Where the clients connect: the server, or nginx in front of it."""

    base: str

    @property
    def host(self) -> str:
        return urlsplit(self.base).hostname or "127.0.0.1"

    @property
    def port(self) -> int:
        return urlsplit(self.base).port or 80

    @property
    def ws(self) -> str:
        return self.base.replace("http://", "ws://")


@dataclass(frozen=True)
class Served:
    """The orchestrator's view of one served tree: where clients connect, and its store."""

    target: Target
    database: Path
    """The SQLite file."""

    @property
    def database_url(self) -> str:
        return f"sqlite+aiosqlite:///{self.database}"


def scaled(count: int, scale: float) -> int:
    return max(1, round(count * scale))


def spread(count: int, addresses: list[str]) -> list[str]:
    """``count`` sources, round robin over ``addresses``."""
    return [addresses[n % len(addresses)] for n in range(count)]


@dataclass
class Tally:
    """Answers by status (and refusal code) and how long they took."""

    answers: Counter[str] = field(default_factory=Counter)
    times: list[float] = field(default_factory=list)

    def add(self, answer: str, started: float) -> None:
        self.answers[answer] += 1
        self.times.append((time.monotonic() - started) * 1000)

    def summary(self) -> dict[str, Any]:
        return {"answers": dict(self.answers.most_common()), "ms": quantiles(self.times)}


def answer_of(status: int, body: bytes) -> str:
    """``200``, or a refusal's status and code (``429 account.too_many_sign_ins``)."""
    if status < 300:
        return str(status)
    with suppress(ValueError, AttributeError):
        return f"{status} {json.loads(body).get('code', '')}".strip()
    return str(status)


def session(source: str) -> aiohttp.ClientSession:
    """An HTTP client (a browser of its own: its own cookies) whose connections come from ``source``,
    with no limit on them."""
    return aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0, local_addr=(source, 0)))


async def request(
    http: aiohttp.ClientSession, tally: Tally, method: str, url: str, timeout: float = 60, **options: Any
) -> tuple[int, bytes] | None:
    started = time.monotonic()
    try:
        async with http.request(method, url, timeout=aiohttp.ClientTimeout(total=timeout), **options) as response:
            body = await response.read()
    except TimeoutError:
        tally.add("timed out", started)
        return None
    except (aiohttp.ClientError, OSError):
        tally.add("failed", started)
        return None
    tally.add(answer_of(response.status, body), started)
    return response.status, body


async def raw_connection(target: Target, source: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.wait_for(
        asyncio.open_connection(target.host, target.port, local_addr=(source, 0), limit=1 << 16), 30
    )


# --- 1. sockets at one table ----------------------------------------------------------------------


@dataclass
class Sockets:
    """What the attacker's table sockets met: handshakes, messages, and closes by the server."""

    handshakes: Counter[str] = field(default_factory=Counter)
    times: list[float] = field(default_factory=list)
    """Each accepted handshake's time (ms)."""
    opened: list[ClientConnection] = field(default_factory=list)
    messages: int = 0
    closed: Counter[str] = field(default_factory=Counter)
    """The server's closes before the attacker left, by close code."""
    leaving: bool = False


async def table_socket(url: str, cookie: str | None, source: str, sockets: Sockets) -> None:
    """A table's socket that reads (and drops) every message until the server or the attacker ends it."""
    started = time.monotonic()
    headers = {"Cookie": cookie} if cookie else None
    try:
        ws = await connect(
            url, ping_interval=None, max_size=2**22, open_timeout=60, local_addr=(source, 0), additional_headers=headers
        )
    except InvalidStatus as refused:
        sockets.handshakes[str(refused.response.status_code)] += 1
        return
    except TimeoutError:
        sockets.handshakes["timed out"] += 1
        return
    except (OSError, InvalidHandshake):
        sockets.handshakes["failed"] += 1
        return
    sockets.handshakes["101"] += 1
    sockets.times.append((time.monotonic() - started) * 1000)
    sockets.opened.append(ws)
    with suppress(ConnectionClosed):
        async for _ in ws:
            sockets.messages += 1
    if not sockets.leaving:
        sockets.closed[str(ws.close_code)] += 1


async def socket_flood(target: Target, prepared: dict[str, Any], scale: float, report: Report) -> dict[str, Any]:
    """3,540 sockets to one table, all at once from 59 addresses (60 each: the connection limit's minute),
    each reading every message; held 10 s, then all closed at once. The honest player is watched while
    they arrive, stay, and leave."""
    count, hold, settle = scaled(3540, scale), 10.0, 10.0
    sockets, url = Sockets(), target.ws + prepared["path"]
    report("arriving")
    started = time.monotonic()
    tasks = [
        asyncio.create_task(table_socket(url, prepared.get("cookie"), source, sockets))
        for source in spread(count, attacker_addresses(59))
    ]
    while sum(sockets.handshakes.values()) < count and time.monotonic() - started < 90:
        await asyncio.sleep(0.1)  # every handshake answered, refused or given up (60 s each at most)
    arrived = time.monotonic() - started
    report("holding")
    await asyncio.sleep(hold)
    held = len(sockets.opened) - sum(sockets.closed.values())
    report("leaving")
    sockets.leaving = True
    closing_time = time.monotonic()
    if sockets.opened:
        await asyncio.wait([asyncio.create_task(ws.close()) for ws in sockets.opened], timeout=settle)
    left = time.monotonic() - closing_time
    await asyncio.sleep(max(0.0, settle - left))
    for task in tasks:
        task.cancel()
    return {
        "sockets": count,
        "addresses": 59,
        "handshakes": dict(sockets.handshakes.most_common()),
        "handshake_ms": quantiles(sockets.times),
        "arrival_s": round(arrived, 1),
        "closed_by_server": dict(sockets.closed),
        f"open_after_{hold:.0f}s": held,
        "messages": sockets.messages,
        "closing_s": round(left, 1),
    }


async def table_of(target: Target, source: str) -> dict[str, Any]:
    """A table the attacker made, waiting for its second player: the creator's seat path."""
    async with httpx.AsyncClient(base_url=target.base, timeout=30) as http:
        table = await create_table(http, {"seats": [{"kind": "human"}, {"kind": "human"}]}, source)
    return {"code": table.code, "seat": table.seats[0]}


async def spectated_table(served: Served) -> dict[str, Any]:
    """Here as spectators (no credential) of a table waiting for its second player."""
    table = await table_of(served.target, attacker_addresses(1)[0])
    return {"path": f"/ws/{table['code']}"}


async def seated_table(served: Served) -> dict[str, Any]:
    """Here all on one seat, with its credential (a table waiting for its second player)."""
    table = await table_of(served.target, attacker_addresses(1)[0])
    return {"path": table["seat"]}


async def account_table(served: Served) -> dict[str, Any]:
    """Here all on one account's seat: a table made by a signed-in attacker, its seat opened by the
    session cookie alone."""
    base = served.target.base
    transport = httpx.AsyncHTTPTransport(local_address=attacker_addresses(1)[0])
    async with httpx.AsyncClient(base_url=base, timeout=30, transport=transport, headers={"Origin": base}) as http:
        signed_up = await http.post("/api/account/signup", json={"username": "sockets", "password": PASSWORD})
        signed_up.raise_for_status()
        created = await http.post(
            "/api/tables",
            json={"seats": [{"kind": "human"}, {"kind": "human"}]},
            headers={"X-CSRF-Token": signed_up.json()["csrf"]},
        )
        created.raise_for_status()
        cookie = "; ".join(f"{name}={value}" for name, value in http.cookies.items())
    return {"path": f"/ws/{created.json()['code']}", "cookie": cookie}


# --- 2. sign-ins ----------------------------------------------------------------------------------


async def sign_in_accounts(served: Served) -> dict[str, Any]:
    """An honest player's account, and the account the guessers aim at, whose owner has signed in once
    from the device (cookie) they sign in from again after the attack."""
    base = served.target.base
    async with httpx.AsyncClient(base_url=base, timeout=30, headers={"Origin": base}) as http:
        for name in ("honest", "victim"):
            made = await http.post("/api/account/signup", json={"username": name, "password": PASSWORD})
            made.raise_for_status()
        device = await http.post("/api/account/signin", json={"username": "victim", "password": PASSWORD})
        device.raise_for_status()
        return {"victim_cookies": dict(http.cookies.items())}


async def honest_sign_in(served: Served, phase: str, prepared: dict[str, Any], stop: asyncio.Event) -> dict[str, Any]:
    """one honest sign-in 2 s into each phase, behind what the attacker queued (waiting up to 60 s);
    after the attack, the victim's own too."""
    base = served.target.base
    out: dict[str, Any] = {}
    await asyncio.sleep(2)
    signing_in = [("honest", {}), *([("victim", prepared["victim_cookies"])] if phase == "after" else [])]
    for name, cookies in signing_in:
        async with httpx.AsyncClient(base_url=base, timeout=60, headers={"Origin": base}, cookies=cookies) as http:
            started = time.monotonic()
            try:
                answer = await http.post("/api/account/signin", json={"username": name, "password": PASSWORD})
                said = answer_of(answer.status_code, answer.content)
            except httpx.TimeoutException:
                said = "timed out"
            out[name] = {"answer": said, "ms": round((time.monotonic() - started) * 1000, 1)}
    return out


def post(target: Target, path: str, body: dict[str, Any]) -> bytes:
    data = json.dumps(body).encode()
    head = (
        f"POST {path} HTTP/1.1\r\nHost: {target.host}:{target.port}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n"
    )
    return head.encode() + data


async def abandoned(target: Target, source: str, body: dict[str, Any], counts: Counter[str]) -> None:
    """A request sent whole, its connection closed before any answer."""
    try:
        _, writer = await raw_connection(target, source)
    except (OSError, TimeoutError):
        counts["failed"] += 1
        return
    writer.write(post(target, "/api/account/signin", body))
    await writer.drain()
    await asyncio.sleep(0.2)
    writer.close()
    counts["abandoned"] += 1


async def sign_in_flood(target: Target, prepared: dict[str, Any], scale: float, report: Report) -> dict[str, Any]:
    """1,770 wrong passwords (30 from each of 59 addresses, the per-address limit; a dozen at the victim's
    name, the rest at names nobody has, each hashed all the same), then sign-ups whose clients leave after
    3 s, then 600 sign-ins abandoned before their answer."""
    guesses, signups, left = scaled(1770, scale), scaled(590, scale), scaled(600, scale)
    wrong, made, gone = Tally(), Tally(), Counter[str]()

    async def guess(http: aiohttp.ClientSession, n: int) -> None:
        name = "victim" if n < 12 else f"guess{n}"
        await request(
            http,
            wrong,
            "POST",
            f"{target.base}/api/account/signin",
            120,
            json={"username": name, "password": f"wrong guess {n}"},
        )

    async def sign_up(http: aiohttp.ClientSession, n: int) -> None:
        body = {"username": f"gone{n}", "password": f"{PASSWORD} {n}"}
        await request(http, made, "POST", f"{target.base}/api/account/signup", 3, json=body)

    async def from_each(
        work: Callable[[aiohttp.ClientSession, int], Awaitable[None]], count: int, addresses: list[str]
    ) -> float:
        started = time.monotonic()
        async with AsyncExitStack() as stack:
            clients = [await stack.enter_async_context(session(source)) for source in addresses]
            await asyncio.gather(*(work(clients[n % len(clients)], n) for n in range(count)))
        return round(time.monotonic() - started, 1)

    report("wrong passwords")
    guessing = await from_each(guess, guesses, attacker_addresses(59))
    report("sign-ups leaving")
    signing_up = await from_each(sign_up, signups, attacker_addresses(59, skip=59))
    report("abandoned")
    bodies = [{"username": f"left{n}", "password": f"wrong guess {n}"} for n in range(left)]
    sources = spread(left, attacker_addresses(20, skip=118))
    await asyncio.gather(*(abandoned(target, s, b, gone) for s, b in zip(sources, bodies, strict=True)))
    return {
        "wrong_passwords": guesses,
        "wrong_answers": wrong.summary(),
        "wrong_all_answered_s": guessing,
        "sign_ups": signups,
        "sign_up_answers": made.summary(),
        "sign_ups_acknowledged": made.answers["201"],
        "sign_ups_s": signing_up,
        "abandoned": dict(gone),
    }


def count_stored(database: Path, query: str, *parameters: str) -> int:
    """``SELECT count(*) …`` in the served store, read only (the server may be writing)."""
    with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=30)) as db:
        return int(db.execute(query, parameters).fetchone()[0])


async def sign_ups_stored(served: Served, result: dict[str, Any]) -> dict[str, Any]:
    query = "SELECT count(*) FROM accounts WHERE username LIKE ?"
    return {"sign_ups_stored": await asyncio.to_thread(count_stored, served.database, query, "gone%")}


# --- 3. Bot API streams ---------------------------------------------------------------------------


async def bot_with_tokens(served: Served) -> dict[str, Any]:
    """A bot account made by its operator's CLI (``chickenfoot account bot NAME --token``, the served
    tree's), its other 19 tokens minted on its account page, and a table of its own against a level."""
    base = served.target.base
    async with httpx.AsyncClient(base_url=base, timeout=30, headers={"Origin": base}) as http:
        signed_up = await http.post("/api/account/signup", json={"username": "streamer", "password": PASSWORD})
        signed_up.raise_for_status()
        command = [sys.executable, "-m", "chickenfoot", "account", "bot", "streamer", "--token"]
        made = await asyncio.to_thread(
            subprocess.run,
            [*command, "--database-url", served.database_url],
            capture_output=True,
            text=True,
            check=True,
        )
        tokens = [made.stdout.strip()]
        for n in range(19):
            minted = await http.post(
                "/api/account/tokens", json={"label": f"t{n}"}, headers={"X-CSRF-Token": signed_up.json()["csrf"]}
            )
            minted.raise_for_status()
            tokens.append(minted.json()["token"])
        table = await http.post(
            "/api/bot/tables", json={"opponents": [{"bot": "easy"}]}, headers={"Authorization": f"Bearer {tokens[0]}"}
        )
        table.raise_for_status()
    return {"tokens": tokens, "code": table.json()["table"]}


async def stream_flood(target: Target, prepared: dict[str, Any], scale: float, report: Report) -> dict[str, Any]:
    """31 NDJSON streams of the bot's table on each of its 20 tokens (token *i* from address *i*), held 30 s."""
    per_token, hold = scaled(31, scale), 30.0
    opened, ended, lines = Tally(), Counter[str](), Counter[str]()
    url = f"{target.base}/api/bot/tables/{prepared['code']}/stream"
    stop = asyncio.Event()

    async def stream(http: aiohttp.ClientSession, token: str) -> None:
        started = time.monotonic()
        try:
            headers = {"Authorization": f"Bearer {token}"}
            async with http.get(url, headers=headers, timeout=aiohttp.ClientTimeout(total=None, sock_connect=30)) as r:
                if r.status != 200:
                    opened.add(answer_of(r.status, await r.read()), started)
                    return
                opened.add("200", started)
                reading = asyncio.create_task(drain(r))
                stopping = asyncio.create_task(stop.wait())
                await asyncio.wait((reading, stopping), return_when=asyncio.FIRST_COMPLETED)
                ended["held" if stopping.done() else "ended by the server"] += 1
                reading.cancel()
                stopping.cancel()
        except (aiohttp.ClientError, OSError, TimeoutError):
            opened.add("failed", started)

    async def drain(response: aiohttp.ClientResponse) -> None:
        async for _ in response.content:
            lines["lines"] += 1

    report("streaming")
    async with AsyncExitStack() as stack:
        clients = [await stack.enter_async_context(session(source)) for source in attacker_addresses(20)]
        tasks = [
            asyncio.create_task(stream(client, token))
            for client, token in zip(clients, prepared["tokens"], strict=True)
            for _ in range(per_token)
        ]
        await asyncio.sleep(hold)
        stop.set()
        await asyncio.wait(tasks, timeout=10)
    return {
        "streams": per_token * 20,
        "opened": opened.summary(),
        f"after_{hold:.0f}s": dict(ended),
        "lines": lines["lines"],
    }


# --- 4. slow request heads ------------------------------------------------------------------------


async def slow_head(target: Target, source: str, until: float, counts: Counter[str], slots: asyncio.Semaphore) -> None:
    """A request head sent one byte a second, never finished, until ``until``."""
    async with slots:
        try:
            reader, writer = await raw_connection(target, source)
            writer.write(f"GET /api/presets HTTP/1.1\r\nHost: {target.host}:{target.port}\r\nX-Slow: ".encode())
        except (OSError, TimeoutError):
            counts["not opened"] += 1
            return
    counts["opened"] += 1
    answered = asyncio.create_task(reader.read(1 << 12))  # an answer (408, 400) or the server hanging up
    try:
        while time.monotonic() < until:
            done, _ = await asyncio.wait({answered}, timeout=min(1.0, max(0.0, until - time.monotonic())))
            if done:
                counts["closed by the server"] += 1
                return
            writer.write(b"a")
        counts["open at the end"] += 1
    except OSError:
        counts["closed by the server"] += 1
    finally:
        answered.cancel()
        writer.close()


async def slow_heads(target: Target, prepared: dict[str, Any], scale: float, report: Report) -> dict[str, Any]:
    """3,000 connections sending their request head a byte a second for 45 s, from one address, then as
    many from 59."""
    count, seconds, out = scaled(3000, scale), 45.0, {}
    for phase, addresses in (("one address", attacker_addresses(1)), ("59 addresses", attacker_addresses(59))):
        report(phase)
        counts, slots = Counter[str](), asyncio.Semaphore(256)
        until = time.monotonic() + seconds
        await asyncio.gather(*(slow_head(target, s, until, counts, slots) for s in spread(count, addresses)))
        out[phase] = {"connections": count} | dict(counts)
    return out


async def visitors(served: Served, phase: str, prepared: dict[str, Any], stop: asyncio.Event) -> dict[str, Any]:
    """a new visitor every second (a new connection asking ``/api/presets``, 5 s to be answered)."""
    tally, visits = Tally(), []

    async def visit() -> None:
        started = time.monotonic()
        try:
            async with httpx.AsyncClient(timeout=5) as http:
                answer = await http.get(f"{served.target.base}/api/presets")
            tally.add(str(answer.status_code), started)
        except httpx.TimeoutException:
            tally.add("timed out", started)
        except httpx.TransportError:
            tally.add("refused", started)

    while not stop.is_set():
        visits.append(asyncio.create_task(visit()))
        with suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 1.0)
    await asyncio.gather(*visits)
    return {"visitors": tally.summary()}


# --- 5. ratings -----------------------------------------------------------------------------------


def seed_players(database: Path, count: int, prefix: str) -> list[str]:
    """``count`` accounts with established, active ratings in both families, written straight into the
    served SQLite store (its own tables, read from the file: whatever columns the served tree has)."""
    engine = sa.create_engine(f"sqlite:///{database}")
    try:
        tables = sa.MetaData()
        tables.reflect(engine, only=["accounts", "ratings"])
        accounts, ratings = tables.tables["accounts"], tables.tables["ratings"]
        now, rng = datetime.now(UTC), random.Random(39)
        names = [f"{prefix}{n}" for n in range(count)]
        with engine.begin() as db:
            db.execute(
                accounts.insert(),
                [
                    {
                        "username": name,
                        "skeleton": skeleton(normalised(name)),
                        "user_handle": base64.urlsafe_b64encode(os.urandom(18)).decode(),
                        "created_at": now,
                        "deleted": False,
                        "bot": False,
                    }
                    for name in names
                ],
            )
            ids = db.execute(sa.select(accounts.c.id).where(accounts.c.username.like(f"{prefix}%"))).scalars()
            db.execute(
                ratings.insert(),
                [
                    {
                        "account_id": account,
                        "family": family,
                        "mu": rng.gauss(25, 4),
                        "sigma": 2.5 + rng.random(),
                        "matches": 20,
                        "last_played": now,
                    }
                    for account in ids
                    for family in ("2", "3-4")
                ],
            )
        return names
    finally:
        engine.dispose()


async def rated_players(served: Served) -> dict[str, Any]:
    """20,000 players with established, active ratings, seeded straight into the store."""
    await asyncio.to_thread(seed_players, served.database, 20_000, "rated")
    return {"prefix": "rated", "players": 20_000}


async def ratings_flood(target: Target, prepared: dict[str, Any], scale: float, report: Report) -> dict[str, Any]:
    """40 clients (from 40 addresses) asking ``/api/ratings/NAME`` of random players, back to back, for 20 s."""
    clients, seconds, tally = scaled(40, scale), 20.0, Tally()
    rng = random.Random(5)
    until = time.monotonic() + seconds

    async def asker(source: str) -> None:
        async with session(source) as http:
            while time.monotonic() < until:
                name = f"{prepared['prefix']}{rng.randrange(prepared['players'])}"
                await request(http, tally, "GET", f"{target.base}/api/ratings/{name}", 30)

    report("asking")
    await asyncio.gather(*(asker(source) for source in attacker_addresses(clients)))
    return {"clients": clients, "per_second": round(len(tally.times) / seconds, 1)} | tally.summary()


# --- 6. quick play --------------------------------------------------------------------------------


async def quick_play_flood(target: Target, prepared: dict[str, Any], scale: float, report: Report) -> dict[str, Any]:
    """1,000 guests joining quick play for two from 125 addresses (8 each: the most one may have waiting),
    each beating until seated (at most 20 s), none ever coming to the table."""
    joins, seconds = scaled(1000, scale), 20.0
    addresses = attacker_addresses(min(125, -(-joins // 8)))
    joined, seated = Tally(), Counter[str]()
    codes: dict[str, set[str]] = {}
    until = time.monotonic() + seconds

    async def guest(source: str) -> None:
        async with session(source) as http:  # a browser of its own: its own cookie
            answer = await request(
                http,
                joined,
                "POST",
                f"{target.base}/api/quickplay",
                30,
                json={"players": 2, "rated": False, "name": "Guest"},
            )
            if answer is None or answer[0] != 201:
                return
            ticket = json.loads(answer[1])["ticket"]
            while time.monotonic() < until:
                await asyncio.sleep(3)
                beat = await request(
                    http, Tally(), "POST", f"{target.base}/api/quickplay/beat", 30, json={"ticket": ticket}
                )
                if beat is not None and beat[0] == 200 and json.loads(beat[1]).get("status") == "seated":
                    codes.setdefault(source, set()).add(json.loads(beat[1])["code"])
                    seated["seated"] += 1
                    return
            seated["never seated"] += 1

    report("joining")
    await asyncio.gather(*(guest(source) for source in spread(joins, addresses)))
    return {
        "joins": joins,
        "addresses": len(addresses),
        "join_answers": joined.summary(),
        "guests": dict(seated),
        "tables_seen": len(set().union(*codes.values())) if codes else 0,
        "most_tables_one_address": max((len(c) for c in codes.values()), default=0),
    }


UNPLAYED = (
    "SELECT count(*) FROM game_tables g WHERE NOT EXISTS (SELECT 1 FROM actions a WHERE a.table_code = g.code)"
    " AND NOT EXISTS (SELECT 1 FROM archived_actions r WHERE r.table_code = g.code)"
)


async def unplayed_tables(served: Served, result: dict[str, Any]) -> dict[str, Any]:
    """Tables in the store, and those without a single move (the honest player's is played)."""
    stored = await asyncio.to_thread(count_stored, served.database, "SELECT count(*) FROM game_tables")
    return {
        "tables_stored": stored,
        "tables_unplayed": await asyncio.to_thread(count_stored, served.database, UNPLAYED),
    }


# --- 7. cheap requests ----------------------------------------------------------------------------


async def profiled_players(served: Served) -> dict[str, Any]:
    """3,000 players seeded straight into the store: each profile asked is another's."""
    await asyncio.to_thread(seed_players, served.database, 3_000, "profiled")
    return {"prefix": "profiled", "players": 3_000}


async def paced(rate: float, seconds: float, send: Callable[[int], Coroutine[Any, Any, None]]) -> dict[str, Any]:
    """``send(n)`` ``rate`` times a second for ``seconds`` whether or not the answers come (at most 2,000
    waiting: past that a request is not sent)."""
    waiting: set[asyncio.Task[None]] = set()
    started, sent, skipped = time.monotonic(), 0, 0
    while (due := started + sent / rate) < started + seconds:
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        if len(waiting) < 2000:
            task = asyncio.create_task(send(sent))
            waiting.add(task)
            task.add_done_callback(waiting.discard)
        else:
            skipped += 1
        sent += 1
    if waiting:
        await asyncio.wait(waiting, timeout=30)
    return {"per_second": round((sent - skipped) / seconds, 1), "not_sent": skipped}


async def cheap_flood(target: Target, prepared: dict[str, Any], scale: float, report: Report) -> dict[str, Any]:
    """For 20 s: profiles of distinct players at 34 a second (each address under its 60 a minute) and
    ``/api/presets`` at 380 a second, both round robin over 59 addresses."""
    seconds = 20.0
    profiles, presets = Tally(), Tally()
    report("requesting")
    async with AsyncExitStack() as stack:
        clients = [await stack.enter_async_context(session(source)) for source in attacker_addresses(59)]

        async def profile(n: int) -> None:
            name = f"{prepared['prefix']}{n % prepared['players']}"
            await request(clients[n % 59], profiles, "GET", f"{target.base}/api/players/{name}", 30)

        async def preset(n: int) -> None:
            await request(clients[n % 59], presets, "GET", f"{target.base}/api/presets", 30)

        rates = await asyncio.gather(paced(34 * scale, seconds, profile), paced(380 * scale, seconds, preset))
    return {"profiles": rates[0] | profiles.summary(), "presets": rates[1] | presets.summary()}


# --- 8. the stuck grace ---------------------------------------------------------------------------


async def deserted_table(served: Served) -> dict[str, Any]:
    """A match of two people begun, both gone: seat 1 for good, seat 0 about to come back now and then."""
    base = served.target.base
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        table = await create_table(http, {"seats": [{"kind": "human"}, {"kind": "human"}], "turn_timer": None})
    for path in table.seats.values():
        async with connect(served.target.ws + path, ping_interval=None, max_size=2**22) as ws:
            while json.loads(await ws.recv()).get("state", {}).get("status") != "playing":
                pass
    return {"path": table.seats[0]}


def longest_unchanged(versions: list[tuple[float, int]]) -> float:
    """The longest time between the first and the last sight of one version."""
    first: dict[int, float] = {}
    for when, version in versions:
        first.setdefault(version, when)
    return max((when - first[version] for when, version in versions), default=0.0)


async def flaky_player(target: Target, prepared: dict[str, Any], scale: float, report: Report) -> dict[str, Any]:
    """For 45 s, seat 0's player (a flaky phone) comes back every 5 s, plays if it is their turn, and is
    gone again after 2 s; seat 1's player never comes back, and should be covered by a bot after 12 s."""
    seconds, visit, away = 45.0, 2.0, 3.0
    versions: list[tuple[float, int]] = []  # when each state came, and its version
    graces: set[float] = set()
    entries: dict[tuple[int, int], tuple[int, str]] = {}  # (round, index in its log): (seat, move)
    covered, own_moves, visits = False, 0, 0
    report("coming and going")
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        visits += 1
        with suppress(OSError, TimeoutError, ValueError):
            async with connect(target.ws + prepared["path"], ping_interval=None, max_size=2**22) as ws:
                left = time.monotonic() + visit
                with suppress(TimeoutError):
                    while time.monotonic() < left:
                        message = json.loads(await asyncio.wait_for(ws.recv(), max(0.01, left - time.monotonic())))
                        if message.get("type") != "state":
                            continue
                        state = message["state"]
                        versions.append((time.monotonic(), message["version"]))
                        grace = (state.get("grace") or [None, None])[1]
                        if grace is not None:
                            graces.add(grace)
                        covered = covered or bool((state.get("covered") or [False, False])[1])
                        for at, entry in enumerate(state.get("log") or [], state.get("log_from", 0)):
                            entries[state["round"], at] = (entry["seat"], entry["move"])
                        legal = state.get("legal") or []
                        forced = len(legal) == 1 and legal[0] in ("draw", "pass")
                        if state.get("to_move") == 0 and state.get("round_over") is None and legal and not forced:
                            await ws.send(json.dumps({"type": "move", "move": legal[0], "version": message["version"]}))
                            own_moves += 1
        await asyncio.sleep(away)
    return {
        "visits": visits,
        "actions": (versions[-1][1] - versions[0][1]) if versions else 0,
        "longest_unchanged_s": round(longest_unchanged(versions), 1),
        "own_moves_sent": own_moves,
        # Tiles the absent seat's bot laid (draws and passes the server makes for anyone).
        "absent_seat_tiles": sum(seat == 1 and move not in ("draw", "pass") for seat, move in entries.values()),
        "absent_seat_covered": covered,
        "grace_restarts": max(0, len(graces) - 1),
    }


# --- the attacks ----------------------------------------------------------------------------------


async def nothing(served: Served) -> dict[str, Any]:
    return {}


async def nothing_after(served: Served, result: dict[str, Any]) -> dict[str, Any]:
    return {}


Probe = Callable[[Served, str, dict[str, Any], asyncio.Event], Coroutine[Any, Any, dict[str, Any]]]


@dataclass(frozen=True)
class Attack:
    """One row of the issue's table."""

    name: str
    run: Callable[[Target, dict[str, Any], float, Report], Coroutine[Any, Any, dict[str, Any]]]
    """The attacker, in a process of its own."""
    seconds: float
    """The most the attacker takes at full scale: it ends by itself before."""
    prepare: Callable[[Served], Coroutine[Any, Any, dict[str, Any]]] = nothing
    """What is made before the honest player starts (accounts, tables, seeded players)."""
    probe: Probe | None = None
    """An honest check run in each phase besides the honest player (until the phase ends)."""
    inspect: Callable[[Served, dict[str, Any]], Coroutine[Any, Any, dict[str, Any]]] = nothing_after
    """What is counted in the store once the attacker has gone."""

    @property
    def summary(self) -> str:
        """What the attacker does, and what it found made (one paragraph)."""
        said = [self.run.__doc__, None if self.prepare is nothing else self.prepare.__doc__]
        said.append(None if self.probe is None else f"Beside the honest player: {self.probe.__doc__}")
        return " ".join(" ".join(doc.split()) for doc in said if doc)


ATTACKS = {
    attack.name: attack
    for attack in (
        Attack("sockets-spectators", socket_flood, 150, prepare=spectated_table),
        Attack("sockets-seat", socket_flood, 150, prepare=seated_table),
        Attack("sockets-account", socket_flood, 150, prepare=account_table),
        Attack("sign-ins", sign_in_flood, 240, sign_in_accounts, honest_sign_in, sign_ups_stored),
        Attack("bot-streams", stream_flood, 45, prepare=bot_with_tokens),
        Attack("slow-heads", slow_heads, 120, probe=visitors),
        Attack("ratings", ratings_flood, 60, prepare=rated_players),
        Attack("quick-play", quick_play_flood, 80, inspect=unplayed_tables),
        Attack("cheap-requests", cheap_flood, 60, prepare=profiled_players),
        Attack("stuck-grace", flaky_player, 55, prepare=deserted_table),
    )
}


def attacker(name: str, base: str, prepared: dict[str, Any], scale: float, out: Queue[Any], yielding: bool) -> None:
    """The attacker's process: runs attack ``name``, putting ``("phase", NAME)`` as each phase begins and
    ``("result", FIGURES)`` (or ``("failed", TRACEBACK)``) at the end. ``yielding``: at the lowest priority,
    so that the honest clients on its core run first."""
    if yielding:
        os.nice(19)
    try:
        result = asyncio.run(ATTACKS[name].run(Target(base), prepared, scale, lambda phase: out.put(("phase", phase))))
        out.put(("result", result))
    except BaseException:
        out.put(("failed", traceback.format_exc()))
