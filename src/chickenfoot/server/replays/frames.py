"""The frames of a finished round's replay, built in a worker process and kept by content.

Rebuilding a round replays it through the engine and writes every position face up: 81–264 ms of
CPU and up to 700 KiB of JSON for a double-18 round, far too much for the event loop. A
:class:`RoundJob` is the plain data that decides a replay (rules, deal, moves, names); its digest names
the answer, so the cache, the in-flight builds and the HTTP ``ETag`` all key on what is replayed, not
on where it was asked. One low-priority process (spawned, reniced, as the reviews') builds them, one
at a time, with a bounded queue: past it a request is refused as busy rather than waiting for long.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import orjson

from chickenfoot.match import Match
from chickenfoot.move import Move
from chickenfoot.round import Round
from chickenfoot.rules import Rules
from chickenfoot.server.worker_process import Worker
from chickenfoot.tiles import Tile

FORMAT = 1
"""Part of every digest: a server that writes frames differently names them differently."""
CACHE_BYTES = 64 << 20
"""The built replays kept, in bytes of JSON (a double-18 round is up to about 700 KiB)."""
PENDING = 8
"""Builds queued or running at once; past them a request is refused as busy."""


class ReplayBusy(Exception):
    """Every build slot is taken; the client may ask again shortly."""


@dataclass(frozen=True, slots=True)
class RoundJob:
    """What one round's replay is built from: plain data, sent to the worker as it is."""

    rules: dict[str, Any]
    number: int
    start_double: int
    hands: list[list[str]]
    boneyard: list[str]
    moves: list[str]
    names: list[str]

    @classmethod
    def of(cls, match: Match, number: int, names: list[str]) -> RoundJob:
        """Round ``number`` (1-based) of ``match``, its seats called ``names``."""
        played = match.rounds[number - 1]
        hands, boneyard = match.deals[number - 1]
        return cls(
            rules=match.rules.to_dict(),
            number=number,
            start_double=played.start_double,
            hands=[[str(t) for t in hand] for hand in hands],
            boneyard=[str(t) for t in boneyard],
            moves=[str(step.move) for step in played.history],
            names=list(names),
        )

    def digest(self) -> str:
        return hashlib.sha256(orjson.dumps([FORMAT, self])).hexdigest()[:32]


def frame(r: Round, names: list[str]) -> dict[str, Any]:
    """One position with every tile face up, and the log entry of the move that led to it."""
    view = r.view(None)
    data: dict[str, Any] = {
        "layout": [[str(tile), str(target) if target is not None else None] for tile, target in view.layout],
        "open_ends": [[str(tile), number] for tile, number in view.open_ends],
        "foot": str(view.open_foot) if view.open_foot is not None else None,
        "hands": [[str(t) for t in r.hand(s)] for s in range(r.players)],
        "boneyard": [str(t) for t in r.boneyard_tiles()],
        "to_move": None if r.is_over() else r.to_move,
        "entry": None,
        "points": r.points() if r.is_over() else None,
        "reason": r.end_reason,
    }
    if r.ply:
        step = r.history[-1]
        text = step.move.describe(names[step.seat], step.drawn)
        entry = {"seat": step.seat, "move": str(step.move), "text": text}
        data["entry"] = entry | step.move.said(step.seat, step.drawn).wire()
    return data


def build(job: RoundJob) -> bytes:
    """The replay's JSON: the round before its first move, then after each move (in the worker process)."""
    r = Round(
        Rules.from_dict(job.rules),
        [[Tile.parse(t) for t in hand] for hand in job.hands],
        [Tile.parse(t) for t in job.boneyard],
        start_double=job.start_double,
    )
    frames = [frame(r, job.names)]
    for move in job.moves:
        r.push(Move.parse(move))
        frames.append(frame(r, job.names))
    return orjson.dumps({"round": job.number, "frames": frames})


class ReplayFrames:
    """Built replays by digest (least recently used dropped past ``cache_bytes``) and the worker that builds them."""

    def __init__(self, cache_bytes: int = CACHE_BYTES, pending: int = PENDING) -> None:
        self.cache_bytes = cache_bytes
        self.pending = pending
        self._cache: OrderedDict[str, bytes] = OrderedDict()
        self._size = 0
        self._building: dict[str, asyncio.Future[bytes]] = {}
        self._worker = Worker()

    @property
    def building(self) -> int:
        """Builds queued or running now."""
        return len(self._building)

    def keep(self, key: str, built: bytes) -> None:
        """Keep ``built`` under ``key`` (least recently used dropped past ``cache_bytes``)."""
        self._cache[key] = built
        self._size += len(built)
        while self._size > self.cache_bytes and len(self._cache) > 1:
            _, dropped = self._cache.popitem(last=False)
            self._size -= len(dropped)

    def cached(self, digest: str) -> bytes | None:
        built = self._cache.get(digest)
        if built is not None:
            self._cache.move_to_end(digest)
        return built

    async def get(self, job: RoundJob) -> bytes:
        """The replay of ``job``: kept, being built for another request, or built now; raises :class:`ReplayBusy`."""
        digest = job.digest()
        built = self.cached(digest)
        if built is not None:
            return built
        building = self._building.get(digest)
        if building is None:
            if len(self._building) >= self.pending:
                raise ReplayBusy
            building = self._building[digest] = asyncio.ensure_future(self._build(digest, job))
        return await asyncio.shield(building)  # one request giving up does not cancel the others' build

    async def _build(self, digest: str, job: RoundJob) -> bytes:
        try:
            built = await self._worker.run(build, job)
        finally:
            del self._building[digest]
        self.keep(digest, built)
        return built

    def close(self) -> None:
        self._worker.close()
