"""The composition root: the one place that builds the server's stores, services and routes and wires
them together (and the only one that picks the system's clock, through :class:`Settings`).

Nothing else builds a service; nothing imports this module but the entry points (``chickenfoot
serve``, the tests, the benchmarks). The layers it assembles are drawn in
docs/contributors/architecture.md.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

from fastapi import APIRouter, FastAPI, Request, WebSocket
from fastapi.staticfiles import StaticFiles

from chickenfoot.errors import quoted
from chickenfoot.messages import Code, Said
from chickenfoot.move import Move
from chickenfoot.review import DEFAULT_BUDGET
from chickenfoot.server import i18n_routes
from chickenfoot.server.accounts.holders import SeatHolders
from chickenfoot.server.accounts.live import SessionWatch
from chickenfoot.server.accounts.pages import account_pages_router
from chickenfoot.server.accounts.routes import accounts_router
from chickenfoot.server.accounts.service import Accounts, AccountSettings
from chickenfoot.server.botapi.gate import PREFIX as BOT_API
from chickenfoot.server.botapi.gate import FloodGate, PausedTokens
from chickenfoot.server.botapi.routes import bot_api_router, caller_of
from chickenfoot.server.botapi.service import BotApi, account_channel
from chickenfoot.server.botapi.store import Bearer
from chickenfoot.server.clock import SYSTEM_CLOCK, Clock, utc
from chickenfoot.server.cluster import Cluster, local, shared
from chickenfoot.server.cluster.fanout import LocalBus
from chickenfoot.server.cluster.sync import TableSync, tell_config_changed
from chickenfoot.server.company import company_router, readiness_router
from chickenfoot.server.edge.client import (
    CLOSE_BAD_TOKEN,
    CLOSE_FLOODING,
    CLOSE_NOT_READING,
    SOCKET_PATH,
    Admission,
    ConnectionLimits,
    SendWatch,
    refuse,
    serve_connection,
)
from chickenfoot.server.edge.line_stream import table_lines
from chickenfoot.server.handover.routes import handover_router
from chickenfoot.server.handover.service import Handovers
from chickenfoot.server.handover.store import HandoverStore
from chickenfoot.server.history.routes import profiles_router
from chickenfoot.server.history.service import MatchHistory
from chickenfoot.server.history.store import HistoryStore
from chickenfoot.server.http import answers
from chickenfoot.server.http.budget import CheapBudget
from chickenfoot.server.http.caps import Hold, OpenCaps, OpenHolds
from chickenfoot.server.http.client import client_address
from chickenfoot.server.http.limits import AccountLimits, AddressLimits, RateLimiter, SpeakerLimits, TokenLimits
from chickenfoot.server.http.pages import pages_router
from chickenfoot.server.http.security import HostCheck, SecurityHeaders, origin_allowed
from chickenfoot.server.http.tables import TableLookup, table_lookup
from chickenfoot.server.lobby import Lobby
from chickenfoot.server.moderation import reports as moderation_reports
from chickenfoot.server.moderation.gate import ChatModeration, ChatWords, Speaker
from chickenfoot.server.moderation.mutes import LiveMutes
from chickenfoot.server.moderation.reports import ReportDesk
from chickenfoot.server.moderation.routes import moderation_router
from chickenfoot.server.moderation.service import Moderation, TableEnd
from chickenfoot.server.moderation.store import ModerationStore
from chickenfoot.server.notifications.routes import notifications_router
from chickenfoot.server.notifications.service import Notifications, NotificationSettings
from chickenfoot.server.ops.metrics import Readings
from chickenfoot.server.ops.operations import Operations
from chickenfoot.server.quickplay.ratings import EqualRatings
from chickenfoot.server.quickplay.routes import quickplay_router
from chickenfoot.server.quickplay.service import QuickPlay, bots_cover
from chickenfoot.server.quickplay.store import Queue, QuickPlaySettings, waiting
from chickenfoot.server.ratings.routes import ratings_router
from chickenfoot.server.ratings.service import LevelRatings, Ratings
from chickenfoot.server.ratings.store import Change
from chickenfoot.server.refusals import Refusal
from chickenfoot.server.replays.frames import ReplayFrames
from chickenfoot.server.replays.reviews import ReviewWorker
from chickenfoot.server.replays.routes import replay_router
from chickenfoot.server.replays.service import Replays, review_job
from chickenfoot.server.seating.routes import seating_router
from chickenfoot.server.seating.service import CreateRequest, Seating, bot_level, summary, table_config
from chickenfoot.server.social import reports as social_reports
from chickenfoot.server.social.challenges import ChallengeStore
from chickenfoot.server.social.challenging import Challenges, ChallengeSettings
from chickenfoot.server.social.hearing import Hearings
from chickenfoot.server.social.reports import Reports, ReportStore
from chickenfoot.server.social.routes import friends_page_router, social_router
from chickenfoot.server.social.service import Social, SocialSettings
from chickenfoot.server.social.store import SocialStore
from chickenfoot.server.storage import Storage, default_database_url
from chickenfoot.server.table.actor import Table
from chickenfoot.server.table.chat import Listener
from chickenfoot.server.table.commands import Recount
from chickenfoot.server.table.config import TableConfig, Timing
from chickenfoot.server.table.hints import Hints
from chickenfoot.server.table.registry import Expiry, TableRegistry, random_seed
from chickenfoot.server.tournaments.organiser import Organiser
from chickenfoot.server.tournaments.ports import Apart, Outcome, Played
from chickenfoot.server.tournaments.routes import tournaments_router
from chickenfoot.server.tournaments.service import Tournaments
from chickenfoot.server.tournaments.store import TournamentStore
from chickenfoot.server.turns.routes import turns_router
from chickenfoot.server.turns.service import Turns
from chickenfoot.server.turns.store import TurnStore
from chickenfoot.view import SeatView

WEB_DIR = Path(__file__).resolve().parent.parent / "web"


@dataclass(frozen=True, slots=True)
class Settings:
    database_url: str | None = None
    """``None``: an SQLite file in the user's data directory."""
    redis_url: str | None = None
    """The Redis shared with the other processes serving the same database (``None``: this process is alone)."""
    timing: Timing = field(default_factory=Timing)
    connection: ConnectionLimits = field(default_factory=ConnectionLimits)
    addresses: AddressLimits = field(default_factory=AddressLimits)
    expiry: Expiry = field(default_factory=Expiry)
    health_seconds: float = 2.0
    """How often the database is probed, so an outage is reported even when nobody moves."""
    web_dir: Path = WEB_DIR
    allowed_origins: tuple[str, ...] = ()
    """Origins besides the server's own whose pages may open a table's WebSocket."""
    allowed_hosts: tuple[str, ...] | None = None
    """The names (``Host``) the server answers for; ``None``: any (an application served in-process)."""
    debug: bool = False
    """Serve the API's documentation at ``/docs``, ``/redoc`` and ``/openapi.json``."""
    review_budget: int = DEFAULT_BUDGET
    """Sampled deals per move of the background reviews of finished matches."""
    clock: Clock = SYSTEM_CLOCK
    """Where the server reads the time and waits for it (tests move a fake one by hand)."""
    accounts: AccountSettings = field(default_factory=AccountSettings)
    """Sessions, cookies and the passkeys' relying party."""
    seeds: Callable[[], int] = random_seed
    """Deals each new table's seed (tests fix it to play a known deal)."""
    quick_play: QuickPlaySettings = field(default_factory=QuickPlaySettings)
    """Quick play's queue: leases, bounds, the rating window's schedule, the ratings it pairs by."""
    bot_limits: TokenLimits = field(default_factory=TokenLimits)
    """What each API token of the Bot API may do (server/http/limits.py)."""
    social: SocialSettings = field(default_factory=SocialSettings)
    """Friends and blocks: the lists' caps, when a friend is online, how often the pages ask."""
    challenges: ChallengeSettings = field(default_factory=ChallengeSettings)
    """How long a challenge waits for its answer, how many may wait."""
    metrics_port: int | None = None
    """The port whose requests are answered ``GET /metrics`` (server/ops/metrics.py); ``None``: no metrics."""
    account_limits: AccountLimits = field(default_factory=AccountLimits)
    """What one account may cause on other people's phones (invitations and challenges sent and received),
    and do to other players (follow, report)."""
    notifications: NotificationSettings = field(default_factory=NotificationSettings)
    """The mail server, the push services, the digest's wait and the outbox's leases."""
    speakers: SpeakerLimits = field(default_factory=SpeakerLimits)
    """What one speaker may say in chat: the same line again, lines with a link (server/moderation)."""
    chat_words: tuple[str, ...] = ()
    """The operator's own words for the chat filter (``chickenfoot serve --chat-words``), beside the lists shipped."""
    report_desk: Callable[[Storage, Clock], ReportDesk] = lambda storage, clock: PlayersReports(
        social_reports.report_desk(storage, clock)
    )
    """Where the players' reports land for the moderation page (server/moderation/reports.py): the
    reports the players file from profiles and chat lines (server/social)."""
    open_caps: OpenCaps = field(default_factory=OpenCaps)
    """The sockets and Bot API streams open at once per table, seat, account, address, token (server/http/caps.py)."""


class PlayersReports:
    """The players' reports (server/social) as the moderation page reads them: its ``ReportDesk``. The
    two features import none of each other, so their report types meet here."""

    def __init__(self, reports: Reports) -> None:
        self.reports = reports

    async def listed(self, handled: bool, before: int | None, limit: int) -> list[moderation_reports.Report]:
        return [read(report) for report in await self.reports.listed(handled, before, limit)]

    async def count_open(self) -> int:
        return await self.reports.count_open()

    async def handle(
        self, report_id: int, operator_id: int, outcome: moderation_reports.Outcome, resolution: str
    ) -> moderation_reports.Report | None:
        handled = await self.reports.handle(report_id, operator_id, social_reports.Outcome(outcome.value), resolution)
        return None if handled is None else read(handled)


def read(report: social_reports.Report) -> moderation_reports.Report:
    """A player's report as the moderation page reads it: the same fields, evidence and all."""
    fields = {field.name: getattr(report, field.name) for field in dataclasses.fields(moderation_reports.Report)}
    evidence = tuple(moderation_reports.Evidence(**dataclasses.asdict(line)) for line in report.evidence)
    return moderation_reports.Report(**fields | {"evidence": evidence})


def cluster_of(settings: Settings) -> Cluster:
    """The services shared with other processes: through Redis when there is one, else this process's own."""
    if settings.redis_url is None:
        return local(settings.addresses.storage, settings.clock)
    storage = settings.addresses.storage
    return shared(settings.redis_url, None if storage == "memory://" else storage, settings.clock)


def registry_of(settings: Settings, storage: Storage, cluster: Cluster) -> TableRegistry:
    """The tables of this process; each follows the other processes serving it, when there are others."""
    alone = cluster.alone
    return TableRegistry(
        storage,
        LocalBus(),
        settings.timing,
        cluster.connections,
        settings.clock,
        expiry=settings.expiry,
        seeds=settings.seeds,
        follow=None if alone else functools.partial(TableSync, cluster=cluster, clock=settings.clock),
        tell_config_changed=None if alone else functools.partial(tell_config_changed, cluster),
    )


@dataclass(slots=True)
class Server:
    """What one server process is made of, built once by :func:`build`."""

    settings: Settings
    storage: Storage
    cluster: Cluster
    hub: TableRegistry
    tables: TableLookup
    limits: RateLimiter
    sends: SendWatch
    holds: OpenHolds
    admission: Admission
    """What a table WebSocket is counted against before its upgrade is accepted, and what refuses it then."""
    hints: Hints
    accounts: Accounts
    ratings: Ratings
    history: MatchHistory
    reviews: ReviewWorker
    frames: ReplayFrames
    listing: Lobby
    handover_links: HandoverStore
    paused_tokens: PausedTokens
    ops: Operations
    seating: Seating
    social: Social
    challenges: Challenges
    reports: Reports
    notifications: Notifications
    moderation: Moderation
    chat_moderation: ChatModeration
    tournaments: Tournaments

    @asynccontextmanager
    async def running(self, _app: FastAPI) -> AsyncIterator[None]:
        """Start what runs in the background, and stop it all in order when the application stops."""
        await self.storage.migrate()
        await self.chat_moderation.words.start()
        self.moderation.mutes.start()
        await self.notifications.start()
        self.cluster.start()
        self.accounts.live.start()
        self.hub.start()
        self.reviews.start()
        self.social.hearings.start()
        self.challenges.start()
        self.tournaments.start()
        watch = asyncio.create_task(self.storage.watch(self.settings.health_seconds))
        self.ops.start()
        yield
        await self.ops.stop()
        watch.cancel()
        await self.tournaments.stop()
        await self.challenges.stop()
        self.social.hearings.stop()
        await self.reviews.stop()
        self.accounts.live.stop()
        await self.ratings.settle()
        await self.notifications.stop()
        self.chat_moderation.words.stop()
        self.moderation.mutes.stop()
        self.frames.close()
        self.hints.close()
        await self.hub.close()
        await self.cluster.close()
        await self.storage.close()


def build(settings: Settings) -> Server:
    """Every store and service of the process, and who hears that a match finished."""
    clock = settings.clock
    database_url = settings.database_url or default_database_url()
    storage = Storage(database_url, clock)
    cluster = cluster_of(settings)
    hub = registry_of(settings, storage, cluster)
    addresses = dataclasses.replace(settings.addresses, storage=cluster.limits_storage)
    limits = RateLimiter(addresses, settings.bot_limits, settings.account_limits, settings.speakers)
    accounts = Accounts(storage, clock, settings.accounts, cluster.bus)
    accounts.tables_read_again_by(hub.config_changed)  # a deleted player's name leaves the tables held
    moderation, chat_moderation = moderation_of(
        settings, storage, cluster, hub, accounts, limits, settings.report_desk(storage, clock)
    )
    notifications = Notifications(
        storage, accounts, limits, cluster.bus, clock, settings.notifications, settings.accounts.origin
    )
    hub.tell_turns_by(notifications)  # "your turn" and chat lines at turn-based tables
    storage.keep_seats_with(accounts.store)  # a seat given away no longer follows its account
    social = social_of(settings, storage, cluster, accounts, limits, notifications)
    notifications.hear_blocks(social.ignores)  # no notice a player causes reaches those who block them
    accounts.store.forget_with(social.store.forget)  # a deleted account's follows, blocks and challenges go
    tables = table_lookup(hub.get)
    seating = Seating(hub, accounts, tables, kept_out=social.kept_out)
    challenges = Challenges(social.challenges, social, seating, notifications, settings.challenges)
    hints, frames = Hints(lambda address: limits.refusal("hint", address)), ReplayFrames()
    reviews = ReviewWorker(storage, lambda code: review_job(hub.get, code), settings.review_budget)
    holds = OpenHolds(settings.open_caps)
    readings = Readings(
        tables=lambda: len(hub.tables),
        queues=lambda: {"hints": hints.searching, "replays": frames.building, "reviews": reviews.queue.qsize()},
        refusals=lambda: (
            limits.refused
            | {("hashing", why): n for why, n in accounts.hasher.dropped.items()}
            | {("open", scope): count for scope, count in holds.refused.items()}
        ),
        storage_up=lambda: storage.available,
        quick_play_waiting=lambda: waiting(storage, clock),
    )
    ratings = Ratings(storage, clock)
    server = Server(
        settings,
        storage,
        cluster,
        hub,
        tables=tables,
        limits=limits,
        sends=SendWatch(clock),
        holds=holds,
        admission=Admission(holds, hub.credentials.kept_seat),
        hints=hints,
        accounts=accounts,
        ratings=ratings,
        history=MatchHistory(HistoryStore(storage), hub.get, clock),
        reviews=reviews,
        frames=frames,
        listing=Lobby(storage, clock),
        handover_links=HandoverStore(storage, clock),
        paused_tokens=PausedTokens(clock.monotonic),
        ops=Operations.of(database_url, settings.redis_url, settings.metrics_port, readings, clock),
        seating=seating,
        social=social,
        challenges=challenges,
        reports=Reports(ReportStore(storage), clock),
        notifications=notifications,
        moderation=moderation,
        chat_moderation=chat_moderation,
        tournaments=tournaments_of(storage, cluster, hub, seating, ratings, social.apart, clock),
    )
    for finished in (
        server.reviews.request,
        server.listing.finished,
        server.history.finished,
        server.ratings.rating(hub.get),
        unrated_match_over(hub, notifications),
        server.tournaments.match_finished,
    ):
        hub.on_match_finished(finished)
    server.ratings.on_rated(rated_match_over(notifications))
    return server


def moderation_of(
    settings: Settings,
    storage: Storage,
    cluster: Cluster,
    hub: TableRegistry,
    accounts: Accounts,
    limits: RateLimiter,
    reports: ReportDesk,
) -> tuple[Moderation, ChatModeration]:
    """The operators' moderation and what every chat line and sign-in is asked. ``reports``: where the players'
    reports land."""
    store = ModerationStore(storage)
    words = ChatWords(store, cluster.bus, settings.chat_words)
    chat = ChatModeration(store, words, limits, settings.clock)
    accounts.admit_with(chat.admit)  # a suspended account signs in nowhere
    accounts.store.forget_with(store.forget)  # a deleted account's restrictions go with it

    async def end_table(code: str) -> TableEnd:
        return TableEnd(await hub.end(code))

    mutes = LiveMutes(store, cluster.bus, settings.clock)
    return Moderation(store, accounts, words, mutes, reports, end_table, settings.clock), chat


def tournaments_of(
    storage: Storage,
    cluster: Cluster,
    hub: TableRegistry,
    seating: Seating,
    ratings: Ratings,
    apart: Apart,
    clock: Clock,
) -> Tournaments:
    """The tournaments: their organiser makes tables through the seating, holds the cluster's organiser
    lease, reads finished matches from the tables this process holds, keeps entrants with a block between
    them at different tables where it can, and tells bot accounts of their tables on their Bot API
    stream; they learn of every finished match through the hook above."""

    async def tell_bot(account_id: int, event: dict[str, object]) -> None:
        await cluster.bus.publish(account_channel(account_id), event)

    organiser = Organiser(
        TournamentStore(storage),
        seating.organise,
        table_outcome(hub, clock, cluster.alone),
        cluster.leases,
        cluster.bus,
        clock,
        hub.seeds,
        tell_bot,
        fenced=not cluster.alone,
        apart=apart,
    )
    return Tournaments(organiser.store, organiser, cluster.bus, clock, ratings.shown_of)


def table_outcome(hub: TableRegistry, clock: Clock, alone: bool) -> Outcome:
    """A table's match for the tournaments, read from the table this process holds (read into memory if
    need be: it stays while asked, so its automatic play goes on while its people are away)."""

    async def outcome(code: str) -> Played | None:
        read_now = code.upper() not in hub.tables
        table = await hub.get(code)
        if table is None:
            return None
        if read_now and alone:
            # Its people are counted gone until they connect; a process alone wins no lease that would
            # count them (as another's does), so it counts now: their seats are covered after the grace.
            table.tell(Recount([]))
        match = table.match
        if not match.is_over():
            return Played(match, (), None)
        at = await hub.storage.last_action_time(code)
        left = tuple(s for s, seat in enumerate(table.config.seats) if seat.left)
        return Played(match, left, at or utc(clock))

    return outcome


def unrated_match_over(hub: TableRegistry, notifications: Notifications) -> Callable[[str], None]:
    """The hook telling a finished unrated match's players (a rated one's are told once it is rated)."""

    def finished(code: str) -> None:
        table = hub.tables.get(code)
        if table is not None and not table.config.rated:
            notifications.spawn(notifications.match_over(code, table.winners()))

    return finished


def rated_match_over(notifications: Notifications) -> Callable[[str, list[Change]], None]:
    """The hook telling a rated match's players that it is over, with their ratings' changes."""

    def rated(code: str, changes: list[Change]) -> None:
        winners = [change.seat for change in changes if change.rank == 1]
        moved = {change.seat: change.after.shown - change.before.shown for change in changes}
        notifications.spawn(notifications.match_over(code, winners, moved))

    return rated


def rematch_offered(
    notifications: Notifications, accounts: Accounts
) -> Callable[[Table, int, list[int]], Awaitable[None]]:
    """The hook telling the accounts at a table that a player accepted a rematch not made yet (none who
    blocks that player's account)."""

    async def offered(table: Table, seat: int, accepted: list[int]) -> None:
        name = table.config.seats[seat].name or ""
        sender = await accounts.store.account_at(table.code, seat)
        await notifications.rematch_offered(table.code, name, accepted, sender)

    return offered


def social_of(
    settings: Settings,
    storage: Storage,
    cluster: Cluster,
    accounts: Accounts,
    limits: RateLimiter,
    notifications: Notifications,
) -> Social:
    """Friends and blocks, telling their players through the notifications, who a friend's seat is
    connected to through the cluster's counts."""
    store = SocialStore(storage)

    async def connected(code: str, seat: int) -> bool:
        return (await cluster.connections.counts(code, seat + 1))[seat] > 0

    hearings = Hearings(store, cluster.bus)
    challenges = ChallengeStore(storage)
    return Social(
        store, challenges, notifications, hearings, accounts, limits, connected, settings.clock, settings.social
    )


def routers(server: Server) -> list[APIRouter]:
    """Every feature's routes, each handed the services it uses."""
    settings, hub, tables, limits, accounts = server.settings, server.hub, server.tables, server.limits, server.accounts
    replays = Replays(tables, server.reviews, server.frames, server.history.deleted_seats)
    holders = SeatHolders(hub.credentials, accounts)
    bots = bot_api(server)
    return [
        seating_router(server.seating, limits, settings.web_dir, holders.seat),
        replay_router(replays, limits, settings.web_dir),
        company_router(
            hub,
            server.listing,
            tables,
            summary,
            holders.of(Code.ERROR_TOKEN_OPENS_NO_SEAT),
            rematch_offered(server.notifications, accounts),
        ),
        readiness_router(hub.credentials, tables, bot_level, summary, holders.of()),
        accounts_router(
            accounts,
            limits,
            hub.credentials.seat_of,
            [server.history.data_of, server.ratings.data_of, server.notifications.data_of, server.social.exported],
        ),
        ratings_router(server.ratings, accounts, tables, limits, settings.web_dir),
        quickplay_router(quick_play(server), accounts, limits),
        profiles_router(server.history, accounts, limits, settings.web_dir),
        handover_router(Handovers(server.handover_links, accounts, hub.get), accounts, holders.of(), tables, limits),
        account_pages_router(settings.web_dir, accounts),
        notifications_router(server.notifications, accounts, settings.clock, settings.web_dir),
        turns_router(Turns(TurnStore(server.storage), hub.get, settings.clock), accounts),
        bot_api_router(
            bots,
            accounts,
            tables,
            functools.partial(table_lines, hub, settings.connection, server.sends),
            bot_chat(server),
            server.holds,
        ),
        tournaments_router(
            server.tournaments, accounts, limits, settings.clock, settings.web_dir, bot_account(caller_of(bots))
        ),
        moderation_router(server.moderation, accounts, settings.web_dir),
        table_socket(server),
        pages_router(settings.web_dir),
        social_router(server.social, server.challenges, server.reports, accounts, limits),
        friends_page_router(settings.web_dir),
        i18n_routes.router,
    ]


def bot_account(caller: Callable[..., Awaitable[Bearer]]) -> Callable[[Request], Awaitable[int]]:
    """The bot account of a Bot API request entering an event (counted as a move of its token)."""

    async def account(request: Request) -> int:
        return (await caller(request, "bot_move")).account_id

    return account


def quick_play(server: Server) -> QuickPlay:
    """Quick play, its queue pairing by the players' ratings (unless a test chose others)."""
    settings = server.settings.quick_play
    if isinstance(settings.ratings, EqualRatings):
        settings = dataclasses.replace(settings, ratings=server.ratings.shown_of, bots=LevelRatings())
    hub, storage, clock = server.hub, server.storage, server.settings.clock
    abandoned = bots_cover(hub, settings.bots)
    queue = Queue(
        storage,
        clock,
        settings,
        hub.seeds,
        abandoned=abandoned,
        apart=server.social.apart,
        sweep_unplayed_after=hub.sweep_unplayed_after,
    )
    return QuickPlay(queue, hub, server.accounts, settings)


def bot_api(server: Server) -> BotApi:
    """The Bot API, its new tables configured as ``POST /api/tables`` configures them."""
    hub = server.hub

    def configure(body: dict[str, object]) -> TableConfig:
        return table_config(CreateRequest.model_validate(body), hub.seeds())

    service = BotApi(
        hub,
        server.accounts,
        server.limits,
        server.paused_tokens,
        configure,
        server.tables,
        server.settings.clock,
        server.notifications,
        server.cluster.bus,
        ignores=server.social.ignores,
        listening=server.social.listener,
    )
    hub.on_match_finished(service.match_finished)
    return service


def bot_chat(server: Server) -> Callable[[int, str | None], Awaitable[Refusal | None]]:
    """What judges a bot account's chat line beyond its token's count: the moderation's gate."""

    async def judge(account_id: int, text: str | None) -> Refusal | None:
        return await server.chat_moderation.judge(Speaker(account_id, ""), text)

    return judge


def table_socket(server: Server) -> APIRouter:
    """A table's WebSocket (docs/protocol.md): its per-address limits, origin check and the services a
    connection asks (chat counted per address and judged by the moderation, hints, the signed-in account's
    seat, handovers, the account's mute in chat)."""
    router = APIRouter()
    settings, limits, accounts = server.settings, server.limits, server.accounts

    @router.websocket(SOCKET_PATH + "{code}")
    async def play(websocket: WebSocket, code: str) -> None:
        # Refused before the upgrade is accepted (an HTTP answer, docs/protocol.md): a cap reached in this
        # process's counts, then the address's rate of new connections.
        address = client_address(websocket)
        try:
            hold = server.admission.admit(code, address, websocket.query_params, websocket.cookies)
        except Refusal as refused:
            await websocket.send_denial_response(answers.refusal_answer(refused))
            return
        try:
            await limits.check("connection", address)
        except Refusal as refused:
            hold.release()
            await websocket.send_denial_response(answers.refusal_answer(refused))
            return
        try:
            await websocket.accept()
            if origin_allowed(websocket.scope, settings.allowed_origins):
                await served(websocket, code, address, hold)
            else:
                origin = quoted(websocket.headers.get("origin", "")[:100])
                await refuse(websocket, CLOSE_BAD_TOKEN, Said.of(Code.ERROR_FOREIGN_ORIGIN, origin=origin))
        finally:
            hold.release()

    async def served(websocket: WebSocket, code: str, address: str, hold: Hold) -> None:
        """The accepted socket served at its table, the services it asks for bound to its client."""

        speakers: dict[int | None, int | None] = {}

        async def chat_gate(seat: int | None, text: str | None) -> Refusal | None:
            """A line counted against the address, then judged by the moderation as its speaker's."""
            if (refusal := await limits.refusal("chat", address)) is not None:
                return Refusal.too_many(*refusal)
            if seat not in speakers:
                speakers[seat] = await speaker_of(seat)
            return await server.chat_moderation.judge(Speaker(speakers[seat], address), text)

        async def speaker_of(seat: int | None) -> int | None:
            """The account behind the connection: its seat's, else the one it is signed in as (a spectator's)."""
            account = None if seat is None else await accounts.store.account_at(code.upper(), seat)
            if account is None and (signed_in := await accounts.signed_in(websocket)) is not None:
                account = signed_in.account.id
            return account

        async def hint(view: SeatView) -> tuple[Move, Said]:
            return await server.hints.suggest(view, address)

        async def own_seat() -> tuple[int, SessionWatch, str] | None:
            """No seat credential: the seat of the signed-in account, if any, ended with its session."""
            found = await accounts.seat_and_session(websocket, code)
            if found is None:
                return None
            seat, signed_in = found
            return seat, functools.partial(accounts.live.watch, signed_in.session.digest), str(signed_in.account.id)

        async def watching_reason() -> str:
            return await accounts.watching_reason(websocket, code)

        async def listening(seat: int | None) -> Listener:
            """The account behind the connection: its seat's, else the one it is signed in as (a spectator's)."""
            account = None if seat is None else await accounts.store.account_at(code.upper(), seat)
            if account is None and (signed_in := await accounts.signed_in(websocket)) is not None:
                account = signed_in.account.id
            return await server.social.listener(account)

        served = await serve_connection(
            websocket,
            code,
            server.hub,
            settings.connection,
            chat_gate,
            hint,
            server.sends,
            hold,
            address,
            own_seat,
            server.handover_links.moved,
            watching_reason,
            listening,
            server.moderation.mutes.watch,
        )
        if served in (CLOSE_FLOODING, CLOSE_NOT_READING):
            await limits.cut_off(address)

    return router


def create_app(settings: Settings | None = None) -> FastAPI:
    """The application: every feature's routes, behind the security middlewares, answering every error
    as a message (server/http/answers.py), and the pages' static files."""
    settings = settings or Settings()
    server = build(settings)
    docs = settings.debug
    app = FastAPI(
        title="Chicken Foot",
        lifespan=server.running,
        docs_url="/docs" if docs else None,
        redoc_url="/redoc" if docs else None,
        openapi_url="/openapi.json" if docs else None,
    )
    if settings.allowed_hosts is not None:
        app.add_middleware(HostCheck, allowed=settings.allowed_hosts)
    app.add_middleware(FloodGate, paused=server.paused_tokens)  # inside the security headers: its refusals get them
    app.add_middleware(CheapBudget, rate=settings.addresses.cheap, clock=settings.clock, refused=server.limits.refused)
    app.add_middleware(SecurityHeaders, without_csp=("/docs", "/redoc") if docs else ())
    server.ops.install(app)
    app.state.hub, app.state.storage = server.hub, server.storage
    app.state.upgrades = server.admission.refusal  # for the HTTP protocol below the application (run.py)
    app.state.notifications = server.notifications
    app.state.tournaments = server.tournaments
    app.state.readiness = server.ops.readiness
    answers.install(app, challenges={BOT_API: "Bearer"})
    for router in routers(server):
        app.include_router(router)
    if settings.web_dir.is_dir():
        app.mount("/", StaticFiles(directory=settings.web_dir, html=True), name="web")
    return app
