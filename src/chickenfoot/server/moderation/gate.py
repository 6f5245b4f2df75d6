"""What moderation asks of every chat line before the table takes it, and of every sign-in.

A chat line is judged in order: is its speaker muted (the refusal says until when), has it a word of
the filter (:mod:`.words`), has its speaker said the same line too often lately, or too many links
(both counted by the one rate limiter, per speaker: the account, or a guest's address). A refused
line is not stored and reaches nobody; its writer alone is told why, in their language, and may say
it otherwise. A filtered line is refused rather than masked: a masked line still carries its
meaning ("f*** you"), and masking a look-alike spelling would have to map the folded match back onto
the characters typed; refused, nothing of it is kept or shown, and its writer knows the line went
nowhere.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from chickenfoot.messages import Code, Said
from chickenfoot.server.accounts.store import Account
from chickenfoot.server.clock import Clock, utc
from chickenfoot.server.cluster.fanout import Bus, Message, Unsubscribe
from chickenfoot.server.cluster.messages import ChatWordsChanged, decode, encode
from chickenfoot.server.http.limits import RateLimiter
from chickenfoot.server.moderation.store import ModerationStore, Restricted
from chickenfoot.server.moderation.words import Words, folded, shipped
from chickenfoot.server.refusals import Refusal, Why
from chickenfoot.server.storage import StorageUnavailable

log = logging.getLogger(__name__)

WORDS_CHANNEL = "moderation-words"
"""Where a process says that the operators changed the chat words (each process reads them again)."""
LINK = re.compile(
    r"[a-z][a-z0-9+.-]*://|\bwww\.|\b[a-z0-9-]+\."
    r"(?:com|net|org|info|biz|io|co|me|ru|su|lt|lv|nl|de|uk|eu|xyz|top|gg|ly|to|tk|app|site|online|link|club|shop)\b"
)
"""A link, in a line as NFKC and case folded (``ｗｗｗ．`` is ``www.``): a scheme, ``www.``, or a name with a
top-level domain that links are made of."""


@dataclass(frozen=True, slots=True)
class Speaker:
    """Who says a chat line: the account behind the connection (``None``: a guest), and its address."""

    account_id: int | None
    address: str

    @property
    def key(self) -> str:
        """What the rate limiter counts the speaker's lines by: the account, else the address."""
        return f"account:{self.account_id}" if self.account_id is not None else f"address:{self.address}"


def moment(at: datetime) -> str:
    """A time a message names (its ``moment``): ISO 8601 to the minute, which each client shows as its
    reader's clock reads it."""
    return at.isoformat(timespec="minutes")


def has_link(text: str) -> bool:
    """
    >>> has_link("see https://example.org"), has_link("ｗｗｗ．ｅｘａｍｐｌｅ．ｌｔ"), has_link("join cheap.xyz now")
    (True, True, True)
    >>> has_link("Nice 9-4. Good game."), has_link("e.g. the hub")
    (False, False)
    """
    return LINK.search(unicodedata.normalize("NFKC", text).casefold()) is not None


class ChatWords:
    """The filter in force: the lists shipped, the operator's file, and the words added on the moderation
    page, read again in every process when an operator changes them (a typed message on the cluster's bus,
    :class:`~chickenfoot.server.cluster.messages.ChatWordsChanged`)."""

    def __init__(self, store: ModerationStore, bus: Bus, from_file: Iterable[str] = ()) -> None:
        self.store, self.bus = store, bus
        self.fixed = shipped().joined(from_file)
        """The lists shipped and the operator's file: what no operator removes from the page."""
        self.words: Words = self.fixed
        self._unsubscribe: Unsubscribe | None = None
        self._reading: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        self._unsubscribe = self.bus.subscribe(WORDS_CHANNEL, self._heard)
        await self.read()

    def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        for task in self._reading:
            task.cancel()

    async def read(self) -> None:
        """Read the page's words again (keeping those in force while the game store does not answer)."""
        try:
            added = [word.word for word in await self.store.words()]
        except StorageUnavailable:
            log.warning("the chat words were not read again: the game store is unavailable")
            return
        self.words = self.fixed.joined(added)

    async def changed(self) -> None:
        """An operator changed the page's words: read them here at once, and tell the other processes."""
        await self.read()
        await self.bus.publish(WORDS_CHANNEL, encode(ChatWordsChanged(), ""))

    def _heard(self, wire: Message) -> None:
        heard = decode(wire)
        if heard is None or not isinstance(heard[1], ChatWordsChanged):
            return
        task = asyncio.get_running_loop().create_task(self.read())
        self._reading.add(task)
        task.add_done_callback(self._reading.discard)


class ChatModeration:
    """The moderation of chat lines (:meth:`judge`) and of sign-ins (:meth:`admit`)."""

    def __init__(self, store: ModerationStore, words: ChatWords, limits: RateLimiter, clock: Clock) -> None:
        self.store, self.words, self.limits, self.clock = store, words, limits, clock

    async def judge(self, speaker: Speaker, text: str | None) -> Refusal | None:
        """What refuses a chat line (``text``; ``None``: a quick reaction) now, or ``None``: a mute (saying
        until when), a word of the filter, the same line said too often, too many links."""
        try:
            if speaker.account_id is not None:
                muted = await self.store.restricted_until(speaker.account_id, Restricted.MUTE, utc(self.clock))
                if muted is not None:
                    return Refusal.forbidden(Said.of(Code.MODERATION_MUTED, moment=moment(muted)))
        except StorageUnavailable:
            return Refusal.busy(Said.of(Code.ERROR_CHAT_UNAVAILABLE))
        if text is None:
            return None
        if self.words.words.match(text) is not None:
            return Refusal.invalid(Said.of(Code.MODERATION_FILTERED))
        same = hashlib.sha256(" ".join(folded(text).split()).encode()).hexdigest()[:24]
        if (repeated := await self.limits.refusal("chat_repeat", f"{speaker.key}:{same}")) is not None:
            return Refusal.too_many(repeated[0], retry_after=repeated[1])
        if has_link(text) and (links := await self.limits.refusal("chat_link", speaker.key)) is not None:
            return Refusal.too_many(links[0], retry_after=links[1])
        return None

    async def admit(self, account: Account) -> None:
        """Refuses (403, saying until when) a new session of a suspended account."""
        suspended = await self.store.restricted_until(account.id, Restricted.SUSPEND, utc(self.clock))
        if suspended is not None:
            raise Refusal(Why.FORBIDDEN, Said.of(Code.MODERATION_SUSPENDED, moment=moment(suspended)))
