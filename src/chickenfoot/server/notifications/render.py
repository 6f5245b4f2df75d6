"""Notices in words, in the receiver's language: a line of the bell's list, a push's payload, an e-mail.

Everything here is made from a notice's kind, its table's code, its parameters (names chosen by
players, counts, a rating change) and the catalogs: nothing else reaches a push or an e-mail.

>>> Item(Kind.MATCH_OVER, "ABC123", {"won": 1, "change": -7}).text("en")
('You won the match at table ABC123', 'Your rating changed by −7')
>>> Item(Kind.CHAT, "ABC123", {"name": "Ann"}, count=3).text("lt")
('3 naujos pokalbio žinutės prie stalo ABC123', 'Paskutinę parašė Ann')
>>> Item(Kind.CHALLENGE, None, {"name": "Ann", "players": 2, "rated": 1}).text("en")
('Ann challenges you to a match', '2 players, rated')
>>> Item(Kind.CHALLENGE, None, {"name": "Ann", "players": 2, "move_seconds": 43200, "on_timeout": "lose"}).text("en")[1]
'2 players, casual. At your own pace: 12 hours per move; when time runs out, they lose the match (two players)'
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime, formataddr
from typing import Any

from chickenfoot.i18n import render
from chickenfoot.messages import Code
from chickenfoot.server.notices import Kind, Param, page_of
from chickenfoot.server.table.config import DAY, HOUR

PUSH_BYTES = 3000
"""A push's payload at most (the push services take 4 KiB once encrypted)."""
UNSUBSCRIBE_PAGE = "/unsubscribe/{token}"
"""The page an e-mail's unsubscribe line opens: a button that unsubscribes (a link alone must not, since
mail scanners open links)."""
UNSUBSCRIBE_POST = "/api/notifications/unsubscribe/{token}"
"""The one-click unsubscribe of RFC 8058 (``List-Unsubscribe-Post``): a POST that needs no session."""


ANSWERS = {
    "accepted": Code.SOCIAL_ANSWER_ACCEPTED,
    "declined": Code.SOCIAL_ANSWER_DECLINED,
    "expired": Code.SOCIAL_ANSWER_EXPIRED,
}
"""The words of each answer to a challenge."""
RULES = {"move": Code.PACE_RULE_MOVE, "replace": Code.PACE_RULE_REPLACE, "lose": Code.PACE_RULE_LOSE}
"""The words of each rule for a time run out at a table at one's own pace."""


def pace_words(move_seconds: int, on_timeout: str, lang: str) -> str:
    """A pace as a table at one's own pace shows it: its time per move and its rule for a time run out.

    >>> pace_words(2 * 86400, "replace", "fy")
    'Op dyn eigen tempo: 2 dagen per set; as de tiid om is, spilet in bot op dat plak oant de ein fan de partij'
    """
    days, hours = divmod(move_seconds, DAY)
    time = render(Code.PACE_HOURS, lang, count=hours // HOUR) if hours else render(Code.PACE_DAYS, lang, count=days)
    rule = render(RULES.get(on_timeout, Code.PACE_RULE_MOVE), lang)
    return render(Code.PACE_SUMMARY, lang, time=time, rule=rule)


def signed(change: int) -> str:
    """A rating change as the pages show it: ``+18``, ``−7`` (a true minus sign), ``±0``."""
    return f"+{change}" if change > 0 else f"\u2212{-change}" if change < 0 else "\u00b10"


@dataclass(frozen=True, slots=True)
class Item:
    """One notice as it is said: its kind, table, parameters and how often it was told unread."""

    kind: Kind
    table: str | None
    params: Mapping[str, Param] = field(default_factory=dict)
    count: int = 1

    @property
    def page(self) -> str:
        """The page the notice opens (a path of the site)."""
        return page_of(self.kind, self.table)

    def text(self, lang: str) -> tuple[str, str | None]:
        """The notice's line and a detail under it (or ``None``), in ``lang``."""
        table, name = self.table, str(self.params.get("name", ""))
        match self.kind:
            case Kind.YOUR_TURN:
                return render(Code.NOTIFY_YOUR_TURN, lang, table=table), None
            case Kind.INVITED:
                if name:
                    return render(Code.NOTIFY_INVITED, lang, name=name, table=table), None
                return render(Code.NOTIFY_INVITED_ANONYMOUS, lang, table=table), None
            case Kind.CHALLENGE:
                players, rated = int(self.params.get("players", 2)), bool(self.params.get("rated"))
                table_kind = Code.SOCIAL_TABLE_RATED if rated else Code.SOCIAL_TABLE_CASUAL
                detail: str | None = render(table_kind, lang, count=players)
                if (move_seconds := self.params.get("move_seconds")) is not None:  # else real-time
                    pace = pace_words(int(move_seconds), str(self.params.get("on_timeout")), lang)
                    detail = render(Code.SOCIAL_TABLE_PACE, lang, table=detail, pace=pace)
                return render(Code.NOTIFY_CHALLENGE, lang, name=name), detail
            case Kind.ANSWER:
                answer = ANSWERS.get(str(self.params.get("answer")), Code.SOCIAL_ANSWER_DECLINED)
                return render(answer, lang, name=name), None
            case Kind.MATCH_OVER:
                won = bool(self.params.get("won"))
                line = render(Code.NOTIFY_MATCH_WON if won else Code.NOTIFY_MATCH_OVER, lang, table=table)
                change = self.params.get("change")
                detail = None if change is None else render(Code.NOTIFY_RATING_CHANGE, lang, change=signed(int(change)))
                return line, detail
            case Kind.REMATCH:
                if name:
                    return render(Code.NOTIFY_REMATCH, lang, name=name, table=table), None
                return render(Code.NOTIFY_REMATCH_ANONYMOUS, lang, table=table), None
            case Kind.CHAT:
                line = render(Code.NOTIFY_CHAT, lang, count=self.count, table=table)
                return line, render(Code.NOTIFY_CHAT_FROM, lang, name=name) if name else None

    def wire(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "table": self.table, "params": dict(self.params), "count": self.count}

    @classmethod
    def from_wire(cls, data: Mapping[str, Any]) -> Item:
        table = None if data["table"] is None else str(data["table"])
        return cls(Kind(data["kind"]), table, dict(data["params"]), int(data["count"]))


def push_payload(item: Item, key: str, lang: str, at: datetime) -> str:
    """What one push carries (JSON): the notice's words, its kind and table, the page it opens, and a tag
    (the notice's key) by which a later push about the same thing replaces it on the device."""
    text, detail = item.text(lang)
    payload = {
        "title": render(Code.GAME_NAME, lang),
        "body": text if detail is None else f"{text}\n{detail}",
        "kind": item.kind.value,
        "table": item.table,
        "url": item.page,
        "tag": key,
        "count": item.count,
        "lang": lang,
        "at": at.isoformat(),
    }
    encoded = json.dumps(payload, ensure_ascii=False)
    assert len(encoded.encode()) <= PUSH_BYTES, "a push's words are short"
    return encoded


@dataclass(frozen=True, slots=True)
class Site:
    """Where the e-mails come from and what their links open."""

    origin: str
    """The site's public origin (``https://host``)."""
    sender: str
    """The ``From`` of every e-mail (``Chicken Foot <noreply@host>``)."""
    domain: str
    """The right-hand side of every ``Message-ID``."""

    def url(self, path: str) -> str:
        return f"{self.origin.rstrip('/')}{path}"


def _mail(
    site: Site, to: str, subject: str, lines: Sequence[str], message_id: str, at: datetime, lang: str
) -> EmailMessage:
    mail = EmailMessage()
    mail["From"] = site.sender
    mail["To"] = formataddr(("", to))
    mail["Subject"] = subject
    mail["Date"] = format_datetime(at)
    mail["Message-ID"] = f"<{message_id}@{site.domain}>"
    mail["Auto-Submitted"] = "auto-generated"  # RFC 3834: no vacation reply to a robot
    mail.set_content("\n".join(lines) + "\n")
    mail["Content-Language"] = lang  # after the content, which sets the Content-* headers afresh
    return mail


def digest_mail(
    site: Site, to: str, lang: str, items: Sequence[Item], message_id: str, at: datetime, unsubscribe: str
) -> EmailMessage:
    """The digest: how many tables wait, then each notice with the page it opens, and the ways out.

    ``unsubscribe``: the token of its unsubscribe links (the page's in its text, the one-click POST of
    RFC 8058 in its headers).
    """
    turns = sum(1 for item in items if item.kind is Kind.YOUR_TURN)
    lines: list[str] = []
    if turns:
        lines += [render(Code.NOTIFY_DIGEST_TURNS, lang, count=turns), ""]
    for item in items:
        text, detail = item.text(lang)
        lines += [text, *([detail] if detail else []), f"  {site.url(item.page)}", ""]
    lines += [
        "-- ",
        render(Code.NOTIFY_DIGEST_WHY, lang),
        f"{render(Code.NOTIFY_DIGEST_SETTINGS, lang)} {site.url('/account#notifications')}",
        f"{render(Code.NOTIFY_DIGEST_UNSUBSCRIBE, lang)} {site.url(UNSUBSCRIBE_PAGE.format(token=unsubscribe))}",
    ]
    subject = render(Code.NOTIFY_DIGEST_SUBJECT, lang, count=len(items))
    mail = _mail(site, to, subject, lines, message_id, at, lang)
    mail["List-Unsubscribe"] = f"<{site.url(UNSUBSCRIBE_POST.format(token=unsubscribe))}>"
    mail["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    return mail


def confirmation_mail(
    site: Site, to: str, lang: str, name: str, link: str, message_id: str, at: datetime
) -> EmailMessage:
    """The link that confirms an address (``link``: its path, with the secret)."""
    lines = [
        render(Code.NOTIFY_VERIFY_BODY, lang, name=name),
        "",
        site.url(link),
        "",
        render(Code.NOTIFY_VERIFY_IGNORE, lang),
    ]
    return _mail(site, to, render(Code.NOTIFY_VERIFY_SUBJECT, lang), lines, message_id, at, lang)


def recovery_mail(
    site: Site, to: str, lang: str, name: str, link: str, minutes: int, message_id: str, at: datetime
) -> EmailMessage:
    """A one-time sign-in link (``link``: its path, with the secret), good for ``minutes``."""
    body = render(Code.NOTIFY_RECOVER_BODY, lang, name=name, count=minutes)
    lines = [body, "", site.url(link), "", render(Code.NOTIFY_RECOVER_IGNORE, lang)]
    return _mail(site, to, render(Code.NOTIFY_RECOVER_SUBJECT, lang), lines, message_id, at, lang)
