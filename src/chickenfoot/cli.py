"""The ``chickenfoot`` command: the rules tools (docs/rules.md §9) and the entry points of the games."""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from chickenfoot import __version__
from chickenfoot.errors import ChickenfootError
from chickenfoot.extras import MissingExtra, require
from chickenfoot.move import Move
from chickenfoot.perft import divide, perft
from chickenfoot.position import read_position, write_position
from chickenfoot.reading import read_text
from chickenfoot.review import DEFAULT_BUDGET
from chickenfoot.round import Round
from chickenfoot.rules import MAX_PLAYERS

app = typer.Typer(
    name="chickenfoot",
    help="Chicken Foot dominoes: rules tools, games and bots.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def compiled_core() -> bool:
    """Whether the bots search on the compiled core (the one place the command asks)."""
    from chickenfoot import core

    return core.COMPILED


def core_name() -> str:
    return "compiled core" if compiled_core() else "pure-Python core"


@functools.cache
def note_pure_core() -> None:
    """Say once per process, before a command where bots search, that they search on the slow
    pure-Python core (a build without a C compiler warns only under ``pip -v``)."""
    if not compiled_core():
        print(
            "chickenfoot: note: bots search on the pure-Python core, tens of times slower than the compiled "
            "one, which was not built (no C compiler at install) or is off (CHICKENFOOT_PURE=1)",
            file=sys.stderr,
        )


def show_version(value: bool) -> None:
    if value:
        print(f"chickenfoot {__version__} ({core_name()})")
        raise typer.Exit()


@app.callback()
def options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=show_version, is_eager=True, help="Print the version and the engine core in use."
        ),
    ] = False,
) -> None:
    """Chicken Foot dominoes: rules tools, games and bots."""


FileArg = Annotated[
    str, typer.Argument(metavar="FILE", help="Position file (docs/rules.md §8), or - for standard input.")
]


def fail(message: str) -> NoReturn:
    """Report a user error on one line of stderr and exit non-zero."""
    print(f"chickenfoot: error: {message}", file=sys.stderr)
    raise typer.Exit(1)


def need(extra: str, user: str, modules: tuple[str, ...] | None = None) -> None:
    """Stop with one line naming ``extra`` when a module it brings (``modules``, default all) is missing."""
    try:
        require(extra, user, modules)
    except MissingExtra as exc:
        fail(str(exc))


def load(file: str) -> Round:
    try:
        text = read_text(file)
    except ChickenfootError as exc:
        fail(str(exc))
    try:
        return read_position(text)
    except ChickenfootError as exc:
        fail(f"{'standard input' if file == '-' else file}: {exc}")


@app.command()
def moves(file: FileArg) -> None:
    """Print the legal moves of a position, one per line (none when the round is over)."""
    for move in load(file).legal_moves():
        print(move)


@app.command()
def apply(
    file: FileArg,
    moves: Annotated[list[str], typer.Argument(metavar="MOVE...", help="Moves in the notation of docs/rules.md §7.")],
) -> None:
    """Apply moves in order and print the resulting position file."""
    round_ = load(file)
    for text in moves:
        try:
            move = Move.parse(text)
        except ChickenfootError as exc:
            fail(str(exc))
        if round_.is_over():
            fail(f"illegal move {text}: the round is over")
        if not round_.is_legal(move):
            fail(f"illegal move {text}: {round_.why_illegal(move)}")
        round_.push(move)
    sys.stdout.write(write_position(round_))


@app.command(name="perft")
def perft_command(
    file: FileArg,
    depth: Annotated[int, typer.Argument(min=0, help="Number of moves in each sequence.")],
    show_divide: Annotated[bool, typer.Option("--divide", help="One line MOVE: COUNT per first move.")] = False,
) -> None:
    """Count the move sequences of exactly DEPTH moves from a position."""
    round_ = load(file)
    if show_divide and depth >= 1:
        split = divide(round_, depth)
        for move, count in split:
            print(f"{move}: {count}")
        print(sum(count for _, count in split))
    else:
        print(perft(round_, depth))


@app.command()
def play(
    plain: Annotated[bool, typer.Option("--plain", help="Line mode: moves on stdin, the position as text.")] = False,
    seed: Annotated[int | None, typer.Option(help="Seed for a reproducible deal.")] = None,
    players: Annotated[int, typer.Option(min=2, max=MAX_PLAYERS, help="Number of seats.")] = 4,
    rules: Annotated[str, typer.Option(help="Rules preset (classic, six-arms, double-12, ...).")] = "classic",
    rounds: Annotated[int | None, typer.Option(min=1, help="Rounds in the match (default: all).")] = None,
    seats: Annotated[str, typer.Option(help="Seat kinds: human or easy/medium/hard/expert, comma-separated.")] = (
        "human"
    ),
    load: Annotated[str | None, typer.Option(help="Resume the match saved in this file.")] = None,
    lang: Annotated[
        str | None, typer.Option(help="Language: en, lt, lv or fy (default: from LANGUAGE, LC_MESSAGES, LANG).")
    ] = None,
) -> None:
    """Play a match in the terminal against bots or friends (hot-seat), or in plain line mode."""
    if not plain:
        need("tui", "chickenfoot play (without --plain)")
    note_pure_core()
    from chickenfoot.tui.launch import launch

    try:
        code = launch(
            plain=plain, seed=seed, players=players, preset=rules, rounds=rounds, seats=seats, load=load, lang=lang
        )
    except (ChickenfootError, ValueError) as exc:
        fail(str(exc))
    if code:
        raise typer.Exit(code)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    database_url: Annotated[
        str | None, typer.Option(help="SQLAlchemy async URL (default: SQLite in the user's data directory).")
    ] = None,
    redis_url: Annotated[
        str | None,
        typer.Option(
            help="Redis shared by several processes serving one PostgreSQL database (redis://host:6379/0); "
            "without it this process serves alone."
        ),
    ] = None,
    pace: Annotated[float, typer.Option(min=0, help="Scale of the bots' and forced moves' pauses (0: none).")] = 1.0,
    allowed_origin: Annotated[
        list[str] | None,
        typer.Option(help="An origin (https://host[:port]) besides the server's own whose pages may open tables."),
    ] = None,
    allowed_host: Annotated[
        list[str] | None,
        typer.Option(
            help="A host name the server answers for (others get 400); default: the --host address and localhost."
        ),
    ] = None,
    forwarded_allow_ips: Annotated[
        list[str] | None,
        typer.Option(
            help="A proxy (address or network, or several separated by commas) whose X-Forwarded-For and "
            "X-Forwarded-Proto are believed; default: none."
        ),
    ] = None,
    debug: Annotated[bool, typer.Option(help="Serve the API documentation at /docs and /openapi.json.")] = False,
    access_log: Annotated[bool, typer.Option(help="Log every request (credentials redacted).")] = False,
    log_level: Annotated[
        str,
        typer.Option(
            help="The least severe log lines written: debug, info (each table read, released, its lease won "
            "and lost, its players' grace periods), warning or error."
        ),
    ] = "warning",
    log_format: Annotated[
        str, typer.Option(help="Log lines as text, or json: one JSON object a line, with the table and request id.")
    ] = "text",
    metrics_port: Annotated[
        int | None,
        typer.Option(help="Serve Prometheus metrics at /metrics on this port (not the players' one); default: none."),
    ] = None,
    metrics_host: Annotated[
        str, typer.Option(help="Address the metrics port listens on (0.0.0.0 for a scraper on another machine).")
    ] = "127.0.0.1",
    review_budget: Annotated[
        int, typer.Option(min=1, help="Sampled deals per move of the reviews of finished matches.")
    ] = DEFAULT_BUDGET,
    connection_limit: Annotated[
        str, typer.Option(help="New WebSocket connections per client address, e.g. 60/minute.")
    ] = "60/minute",
    table_limit: Annotated[str, typer.Option(help="New tables per client address, e.g. 20/minute.")] = "20/minute",
    chat_limit: Annotated[
        str, typer.Option(help="Chat lines per client address over all its tables, e.g. 30/minute.")
    ] = "30/minute",
    replay_limit: Annotated[
        str, typer.Option(help="Replays that must be built, per client address, e.g. 30/minute.")
    ] = "30/minute",
    hint_limit: Annotated[
        str, typer.Option(help="Hints that must be searched, per client address, e.g. 30/minute.")
    ] = "30/minute",
    quick_play_limit: Annotated[
        str, typer.Option(help="Joins of the quick play queue per client address, e.g. 20/minute.")
    ] = "20/minute",
    quick_play_per_address: Annotated[
        int, typer.Option(min=1, help="Players one client address may have waiting in the quick play queue at once.")
    ] = 8,
    sign_up_limit: Annotated[
        str, typer.Option(help="New accounts from every address together, e.g. 60/minute.")
    ] = "60/minute",
    cheap_limit: Annotated[
        str,
        typer.Option(
            help="Cheap requests that read the store (profiles, ratings, the lobby, presets) from every address "
            "together, in each process, e.g. 150/second; past it they are answered 503 at once."
        ),
    ] = "150/second",
    head_timeout: Annotated[
        float,
        typer.Option(min=0.1, help="Seconds a request's head may take to arrive whole; then the connection closes."),
    ] = 10.0,
    open_connections: Annotated[
        int,
        typer.Option(
            min=1, help="HTTP connections one client address may hold open at once (a trusted proxy's are not counted)."
        ),
    ] = 64,
    open_sockets: Annotated[
        int,
        typer.Option(min=1, help="Table WebSockets this process holds open or opening at once; past it, 503."),
    ] = 10_000,
    opening_sockets: Annotated[
        int,
        typer.Option(
            min=1, help="Table WebSocket handshakes in progress at once in this process; past it, 503 at once."
        ),
    ] = 64,
    cutoff_pause: Annotated[
        str,
        typer.Option(
            help="Cut-offs for abuse an address may have before it waits out the window, e.g. 1/minute, or off."
        ),
    ] = "1/minute",
    limits_storage: Annotated[
        str,
        typer.Option(
            help="Where the per-address counters live: memory:// or redis://host:6379 (with --redis-url: its Redis)."
        ),
    ] = "memory://",
    unplayed_ttl: Annotated[
        float, typer.Option(min=1, help="Seconds before a table without a single move is deleted.")
    ] = 86_400.0,
    sweep_seconds: Annotated[
        float, typer.Option(min=0.1, help="Seconds between two sweeps of unplayed tables.")
    ] = 60.0,
    idle_seconds: Annotated[
        float,
        typer.Option(min=0.1, help="Seconds a table nobody is connected to here stays in memory after its last use."),
    ] = 10.0,
    gc_log: Annotated[
        Path | None, typer.Option(help="Append each garbage collection's pause to this file (for tuning).")
    ] = None,
    public_origin: Annotated[
        str | None,
        typer.Option(
            help="The site's public origin (https://host), the passkeys' relying party (default: each request's)."
        ),
    ] = None,
    secure_cookies: Annotated[
        bool, typer.Option(help="Mark session cookies Secure even over plain HTTP (TLS ends at a proxy).")
    ] = False,
    smtp_url: Annotated[
        str | None,
        typer.Option(
            help="The mail server for e-mail notifications: smtp://[user:password@]host[:port] (STARTTLS when "
            "offered) or smtps://… (TLS); needs --public-origin. Default: no e-mail."
        ),
    ] = None,
    smtp_from: Annotated[
        str | None, typer.Option(help="The From of the e-mails (default: Chicken Foot <noreply@ the site's host>).")
    ] = None,
    push_service: Annotated[
        list[str] | None,
        typer.Option(
            help="A push service (origin, https://*.domain for a domain's) devices may subscribe at, besides "
            "the browsers' own."
        ),
    ] = None,
    vapid_subject: Annotated[
        str | None,
        typer.Option(
            help="Who push services may contact about this server: mailto:… or https://… (default: the From)."
        ),
    ] = None,
    digest_minutes: Annotated[
        float, typer.Option(min=0, help="Minutes an e-mail digest gathers notifications before it is sent.")
    ] = 30.0,
    outbox_lease: Annotated[
        float,
        typer.Option(min=1, help="Seconds a process holds a notification it is sending; then another may send it."),
    ] = 120.0,
    outbox_poll: Annotated[
        float, typer.Option(min=0.1, help="Seconds between two looks at the outbox for what came due.")
    ] = 15.0,
    chat_words: Annotated[
        Path | None,
        typer.Option(
            help="A file of more words for the chat filter, one a line (stem* takes in the forms of a word), "
            "beside the lists shipped."
        ),
    ] = None,
) -> None:
    """Serve the browser game (lobby, tables, bots) and print its address."""
    need("web", "chickenfoot serve")
    note_pure_core()
    from chickenfoot.server.accounts.service import AccountSettings
    from chickenfoot.server.accounts.sessions import SessionPolicy
    from chickenfoot.server.http.caps import OpenCaps
    from chickenfoot.server.http.connections import ConnectionCaps
    from chickenfoot.server.http.limits import AddressLimits
    from chickenfoot.server.moderation.words import from_file
    from chickenfoot.server.notifications.mail import parse_smtp_url
    from chickenfoot.server.notifications.outbox import OutboxSettings
    from chickenfoot.server.notifications.push import PUSH_SERVICES
    from chickenfoot.server.notifications.service import NotificationSettings
    from chickenfoot.server.quickplay import QuickPlaySettings
    from chickenfoot.server.run import run
    from chickenfoot.server.table.registry import Expiry

    addresses = AddressLimits(
        connection_limit,
        table_limit,
        limits_storage,
        None if cutoff_pause == "off" else cutoff_pause,
        chat=chat_limit,
        replays=replay_limit,
        hints=hint_limit,
        quick_plays=quick_play_limit,
        sign_ups=sign_up_limit,
        cheap=cheap_limit,
    )
    try:
        notifications = NotificationSettings(
            smtp=None if smtp_url is None else parse_smtp_url(smtp_url),
            sender=smtp_from,
            push_services=(*PUSH_SERVICES, *(push_service or ())),
            vapid_subject=vapid_subject,
            digest_seconds=digest_minutes * 60,
            outbox=OutboxSettings(lease_seconds=outbox_lease, poll_seconds=outbox_poll),
        )
        run(
            host,
            port,
            database_url,
            pace,
            redis_url=redis_url,
            allowed_origins=allowed_origin or (),
            allowed_hosts=allowed_host or (),
            forwarded_allow_ips=[
                ip.strip() for ips in forwarded_allow_ips or () for ip in ips.split(",") if ip.strip()
            ],
            debug=debug,
            access_log=access_log,
            log_level=log_level,
            log_format=log_format,
            metrics_port=metrics_port,
            metrics_host=metrics_host,
            review_budget=review_budget,
            addresses=addresses,
            connections=ConnectionCaps(head_timeout, open_connections),
            open_caps=OpenCaps(sockets=open_sockets, opening=opening_sockets),
            expiry=Expiry(idle_seconds=idle_seconds, unjoined_seconds=unplayed_ttl, sweep_seconds=sweep_seconds),
            gc_log=gc_log,
            accounts=AccountSettings(public_origin, SessionPolicy(secure_cookies=secure_cookies)),
            quick_play=QuickPlaySettings(per_address=quick_play_per_address),
            notifications=notifications,
            chat_words=() if chat_words is None else from_file(chat_words),
        )
    except ValueError as exc:
        fail(str(exc))


account_app = typer.Typer(help="Operators' tools for players' accounts.", no_args_is_help=True)
app.add_typer(account_app, name="account")


@account_app.command("reset")
def account_reset(
    name: Annotated[str, typer.Argument(help="The account's username.")],
    database_url: Annotated[
        str | None, typer.Option(help="SQLAlchemy async URL (default: SQLite in the user's data directory).")
    ] = None,
    origin: Annotated[str, typer.Option(help="The site's public origin, to print the link with.")] = (
        "http://localhost:8000"
    ),
) -> None:
    """Remove an account's password, passkeys and sessions, and print a one-time sign-in link (valid 24 h).

    For a player who lost every way in and has no confirmed e-mail address (with one, they ask for a
    sign-in link themselves on the sign-in page): hand them the link; signed in, they add a passkey or a
    password.
    """
    need("web", "chickenfoot account reset")
    import asyncio

    from chickenfoot.server.accounts.service import reset_account
    from chickenfoot.server.clock import SystemClock

    link = asyncio.run(reset_account(database_url, name, SystemClock()))
    if link is None:
        fail(f"no account named {name!r}")
    print(f"{origin.rstrip('/')}/account#link={link}")


@account_app.command("op")
def account_op(
    name: Annotated[str, typer.Argument(help="The account's username.")],
    revoke: Annotated[bool, typer.Option("--revoke", help="Take the role away instead.")] = False,
    database_url: Annotated[
        str | None, typer.Option(help="SQLAlchemy async URL (default: SQLite in the user's data directory).")
    ] = None,
) -> None:
    """Make an account an operator: it reaches the moderation page (/admin). With --revoke, no longer.

    Granted and revoked here only, never on a page; each is written into the moderation's audit log.
    """
    need("web", "chickenfoot account op")
    import asyncio

    from chickenfoot.server.clock import SystemClock
    from chickenfoot.server.moderation.admin import set_operator

    account = asyncio.run(set_operator(database_url, name, not revoke, clock=SystemClock()))
    if account is None:
        fail(f"no account named {name!r}")
    print(f"{account.username} is {'no longer ' if revoke else ''}an operator")


storage_app = typer.Typer(help="Operators' tools for the game store.", no_args_is_help=True)
app.add_typer(storage_app, name="storage")


@storage_app.command("prune")
def storage_prune(
    finished_before: Annotated[
        float, typer.Option(min=1, help="Archive matches whose last move is older than this many days.")
    ],
    database_url: Annotated[
        str | None, typer.Option(help="SQLAlchemy async URL (default: SQLite in the user's data directory).")
    ] = None,
) -> None:
    """Keep each long-finished match's moves as one row instead of one row a move.

    Their replays, records and reviews stay as they were; unfinished matches are not touched. Safe
    to run while servers are serving the same database.
    """
    need("web", "chickenfoot storage prune")
    import asyncio

    from chickenfoot.server.clock import SystemClock
    from chickenfoot.server.retention import prune

    archived = asyncio.run(prune(database_url, finished_before, SystemClock()))
    print(f"archived the moves of {len(archived)} finished matches")


@storage_app.command("backup")
def storage_backup(
    path: Annotated[Path, typer.Argument(help="The backup file to write (a new file).")],
    database_url: Annotated[
        str | None, typer.Option(help="SQLAlchemy async URL (default: SQLite in the user's data directory).")
    ] = None,
) -> None:
    """Copy an SQLite game store to PATH while servers play on (SQLite's online backup: one consistent instant).

    PostgreSQL is backed up with pg_dump (docs/operators/backups.md).
    """
    need("web", "chickenfoot storage backup")
    from chickenfoot.server.ops.backup import backup
    from chickenfoot.server.storage import default_database_url

    try:
        copied = backup(database_url or default_database_url(), path)
    except ValueError as exc:
        fail(str(exc))
    print(f"backed up {copied} to {path}")


@storage_app.command("restore")
def storage_restore(
    path: Annotated[Path, typer.Argument(help="A backup written by chickenfoot storage backup.")],
    database_url: Annotated[
        str | None,
        typer.Option(help="SQLAlchemy async URL of the new games file (default: SQLite in the user's data directory)."),
    ] = None,
    replace: Annotated[
        bool, typer.Option(help="Overwrite a games file that holds games (stop every server using it first).")
    ] = False,
) -> None:
    """Copy a backup into a games file for servers to start on (they migrate it if it is older).

    PostgreSQL is restored with pg_restore (docs/operators/backups.md).
    """
    need("web", "chickenfoot storage restore")
    from chickenfoot.server.ops.backup import restore
    from chickenfoot.server.storage import default_database_url

    try:
        copied = restore(path, database_url or default_database_url(), replace=replace)
    except ValueError as exc:
        fail(str(exc))
    print(f"restored {copied} into {copied.path}")


tournament_app = typer.Typer(help="Operators' tools for public tournaments.", no_args_is_help=True)
app.add_typer(tournament_app, name="tournament")


@tournament_app.command("create")
def tournament_create(
    name: Annotated[str, typer.Argument(help="The event's name, as the tournaments page lists it.")],
    starts_at: Annotated[
        str, typer.Option(help="When it starts, with its time zone: 2026-12-12T19:00+00:00 (in the next 60 days).")
    ],
    event_format: Annotated[str, typer.Option("--format", help="arena, swiss or round_robin.")],
    repeat: Annotated[str | None, typer.Option(help="daily or weekly: the next one is made when this one starts.")] = (
        None
    ),
    minutes: Annotated[float | None, typer.Option(help="An arena's length.")] = None,
    rounds: Annotated[int | None, typer.Option(help="Rounds of a Swiss or a round-robin.")] = None,
    table_size: Annotated[int, typer.Option(help="Players at each table: 2, 3 or 4.")] = 4,
    match_rounds: Annotated[int | None, typer.Option(help="Rounds of each match (default: the rules' own).")] = None,
    duplicate: Annotated[
        str | None, typer.Option(help="A Swiss or round-robin dealing duplicate: matchpoints or difference.")
    ] = None,
    rated: Annotated[bool, typer.Option(help="Its tables count for the ratings.")] = False,
    bot_accounts: Annotated[bool, typer.Option(help="Bot accounts may enter, through the Bot API.")] = False,
    database_url: Annotated[
        str | None, typer.Option(help="SQLAlchemy async URL (default: SQLite in the user's data directory).")
    ] = None,
) -> None:
    """Make a public tournament: listed for everyone on /tournaments, joined by anyone signed in before it
    starts, started by the server at its time (docs/operators/tournaments.md)."""
    need("web", "chickenfoot tournament create")
    import asyncio
    from datetime import datetime

    from chickenfoot.server.clock import SystemClock
    from chickenfoot.server.refusals import Refusal
    from chickenfoot.server.tournaments.admin import create_public

    try:
        start = datetime.fromisoformat(starts_at)
    except ValueError:
        fail(f"--starts-at {starts_at!r} is no date and time (write 2026-12-12T19:00+00:00)")
    if start.tzinfo is None:
        fail(f"--starts-at {starts_at!r} needs its time zone (write 2026-12-12T19:00+00:00)")
    wanted = {
        "format": event_format,
        "minutes": minutes,
        "rounds": rounds,
        "table_size": table_size,
        "match_rounds": match_rounds,
        "duplicate": duplicate,
        "rated": rated,
        "bot_accounts": bot_accounts,
    }
    try:
        event = asyncio.run(create_public(database_url, name, wanted, start, repeat, clock=SystemClock()))
    except Refusal as exc:
        fail(str(exc))
    print(f"made {event.code}: /tournaments/{event.code}, starting {start.isoformat()}")


@tournament_app.command("cancel")
def tournament_cancel(
    code: Annotated[str, typer.Argument(help="The event's code (its address: /tournaments/CODE).")],
    database_url: Annotated[
        str | None, typer.Option(help="SQLAlchemy async URL (default: SQLite in the user's data directory).")
    ] = None,
) -> None:
    """Call off a tournament not over. A repeating one not started yet ends its series with it; one running
    has made its next already (cancel that one too)."""
    need("web", "chickenfoot tournament cancel")
    import asyncio

    from chickenfoot.server.clock import SystemClock
    from chickenfoot.server.refusals import Refusal
    from chickenfoot.server.tournaments.admin import cancel_event

    try:
        event = asyncio.run(cancel_event(database_url, code, clock=SystemClock()))
    except Refusal as exc:
        fail(str(exc))
    print(f"cancelled {event.code} ({event.name})")


@account_app.command("bot")
def account_bot(
    name: Annotated[str, typer.Argument(help="The account's username.")],
    token: Annotated[
        bool, typer.Option("--token", help="Also mint an API token with every scope, and print it (shown once).")
    ] = False,
    database_url: Annotated[
        str | None, typer.Option(help="SQLAlchemy async URL (default: SQLite in the user's data directory).")
    ] = None,
) -> None:
    """Mark an account as a bot account: it plays through the Bot API only (docs/research/bot-api.md).

    An account that has sat at a table as a person cannot become a bot account: its matches were a person's.
    """
    need("web", "chickenfoot account bot")
    import asyncio

    from chickenfoot.server.botapi.admin import make_bot_account
    from chickenfoot.server.clock import SystemClock

    try:
        outcome = asyncio.run(make_bot_account(database_url, name, token, clock=SystemClock()))
    except ValueError as exc:
        fail(str(exc))
    if outcome is None:
        fail(f"no account named {name!r}")
    if outcome is False:
        fail(f"{name!r} has played as a person: create a new account for the bot")
    print(outcome if token else f"{name} is a bot account")


@app.command()
def arena(
    bots: Annotated[str, typer.Option(help="Line-up, comma-separated: bot kinds, levels, or cheater.")] = (
        "expert,greedy,greedy,greedy"
    ),
    preset: Annotated[str, typer.Option(help="Rules preset (classic, six-arms, double-12, ...).")] = "classic",
    rule: Annotated[
        list[str] | None, typer.Option(help="Rule override KEY=VALUE (repeatable), e.g. hub_arms=6.")
    ] = None,
    rounds: Annotated[int | None, typer.Option(min=1, help="Rounds per match (default: full matches).")] = None,
    matches: Annotated[int, typer.Option(min=1, help="Deals; each is replayed once per seat rotation.")] = 10,
    workers: Annotated[int, typer.Option(min=1, help="Worker processes.")] = 1,
    seed: Annotated[int, typer.Option(help="Seed of the deals and the bots.")] = 0,
    iterations: Annotated[
        int | None, typer.Option(min=1, help="Search iterations per move (replaces time budgets).")
    ] = None,
    out: Annotated[Path | None, typer.Option(help="Directory for results.json and results.png.")] = None,
    ray: Annotated[str | None, typer.Option("--ray", help="Ray cluster address ('local' starts one).")] = None,
) -> None:
    """Bots play duplicate deals, seats rotated; prints win shares, points and ratings with CIs."""
    need("arena", "chickenfoot arena")
    if ray is not None:
        need("ray", "chickenfoot arena --ray")
    note_pure_core()
    from chickenfoot.arena.cli import arena_command

    try:
        arena_command(bots, preset, rule or [], rounds, matches, workers, seed, iterations, out, ray)
    except (ChickenfootError, ValueError) as exc:
        fail(str(exc))


@app.command()
def review(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A match record (downloaded or saved).")],
    budget: Annotated[int, typer.Option(min=1, help="Sampled deals per evaluated move.")] = DEFAULT_BUDGET,
    seed: Annotated[int, typer.Option(help="Seed of the sampling (same record, budget, seed: same review).")] = 0,
    seats: Annotated[
        str | None, typer.Option(help="Seats to mark, comma-separated (default: the humans of a saved game, else all).")
    ] = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print the review as JSON.")] = False,
    chart: Annotated[Path | None, typer.Option(help="Write a chart per round here (PNG, SVG or PDF).")] = None,
    lang: Annotated[
        str | None, typer.Option(help="Language: en, lt, lv or fy (default: from LANGUAGE, LC_MESSAGES, LANG).")
    ] = None,
) -> None:
    """Review every move from its player's own view: expected points lost, marks, accuracy."""
    need("review", "chickenfoot review", ("rich",))
    if chart is not None:
        need("review", "chickenfoot review --chart", ("matplotlib",))
    note_pure_core()
    from chickenfoot.review_cli import review_command

    try:
        review_command(file, budget, seed, seats, json_output, chart, lang)
    except (ChickenfootError, ValueError) as exc:
        fail(str(exc))


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A match record (downloaded or saved).")],
    lang: Annotated[
        str | None, typer.Option(help="Language: en, lt, lv or fy (default: from LANGUAGE, LC_MESSAGES, LANG).")
    ] = None,
) -> None:
    """Step through a finished match in the terminal, every hand face up."""
    need("tui", "chickenfoot replay")
    from chickenfoot.tui.replay import replay_command

    try:
        replay_command(file, lang)
    except (ChickenfootError, ValueError) as exc:
        fail(str(exc))


def main() -> None:
    """Run the command; a usage error (a bad option or argument) is reported on one line too."""
    try:
        code = app(standalone_mode=False)
    except typer.Abort:
        code = 130
    except Exception as exc:
        # Typer raises Click's usage errors (vendored by recent Typer, so matched by their shape).
        format_message = getattr(exc, "format_message", None)
        if format_message is None:
            raise
        context = getattr(exc, "ctx", None)
        if type(exc).__name__ == "NoArgsIsHelpError" and context is not None:
            print(context.get_help())
            code = 0
        else:
            command = f" {context.info_name}" if context is not None and context.parent is not None else ""
            print(f"chickenfoot: error: {format_message()} (see 'chickenfoot{command} --help')", file=sys.stderr)
            code = getattr(exc, "exit_code", 2)
    sys.exit(code if isinstance(code, int) else 0)
