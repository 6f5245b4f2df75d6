"""The board's geometry (web/geometry.js), run in Chromium: long arms fold instead of colliding, and
no two tiles overlap on boards of whole random rounds across the rule space."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from chickenfoot.rules import Rules

from .states import random_layouts, random_round, state_of

LONG_ARMS = """async ([arms, steps]) => {
  const { Geometry } = await import("/geometry.js");
  const layout = [["18-18", null]];
  const lines = [];
  for (let a = 0; a < arms; a++) {
    layout.push([`18-${a}`, "18-18"]);
    lines.push({ last: `18-${a}`, n: a });
  }
  for (let step = 0; step < steps; step++) {
    for (const line of lines) {
      const next = (line.n + 1 + step) % 18;
      const tile = `${Math.max(line.n, next)}-${Math.min(line.n, next)}`;
      layout.push([tile, line.last]);
      line.last = tile;
      line.n = next;
    }
  }
  const g = Geometry.fromLayout(layout, arms);
  const b = g.bounds();
  return { placed: g.placed.length, tiles: layout.length, overlaps: g.overlapCount(), width: b.x1 - b.x0 };
}"""


@pytest.mark.parametrize("arms", [4, 6, 8])
def test_long_arms_fold_without_overlap(page: Page, server: str, arms: int) -> None:
    page.goto(f"{server}/")
    steps = 14
    result = page.evaluate(LONG_ARMS, [arms, steps])
    assert result["placed"] == result["tiles"] == 1 + arms * (steps + 1)
    assert result["overlaps"] == 0
    # Straight, two arms of 15 tiles would span over 60 tile units; folded they stay compact.
    assert result["width"] < 40


MEASURE = """async (layouts) => {
  const { Geometry } = await import("/geometry.js");
  return layouts.map(({ layout, arms, toes }) => {
    const g = Geometry.fromLayout(layout, arms, toes);
    const b = g.bounds();
    return {
      tiles: g.placed.length,
      overlaps: g.overlapCount(),
      connectors: g.placed.filter((p) => p.link).length,
      area: (b.x1 - b.x0) * (b.y1 - b.y0),
    };
  });
}"""


def test_random_boards_have_no_overlaps_and_stay_compact(page: Page, server: str) -> None:
    # 160 whole random rounds: 2-8 players, double-6 to double-18, 4, 6 and 8 hub arms.
    layouts = random_layouts(160, seed=5)
    assert max(len(x["layout"]) for x in layouts) > 150  # some boards are crowded
    assert {x["arms"] for x in layouts} == {4, 6, 8} and {x["players"] for x in layouts} == set(range(2, 9))
    page.goto(f"{server}/")
    results = page.evaluate(MEASURE, layouts)
    assert [r["tiles"] for r in results] == [len(x["layout"]) for x in layouts]
    # The geometry checks every tile exactly against all others: not one overlap anywhere.
    assert [r["overlaps"] for r in results] == [0] * len(layouts)
    # Compact: the board's bounding box is at most 12 times the tiles' own area (measured: under 9),
    # and tiles set apart with a connector stay rare (measured: 2.4% of tiles, almost all on
    # crowded boards of 50 tiles and more).
    assert all(r["area"] <= 12 * 2 * max(r["tiles"], 4) for r in results)
    tiles = sum(r["tiles"] for r in results)
    assert sum(r["connectors"] for r in results) <= 0.04 * tiles
    assert sum(r["connectors"] for r in results if r["tiles"] < 40) <= 3


def test_board_draws_every_tile_and_open_end(page: Page, server: str) -> None:
    round_ = random_round(Rules(max_pip=12, hub_arms=6), players=3, seed=7, plies=60)
    state = state_of(round_, seat=0)
    page.goto(f"{server}/")
    drawn = page.evaluate(
        """async (state) => {
          const { Board } = await import("/board.js");
          const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
          svg.style.width = "800px"; svg.style.height = "600px";
          document.body.appendChild(svg);
          const { layout, rules, open_ends: openEnds } = state;
          const { hub_arms: arms, toes } = rules;
          new Board(svg, () => {}).update({ layout, arms, toes, openEnds, targets: [], hint: null });
          return {
            tiles: [...svg.querySelectorAll(".tile")].map((t) => t.dataset.tile),
            ends: [...svg.querySelectorAll("[data-open]")].map((c) => c.dataset.open),
            pips: svg.querySelectorAll(".pip").length,
          };
        }""",
        state,
    )
    assert sorted(drawn["tiles"]) == sorted(tile for tile, _ in state["layout"])
    assert sorted(drawn["ends"]) == sorted(target for target, _ in state["open_ends"])
    pips = sum(int(n) for tile, _ in state["layout"] for n in tile.split("-"))
    assert drawn["pips"] == pips
