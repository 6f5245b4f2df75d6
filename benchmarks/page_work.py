"""How much of the table page one STATE message rewrites: the elements it adds and removes, the
attributes and texts it sets, and the main thread's time, over every version of a scripted match.

    python benchmarks/page_work.py [--players 4] [--seed 1] [--source OTHER_CHECKOUT/src]

One server (SQLite in a temporary directory; ``--source`` serves another checkout's pages, for a before
and after) and one headless Chromium at 1280 px on the page of a table that does not exist (/t/DEMO42),
whose table is handed STATEs through the test hook ``window.chickenfoot.onState``: every version of a
seeded one-round match as seat 0 (a person, the others bots) sees it. Each version comes three ways, as
the server sends them: new; the same again (a presence update resends it); and with one other seat
disconnected. A MutationObserver on the whole page counts what each message changed: its records,
the elements added and removed (each with everything inside it) and the attributes and texts set.

Prints, per kind of message, the median and the largest count of each, and the median milliseconds
the page spent in ``onState``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

from chickenfoot.match import Match
from chickenfoot.rules import Rules
from chickenfoot.server.table.protocol import Presence, state_for
from chickenfoot.testing.launch import free_port, served

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu"]
KINDS = ("new version", "same again", "a seat disconnected")
COLUMNS = ("records", "added", "removed", "attributes", "texts")

# One message handed to the page, and what it changed there (the observer's records, taken at once:
# the page draws a STATE in the call that receives it).
MEASURE = """(state) => {
  window.pageWork ??= new MutationObserver(() => {});
  const observer = window.pageWork;
  observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  observer.takeRecords();
  const started = performance.now();
  window.chickenfoot.onState(state, []);
  const ms = performance.now() - started;
  const records = observer.takeRecords();
  const size = (node) => 1 + (node.querySelectorAll ? node.querySelectorAll("*").length : 0);
  let added = 0, removed = 0, attributes = 0, texts = 0;
  for (const record of records) {
    for (const node of record.addedNodes) added += size(node);
    for (const node of record.removedNodes) removed += size(node);
    if (record.type === "attributes") attributes += 1;
    if (record.type === "characterData") texts += 1;
  }
  return { records: records.length, added, removed, attributes, texts, ms };
}"""


def states(players: int, seed: int) -> list[dict[str, Any]]:
    """Every version of a one-round match (the first legal move at each turn) as seat 0 sees it."""
    names = ("Ann", *(f"Bot {s + 1}" for s in range(1, players)))
    kinds = ("human", *("bot",) * (players - 1))
    presence = Presence(names, kinds, (True,) * players, (False,) * players, (None, *("easy",) * (players - 1)))
    match = Match(Rules().replace(rounds=1), players=players, seed=seed)
    out = []
    while True:
        message = state_for("DEMO42", "playing", match, match.round.view(0), presence)
        out.append(json.loads(json.dumps(message)))
        if match.round.is_over():
            return out
        match.push(match.round.legal_moves()[0])


def measure(page: Page, versions: list[dict[str, Any]]) -> dict[str, list[dict[str, float]]]:
    found: dict[str, list[dict[str, float]]] = {kind: [] for kind in KINDS}
    for state in versions:
        away = state | {"connected": [seat != 1 for seat in range(len(state["connected"]))]}
        for kind, message in zip(KINDS, (state, state, away), strict=True):
            found[kind].append(page.evaluate(MEASURE, message))
        page.evaluate(MEASURE, state)  # back to everyone connected, not counted
    return found


def cell(values: list[float]) -> str:
    """The median and the largest of a column's counts."""
    return f"{statistics.median(values):>9.0f} (max {max(values):>4.0f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--source", type=Path, help="serve this source tree's chickenfoot (PYTHONPATH)")
    args = parser.parse_args()
    if args.source is not None:
        os.environ["PYTHONPATH"] = str(args.source.resolve())
    versions = states(args.players, args.seed)
    with tempfile.TemporaryDirectory() as directory, sync_playwright() as playwright:
        port = free_port()
        with served(port, f"sqlite+aiosqlite:///{directory}/games.db", timeout=60):
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.add_init_script("localStorage.setItem('cf-drag-hint', 'seen')")
            page.goto(f"http://127.0.0.1:{port}/t/DEMO42")
            page.wait_for_function("() => window.chickenfoot && document.querySelector('#toast')?.textContent")
            found = measure(page, versions)
            browser.close()
    print(f"{len(versions)} versions of a {args.players}-seat round (seed {args.seed}), seat 0's page at 1280 px")
    print(f"{'message':<22}" + "".join(f"{c:>18}" for c in COLUMNS) + f"{'ms':>8}")
    for kind, rows in found.items():
        cells = [cell([r[column] for r in rows]) for column in COLUMNS]
        ms = statistics.median(r["ms"] for r in rows)
        print(f"{kind:<22}" + "".join(f"{cell:>18}" for cell in cells) + f"{ms:>8.2f}")


if __name__ == "__main__":
    main()
