"""What the metrics learn by being told: how long work took where no scrape can read it from state.

The code where such work happens tells it in one call (a bot's move, a commit of actions); whoever
listens (:class:`~chickenfoot.server.ops.metrics.Metrics`, when metrics are on) is told, and
nothing at all happens when nobody listens. Everything else the metrics show is read from the
server's state when they are scraped.

>>> heard = []
>>> class Heard:
...     def bot_thought(self, level: str, seconds: float) -> None:
...         heard.append(("bot", level, seconds))
...     def actions_stored(self, count: int, seconds: float) -> None:
...         heard.append(("stored", count, seconds))
>>> stop = listen(Heard())
>>> bot_thought("hard", 0.5); actions_stored(3, 0.002)
>>> stop(); bot_thought("easy", 0.1)
>>> heard
[('bot', 'hard', 0.5), ('stored', 3, 0.002)]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol


class Listener(Protocol):
    def bot_thought(self, level: str, seconds: float) -> None:
        """A bot of ``level`` chose a move in ``seconds``."""

    def actions_stored(self, count: int, seconds: float) -> None:
        """``count`` actions (moves, draws, passes, new rounds) were committed together in ``seconds``."""


_listeners: list[Listener] = []


def listen(listener: Listener) -> Callable[[], None]:
    """Tell ``listener`` every event from now on; returns the call that stops it."""
    _listeners.append(listener)
    return lambda: _listeners.remove(listener)


def bot_thought(level: str, seconds: float) -> None:
    for listener in _listeners:
        listener.bot_thought(level, seconds)


def actions_stored(count: int, seconds: float) -> None:
    for listener in _listeners:
        listener.actions_stored(count, seconds)
