"""The Bot API's "hello world": a bot account that accepts every invitation and plays random legal moves.

    pip install 'chickenfoot[bot]'
    python examples/random_bot.py http://127.0.0.1:8000 cfb_YOUR_TOKEN [MATCHES]

The legal moves are the server's (each ``state`` lists them): a bot needs no rules of its own.
"""

import json
import random
import sys
import time

import httpx


def lines(client: httpx.Client, path: str):
    """The messages of a newline-delimited JSON stream (empty lines keep it alive)."""
    with client.stream("GET", path, timeout=httpx.Timeout(10, read=None)) as response:
        response.raise_for_status()
        yield from (json.loads(line) for line in response.iter_lines() if line)


def play(client: httpx.Client, table: str) -> dict:
    """Play one table to the end of its match; returns the last state."""
    moved = -1  # a version is sent again when only who is connected changed: one move per version
    for message in lines(client, f"/api/bot/tables/{table}/stream"):
        if message["type"] != "state":
            continue  # chat lines, presence, errors: a random bot ignores them
        state, version = message["state"], message["version"]
        if state["match_over"] is not None:
            return state
        mine = state["to_move"] == state["seat"] and state["legal"] and state["forced"] is None
        if version <= moved or not (mine or state["round_over"]):
            continue  # not our turn, the server makes our only move for us, or we moved at this version
        # A round over: at a table of programs the next round starts when one of them asks.
        body = {"move": "next_round" if state["round_over"] else random.choice(state["legal"]), "version": version}
        while (answer := client.post(f"/api/bot/tables/{table}/move", json=body)).status_code == 429:
            time.sleep(int(answer.headers["retry-after"]))  # over the token's limits: wait as told
        moved = version if answer.status_code == 200 else moved  # refused: try again at the next state
    raise RuntimeError("the stream ended before the match")


def main(server: str, token: str, matches: int) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=server, headers=headers) as client:
        for event in lines(client, "/api/bot/stream"):
            if event["type"] == "invitation":
                client.post(f"/api/bot/tables/{event['table']}/accept").raise_for_status()
            elif event["type"] == "table_started":
                final = play(client, event["table"])
                print(f"table {event['table']}: winners {final['match_over']['winners']}", flush=True)
                matches -= 1
                if matches == 0:
                    return


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else -1)
