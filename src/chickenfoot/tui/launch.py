"""Starting a game from the command line: the plain line mode or the Textual app."""

from __future__ import annotations

import sys

from chickenfoot.i18n import choose_language
from chickenfoot.rules import Rules
from chickenfoot.tui.session import Session, parse_seats


def build_session(
    *, seed: int | None, players: int, preset: str, rounds: int | None, seats: str, lang: str = "en"
) -> Session:
    rules = Rules.preset(preset)
    if rounds is not None:
        rules = rules.replace(rounds=rounds)
    rules.hand_size_for(players)
    return Session.new(rules, parse_seats(seats, players), seed, lang=lang)


def launch(
    *,
    plain: bool,
    seed: int | None,
    players: int,
    preset: str,
    rounds: int | None,
    seats: str,
    load: str | None,
    lang: str | None = None,
) -> int:
    """Play; returns the exit code. Bad options raise :class:`ValueError` (or a library error), one line.

    ``lang``: the language (``--lang``), else the environment's (``LANGUAGE``, ``LC_MESSAGES``, ``LANG``).
    """
    language = choose_language(lang)
    session = Session.load(load, language) if load else None
    if plain:
        from chickenfoot.tui.plain import PlainGame

        if session is None:
            session = build_session(
                seed=seed, players=players, preset=preset, rounds=rounds, seats=seats, lang=language
            )
        PlainGame(session, sys.stdin, sys.stdout).run()
        return 0
    from chickenfoot.tui.app import ChickenFootApp
    from chickenfoot.tui.screens.start import StartOptions

    options = StartOptions(
        seed=seed, players=players, preset=preset, rounds=rounds, seats=parse_seats(seats, players), lang=language
    )
    app = ChickenFootApp(options, session=session)
    app.run()
    # Textual ends the app on an error it did not expect and prints it, but run() itself returns.
    return app.return_code or 0
