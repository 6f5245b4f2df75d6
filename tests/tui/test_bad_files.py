"""Malformed saved matches for ``play --load`` (plain and Textual) and the Textual app's resume box.

Each bad file gets one line naming the file and the problem and a non-zero exit (through real
processes), the file is left as it was, and the Textual app shows the line instead of crashing.
"""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, Static
from textual.worker import WorkerFailed

from chickenfoot.i18n import render
from chickenfoot.match import Match
from chickenfoot.messages import Code
from chickenfoot.tui.app import ChickenFootApp
from chickenfoot.tui.screens.game import GameScreen
from chickenfoot.tui.screens.save import SavePrompt
from chickenfoot.tui.screens.start import StartOptions, StartScreen
from chickenfoot.tui.session import Session

from .helpers import settle, shown, small_session


def saved_record() -> dict[str, Any]:
    """A saved 2-round match, a few moves into its first round."""
    session = Session.new(small_session().match.rules.replace(rounds=2), ["human", "greedy"], 1)
    for _ in range(4):
        session.play(session.round.legal_moves()[0])
    return session.record()


def changed(path: str, value: Any) -> bytes:
    """The saved record with the field at ``path`` (dot-separated, list indexes as numbers) replaced."""
    record = saved_record()
    *parents, last = path.split(".")
    node: Any = record
    for part in parents:
        node = node[int(part)] if isinstance(node, list) else node[part]
    node[int(last) if isinstance(node, list) else last] = value
    return json.dumps(record).encode()


BAD_FILES: dict[str, tuple[bytes, str]] = {
    "deeply-nested": (b'{"format": ' + b"[" * 50_000 + b"]" * 50_000 + b"}", "not valid JSON: nested too deeply"),
    "huge-int": (json.dumps(saved_record()).replace('"players": 2', '"players": ' + "2" * 5000).encode(), "digits"),
    "nan": (json.dumps(saved_record()).replace('"seed": 1', '"seed": NaN').encode(), "NaN is not a number"),
    "players-string": (changed("players", "\u0662"), 'players must be a whole number, got "\\u0662"'),
    "players-float": (changed("players", 2.0), "players must be a whole number, got 2.0"),
    "seed-text": (changed("seed", "1"), 'seed must be a whole number, got "1"'),
    "move-number": (changed("rounds.0.moves.1", 38), "round 1, move 2 must be a string, got 38"),
    "bad-move": (changed("rounds.0.moves.1", "6-6@6-6"), "round 1, move 2 ('6-6@6-6'): bad move '6-6@6-6'"),
    "tile-list": (changed("rounds.0.hands.1.0", ["6-6"]), 'rounds[0].hands[1][0]: expected a tile like "9-4"'),
    "seats-nested": (changed("seats", [["human"], "greedy"]), "seats must be a list of seat kinds"),
    "seat-unknown": (changed("seats", ["human", "wizard"]), "unknown seat kind 'wizard'"),
    "rules-type": (changed("rules", ["max_pip", 6]), "rules must be a JSON object"),
    "empty": (b"  \n", "not valid JSON: the text is empty"),
    "binary": (b"\x89PNG\r\n\x1a\n" + bytes(200), "is not UTF-8 text (byte 0x89 at offset 0)"),
}


@pytest.fixture(scope="module")
def outcomes(
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[str, tuple[Path, bytes, subprocess.CompletedProcess[str]]]:
    folder = tmp_path_factory.mktemp("saved")
    paths = {}
    for name, (content, _) in BAD_FILES.items():
        paths[name] = folder / f"{name}.json"
        paths[name].write_bytes(content)
    # The Textual game reads --load before it starts, so one bad file goes through it too.
    commands = {name: ["--plain", "--load", str(path)] for name, path in paths.items()}
    commands["textual"] = ["--load", str(paths["move-number"])]

    def play(args: list[str]) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "chickenfoot", "play", *args],
            input="",
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )

    with ThreadPoolExecutor(max_workers=6) as pool:
        futures = {name: pool.submit(play, args) for name, args in commands.items()}
        results = {name: future.result() for name, future in futures.items()}
    paths["textual"] = paths["move-number"]
    return {name: (paths[name], paths[name].read_bytes(), result) for name, result in results.items()}


@pytest.mark.parametrize("name", [*BAD_FILES, "textual"])
def test_bad_saved_match_is_one_line_and_a_non_zero_exit(
    outcomes: dict[str, tuple[Path, bytes, subprocess.CompletedProcess[str]]], name: str
) -> None:
    path, after, result = outcomes[name]
    content, words = BAD_FILES["move-number" if name == "textual" else name]
    assert result.returncode == 1, result.stderr
    assert result.stdout == ""
    assert result.stderr.startswith(f"chickenfoot: error: {path}") and result.stderr.count("\n") == 1, result.stderr
    assert words in result.stderr and "Traceback" not in result.stderr and len(result.stderr) < 300
    assert after == content


def test_every_bad_file_starts_from_a_record_that_loads(tmp_path: Path) -> None:
    path = tmp_path / "good.json"
    path.write_text(json.dumps(saved_record()), encoding="utf-8")
    assert Session.load(path).match.round.ply == 4


def test_a_resumed_match_deals_its_next_round() -> None:
    """A loaded record keeps its seed, so the next round is dealt (and dealt as the original would be)."""
    match = Match(small_session().match.rules.replace(rounds=2), players=2, seed=5)
    while not match.round.is_over():
        match.push(match.legal_moves()[0])
    resumed = Match.from_record(match.record())
    assert resumed.next_round().hands == match.next_round().hands
    unseeded = Match.from_record({**match.record(), "seed": None, "rounds": match.record()["rounds"][:1]})
    assert unseeded.next_round().start_double == match.rules.start_doubles()[1]


def test_plain_mode_plays_on_into_the_next_round_of_a_resumed_match(tmp_path: Path) -> None:
    match = Match(small_session().match.rules.replace(rounds=2), players=2, seed=5)
    while not match.round.is_over():
        match.push(match.legal_moves()[0])
    path = tmp_path / "round-over.json"
    path.write_text(json.dumps({**match.record(), "seats": ["greedy", "greedy"]}), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "chickenfoot", "play", "--plain", "--load", str(path)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "== Round 2 is over" in result.stdout and "== Match over ==" in result.stdout


@pytest.mark.asyncio
@pytest.mark.parametrize("name", ["deeply-nested", "huge-int", "move-number", "binary"])
async def test_the_resume_box_shows_one_line_and_keeps_the_app_running(tmp_path: Path, name: str) -> None:
    path = tmp_path / f"{name}.json"
    path.write_bytes(BAD_FILES[name][0])
    app = ChickenFootApp(StartOptions(), pace=0)
    async with app.run_test(size=(100, 30)) as pilot:
        assert isinstance(app.screen, StartScreen)
        app.screen.query_one("#resume-path", Input).value = str(path)
        await pilot.click("#resume-button")
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        message = shown(app.screen.query_one("#start-error", Static)).strip()
        assert message.startswith(str(path)) and BAD_FILES[name][1] in message
        assert len(message.splitlines()) == 1
        # Still usable: a good match starts from the same screen.
        await pilot.click("#start-button")
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen)
    assert not app.return_code  # no error ended it


@pytest.mark.asyncio
async def test_a_crash_inside_the_app_ends_it_with_a_non_zero_code() -> None:
    """What ``chickenfoot play`` exits with after an unexpected error in the app (it used to be 0)."""
    session = small_session(seats=("greedy", "greedy"))

    def broken() -> None:
        raise RuntimeError("a bot that breaks")

    session.bot_move = broken  # type: ignore[method-assign,assignment]
    app = ChickenFootApp(session=session, pace=0)
    with pytest.raises(WorkerFailed, match="a bot that breaks"):
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.5)
    assert app.return_code == 1


@pytest.mark.asyncio
async def test_file_errors_are_worded_in_the_apps_language(tmp_path: Path) -> None:
    """The resume box (Frisian) and a failed save (Lithuanian) name the file and why, never the system's English."""
    missing = tmp_path / "no-such-folder" / "m.json"
    app = ChickenFootApp(StartOptions(lang="fy"), pace=0)
    async with app.run_test(size=(100, 30)) as pilot:
        app.screen.query_one("#resume-path", Input).value = str(missing)
        await pilot.click("#resume-button")
        await pilot.pause()
        message = shown(app.screen.query_one("#start-error", Static)).strip()
    reason = render(Code.FILE_NOT_FOUND, "fy")
    assert " ".join(message.split()) == render(Code.FILE_READ_FAILED, "fy", file=str(missing), reason=reason)

    session = small_session()
    session.lang = "lt"
    game = ChickenFootApp(session=session, pace=0)
    async with game.run_test(size=(100, 30)) as pilot:
        await settle(pilot, game)
        await pilot.press("s")
        assert isinstance(game.screen, SavePrompt)
        game.screen.query_one(Input).value = str(missing)
        await pilot.press("enter")
        await pilot.pause()
        notes = [note.message for note in game._notifications]
    failed = render(Code.FILE_SAVE_FAILED, "lt", file=str(missing), reason=render(Code.FILE_NOT_FOUND, "lt"))
    assert notes == [failed]
