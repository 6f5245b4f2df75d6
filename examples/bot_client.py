"""Play as a bot account through the Bot API, with any level of ``chickenfoot.bots``.

    pip install 'chickenfoot[bot]'
    python examples/bot_client.py --server http://127.0.0.1:8000 --token cfb_YOUR_TOKEN --level medium
    python examples/bot_client.py ... --challenge OTHER_BOT --matches 1   # start a table against a bot account

The client follows its account's stream (docs/research/bot-api.md): it accepts every invitation and
plays each table that starts in a thread of its own, following the table's stream. Each ``state`` is
turned back into the seat's view (:func:`chickenfoot.remote.seat_view`) and handed to the bot, which
chooses among the legal moves the server listed. To play a policy of your own, replace ``choose``.
"""

from __future__ import annotations

import argparse
import json
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx

from chickenfoot.bots import LEVELS, make_bot
from chickenfoot.move import Move
from chickenfoot.remote import seat_view
from chickenfoot.view import SeatView

Choose = Callable[[SeatView], Move]


def lines(client: httpx.Client, path: str) -> Iterator[dict[str, Any]]:
    """The messages of a newline-delimited JSON stream (empty lines only keep it alive)."""
    with client.stream("GET", path, timeout=httpx.Timeout(10, read=None)) as response:
        response.raise_for_status()
        yield from (json.loads(line) for line in response.iter_lines() if line)


def whole_log(state: dict[str, Any], previous: dict[str, Any] | None) -> dict[str, Any]:
    """A state carries the log's entries after those its stream sent before (``log_from``)."""
    start = state.get("log_from", 0)
    if start == 0 or previous is None:
        return state
    return state | {"log_from": 0, "log": previous["log"][:start] + state["log"]}


MOVED_ON = {"error.stale_version", "error.round_not_over"}
"""Refusals that only say the table moved on since the state answered: another seat asked for the next round
first, or a newer state is on its way. The next state says what now; nothing went wrong."""


def send(client: httpx.Client, path: str, body: dict[str, Any]) -> bool:
    """Post ``body``; over the token's limits, wait as the answer says and post it again. ``False``: refused."""
    while (answer := client.post(path, json=body)).status_code == 429:
        time.sleep(int(answer.headers["retry-after"]))
    if answer.status_code != 200 and answer.json().get("code") not in MOVED_ON:
        print(f"{path}: {body['move']} refused: {answer.json().get('detail')}", flush=True)
    return answer.status_code == 200


def play(client: httpx.Client, table: str, choose: Choose) -> dict[str, Any]:
    """Play one table until its match is over; returns the last state."""
    state: dict[str, Any] | None = None
    moved = -1  # a version comes again when only who is connected changed: one move per version
    for message in lines(client, f"/api/bot/tables/{table}/stream"):
        if message["type"] == "error":
            print(f"table {table}: {message['message']}", flush=True)
        if message["type"] != "state":
            continue
        state, version = whole_log(message["state"], state), message["version"]
        if state["match_over"] is not None:
            return state
        if state["status"] != "playing" or version <= moved:
            continue  # waiting for players, or we acted at this version already
        if state["round_over"] is not None:
            move = "next_round"  # at a table of programs (or people) the next round starts when one asks
        elif state["to_move"] == state["seat"] and state["legal"] and state["forced"] is None:
            move = str(choose(seat_view(state)))
        else:
            continue  # not our turn, or the server makes our only move (a draw or a pass) for us
        if send(client, f"/api/bot/tables/{table}/move", {"move": move, "version": version}):
            moved = version
    raise RuntimeError(f"table {table}: the stream ended before the match did")


def run(server: str, token: str, level: str, challenge: str | None, rounds: int | None, matches: int) -> None:
    bot = make_bot(level)
    lock = threading.Lock()  # one bot, many tables: it thinks about one at a time
    done = threading.Semaphore(0)

    def choose(view: SeatView) -> Move:
        with lock:
            return bot.choose(view)

    def play_table(client: httpx.Client, table: str) -> None:
        final = play(client, table, choose)
        print(f"table {table}: winners {final['match_over']['winners']}, totals {final['totals']}", flush=True)
        done.release()

    with httpx.Client(base_url=server, headers={"Authorization": f"Bearer {token}"}, timeout=30) as client:
        for event in lines(client, "/api/bot/stream"):
            if event["type"] == "hello" and challenge is not None:
                wanted = {"opponents": [{"account": challenge}]} | ({"rounds": rounds} if rounds else {})
                created = client.post("/api/bot/tables", json=wanted)
                created.raise_for_status()
                print(f"table {created.json()['table']}: invited {challenge}", flush=True)
            elif event["type"] == "invitation":
                client.post(f"/api/bot/tables/{event['table']}/accept").raise_for_status()
            elif event["type"] == "table_started":
                threading.Thread(target=play_table, args=(client, event["table"]), daemon=True).start()
            elif event["type"] == "match_over":
                done.acquire()  # the table's thread has printed its result
                matches -= 1
                if matches == 0:
                    return


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True, help="a personal API token of a bot account (cfb_...)")
    parser.add_argument("--level", default="medium", choices=list(LEVELS))
    parser.add_argument("--challenge", help="start a table against this bot account")
    parser.add_argument("--rounds", type=int, help="rounds of the challenge's match (default: the preset's)")
    parser.add_argument("--matches", type=int, default=0, help="stop after this many matches (0: never)")
    arguments = parser.parse_args()
    run(arguments.server, arguments.token, arguments.level, arguments.challenge, arguments.rounds, arguments.matches)


if __name__ == "__main__":
    main()
