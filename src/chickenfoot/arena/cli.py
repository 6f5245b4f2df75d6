"""The ``chickenfoot arena`` subcommand's work: parse the options into a configuration and run it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from chickenfoot.arena import ArenaConfig, run_arena
from chickenfoot.errors import PositionError
from chickenfoot.reading import load_json
from chickenfoot.rules import Rules


def parse_rule(text: str) -> tuple[str, Any]:
    """``KEY=VALUE`` with VALUE read as JSON when it can be (numbers), else as text."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise ValueError(f"bad --rule {text!r}: expected KEY=VALUE")
    try:
        return key.strip(), load_json(value)
    except PositionError:
        return key.strip(), value.strip()


def build_rules(preset: str, overrides: Sequence[str], rounds: int | None) -> Rules:
    data = Rules.preset(preset).to_dict()
    data.update(parse_rule(text) for text in overrides)
    if rounds is not None:
        data["rounds"] = rounds
    return Rules.from_dict(data)


def arena_command(
    bots: str,
    preset: str,
    rules: Sequence[str],
    rounds: int | None,
    matches: int,
    workers: int,
    seed: int,
    iterations: int | None,
    out: Path | None,
    ray_address: str | None,
) -> None:
    lineup = tuple(name.strip() for name in bots.split(",") if name.strip())
    config = ArenaConfig(
        lineup=lineup,
        rules=build_rules(preset, rules, rounds),
        matches=matches,
        seed=seed,
        workers=workers,
        iterations=iterations,
        ray_address=ray_address,
    )
    run_arena(config, out)
