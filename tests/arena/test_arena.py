"""Arena games, outputs, the command line, and the Ray runner."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from chickenfoot.arena import ArenaConfig, load_results, play, rerate, run, run_arena, schedule
from chickenfoot.cli import app
from chickenfoot.rules import Rules


def test_a_game_is_reproducible_and_scores_add_up() -> None:
    games = schedule(("greedy", "random", "heuristic"), Rules(rounds=2), deals=1, seed=4)
    first, again = play(games[1]), play(games[1])
    assert first == again
    assert [s.seat for s in first.slots] == [1, 2, 0]
    assert all(s.total == sum(s.round_points) and len(s.round_points) == 2 for s in first.slots)
    assert sum(s.win for s in first.slots) == pytest.approx(1.0)


def test_the_cheater_plays_through_the_arena_only_entry() -> None:
    games = schedule(("cheater", "greedy"), Rules(rounds=1), deals=1, seed=1, iterations=20)
    assert {s.bot for s in play(games[0]).slots} == {"cheater", "greedy"}


def test_workers_give_the_same_results_as_one_process() -> None:
    games = schedule(("greedy", "random"), Rules(rounds=1), deals=2, seed=2)
    assert run(games, workers=2) == run(games, workers=1)


def test_run_arena_writes_json_and_png(tmp_path: Path) -> None:
    config = ArenaConfig(("heuristic", "greedy"), Rules(rounds=1), matches=2, seed=3)
    rows = run_arena(config, tmp_path, show=False)
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["format"] == "chickenfoot-arena/1"
    assert len(data["games"]) == 4 and {r["bot"] for r in data["summary"]} == {r.bot for r in rows}
    assert (tmp_path / "results.png").read_bytes()[:4] == b"\x89PNG"
    _, loaded, games = load_results(tmp_path / "results.json")
    assert [g.slots for g in games] == [g.slots for g in run(schedule(config.lineup, config.rules, 2, 3))]
    again = rerate(tmp_path)
    assert [(r.bot, round(r.mu, 9), r.win_low, r.points_high, r.move_p95) for r in again] == [
        (r.bot, round(r.mu, 9), r.win_low, r.points_high, r.move_p95) for r in rows
    ]
    assert [r.win_share for r in loaded] == [r.win_share for r in rows]


def test_cli_arena_prints_a_table_and_rejects_bad_input(tmp_path: Path) -> None:
    runner = CliRunner()
    ok = runner.invoke(
        app, ["arena", "--bots", "greedy,random", "--rounds", "1", "--matches", "1", "--out", str(tmp_path)]
    )
    assert ok.exit_code == 0, ok.output
    assert "win share" in ok.output and (tmp_path / "results.json").exists()
    bad = runner.invoke(app, ["arena", "--bots", "greedy,wizard"])
    assert bad.exit_code == 1 and "unknown bot 'wizard'" in bad.output
    bad_rule = runner.invoke(app, ["arena", "--bots", "greedy,random", "--rule", "hub_arms=5"])
    assert bad_rule.exit_code == 1 and "hub_arms must be one of" in bad_rule.output


@pytest.mark.slow  # a cluster of real processes
def test_ray_runs_the_same_games() -> None:
    ray = pytest.importorskip("ray")
    games = schedule(("greedy", "random"), Rules(rounds=1), deals=1, seed=5)
    try:
        ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    except Exception as exc:  # pragma: no cover - depends on the machine
        pytest.skip(f"ray cannot start here: {exc}")
    try:
        assert run(games, ray_address="local") == run(games, workers=1)
    finally:
        ray.shutdown()


def test_chart_draws_a_clean_sweep(tmp_path: Path) -> None:
    from chickenfoot.arena.report import write_png
    from chickenfoot.arena.stats import BotSummary

    # A share of 1.0 whose Wilson upper bound rounds to just below it.
    row = BotSummary("sweeper", 60, 1.0, 0.94, 1.0 - 1e-12, 30.0, 27.0, 33.0, 44.0, 5.0, 0.3, 1.2, 900)
    write_png(tmp_path / "sweep.png", [row], "sweep")
    assert (tmp_path / "sweep.png").read_bytes()[:4] == b"\x89PNG"


def test_a_single_deal_leaves_its_intervals_null_in_json_and_a_dash_in_the_table(tmp_path: Path) -> None:
    def refuse(name: str) -> None:
        raise AssertionError(f"{name} is not JSON")

    result = CliRunner().invoke(
        app, ["arena", "--bots", "greedy,random", "--rounds", "1", "--matches", "1", "--out", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "results.json").read_text(), parse_constant=refuse)
    assert [(row["points_low"], row["points_high"]) for row in data["summary"]] == [(None, None), (None, None)]
    assert all(isinstance(row["points_per_round"], float) for row in data["summary"])
    assert result.stdout.count("(—–—)") == 2  # the points' interval of each bot
    _, loaded, _ = load_results(tmp_path / "results.json")
    assert all(math.isnan(row.points_low) and math.isnan(row.points_high) for row in loaded)
    assert [r.points_per_round for r in rerate(tmp_path)] == [r.points_per_round for r in loaded]
    assert "Infinity" not in (tmp_path / "results.json").read_text()
