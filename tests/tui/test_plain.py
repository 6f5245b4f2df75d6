"""The plain line mode through a pipe, and its session underneath."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from chickenfoot.errors import ChickenfootError
from chickenfoot.i18n import render, seat_name, template
from chickenfoot.messages import Code
from chickenfoot.rules import Rules
from chickenfoot.tui.plain import PlainGame, round_end_text
from chickenfoot.tui.session import Session, parse_seats

from .helpers import ROUND_SEED, advance, small_session

ARGS = ["--plain", "--seed", str(ROUND_SEED), "--rules", "double-6", "--rounds", "1", "--players", "2", "--seats"]


def run_play(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "chickenfoot", "play", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


def human_moves() -> list[str]:
    """The moves the test player makes in the round, found by playing the same session in process."""
    session = small_session()
    advance(session)
    return [str(step.move) for ply, step in enumerate(session.round.history) if ply in session.choices]


def test_a_whole_round_through_a_pipe_with_bad_input_reprompted() -> None:
    moves = human_moves()
    stdin = "\n".join(["nonsense", "6-6@0-0", "hint", *moves]) + "\n"
    result = run_play(*ARGS, "human,greedy", stdin=stdin)
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "\x1b" not in out
    assert "error: bad move 'nonsense'" in out
    assert "error: Illegal move 6-6@0-0" in out
    assert out.count("Your turn> ") >= len(moves) + 3 and "seat 0" not in out.lower()
    assert "* You drew" in out and "* You passed" in out and "* Chicken foot!" in out
    assert "== Round 1 is over" in out and "== Match over ==" in out and "You win with the lowest total" in out
    assert "[6|6] hub" in out


@pytest.mark.parametrize("lang", ["lt", "lv", "fy"])
def test_a_whole_round_in_each_language(lang: str) -> None:
    """``--lang`` words every line from the catalog: the log, the board, errors and the round's end."""
    stdin = "\n".join(["nonsense", "6-6@0-0", *human_moves()]) + "\n"
    result = run_play(*ARGS, "human,greedy", "--lang", lang, stdin=stdin)
    out = result.stdout
    assert result.returncode == 0, result.stderr

    assert render(Code.NOTATION_BAD_MOVE, lang, text="nonsense") in out

    assert template(Code.ILLEGAL_MOVE, lang).replace("{move}", "6-6@0-0").split("{")[0] in out
    assert f"* {render(Code.EVENT_HUB, lang, name=seat_name(1, None, None, lang), tile='6-6')}" in out
    assert f"== {render(Code.EVENT_ROUND_OVER_DOMINO_YOU, lang, round=1)} ==" in out
    assert render(Code.MATCH_OVER, lang) in out and f"[6|6] {render(Code.BOARD_HUB, lang)}" in out
    assert out.count(f"{render(Code.EVENT_YOUR_TURN, lang)}> ") >= len(human_moves())
    assert render(Code.PLAIN_SEAT_HAND_YOU, lang, tiles="").strip() in out
    assert "Round" not in out and "Seat" not in out


def test_lang_from_the_environment_and_a_bad_lang() -> None:
    env = {**os.environ, "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "fy_NL.UTF-8"}
    result = subprocess.run(
        [sys.executable, "-m", "chickenfoot", "play", *ARGS, "human,greedy"],
        input="help\nquit\n",
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        env=env,
    )
    assert render(Code.PLAIN_HELP, "fy") in result.stdout and render(Code.PLAIN_BYE, "fy") in result.stdout
    bad = run_play(*ARGS, "human,greedy", "--lang", "xx", stdin="")
    assert bad.returncode != 0 and bad.stderr.startswith("chickenfoot: error: unknown language 'xx'")


def test_input_ending_early_stops_cleanly() -> None:
    result = run_play(*ARGS, "human,greedy", stdin="")
    assert result.returncode == 0
    assert "Input ended; the match is not finished" in result.stdout


def test_bad_options_get_one_line() -> None:
    result = run_play(*ARGS, "human,wizard", stdin="")
    assert result.returncode == 1
    assert result.stderr.strip().count("\n") == 0 and "unknown seat kind 'wizard'" in result.stderr


def test_save_in_plain_mode_then_resume(tmp_path: Path) -> None:
    target = tmp_path / "m.json"
    first = human_moves()[0]
    result = run_play(*ARGS, "human,greedy", stdin=f"{first}\nsave {target}\nquit\n")
    assert f"Saved to {target}" in result.stdout
    saved = Session.load(target)
    resumed = run_play("--plain", "--load", str(target), stdin="board\n")
    position = resumed.stdout.split("Your turn> ")[0]
    assert f"Tiles in hand: You ({len(saved.round.hand(0))})" in position
    assert " ".join(str(t) for t in saved.round.hand(0)) in position


def test_undo_in_plain_mode_goes_back_to_the_own_move() -> None:
    played = small_session()
    advance(played)
    first_choice = played.choices[0]
    session = small_session()
    out = io.StringIO()
    PlainGame(session, io.StringIO(f"{human_moves()[0]}\nundo\n"), out).run()
    assert "Took back" in out.getvalue()
    assert len(session.round.history) == first_choice
    assert session.round.to_move == 0 and not session.choices


def test_seats_and_loading_errors(tmp_path: Path) -> None:
    assert parse_seats("human, easy", 3) == ["human", "easy", "medium"]
    with pytest.raises(ValueError, match="3 seats given for 2 players"):
        parse_seats("human,human,human", 2)
    with pytest.raises(ChickenfootError, match="cannot read"):
        Session.load(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    with pytest.raises(ChickenfootError, match="not valid JSON"):
        Session.load(tmp_path / "bad.json")


def test_a_blocked_round_says_who_won_it_and_two_players_are_prompted_by_seat() -> None:
    session = Session.new(Rules.preset("double-6").replace(rounds=1), ["human", "greedy"], 2)
    advance(session)
    assert session.round.end_reason == "blocked"
    fewest = min(session.round.points())
    assert f"You win the round with the fewest points left ({fewest} points)" in round_end_text(session)
    out = io.StringIO()
    PlainGame(small_session(seats=("human", "human")), io.StringIO("quit\n"), out).run()
    assert "Player 1 to play> " in out.getvalue() or "Player 2 to play> " in out.getvalue()


def test_save_and_read_errors_are_worded_in_the_players_language(tmp_path: Path) -> None:
    """Never the system's own words (an English OSError text): the file and why, from the catalog."""
    session = small_session()
    session.lang = "lt"
    missing = tmp_path / "no-such-folder" / "m.json"
    with pytest.raises(ChickenfootError) as saving:
        session.save(missing)
    why = render(Code.FILE_NOT_FOUND, "lt")
    assert str(saving.value) == render(Code.FILE_SAVE_FAILED, "lt", file=str(missing), reason=why)
    with pytest.raises(ChickenfootError) as folder:
        session.save(tmp_path)
    assert str(folder.value).endswith(render(Code.FILE_IS_FOLDER, "lt"))
    with pytest.raises(ChickenfootError) as reading:
        Session.load(missing, lang="lv")
    assert str(reading.value) == render(
        Code.FILE_READ_FAILED, "lv", file=str(missing), reason=render(Code.FILE_NOT_FOUND, "lv")
    )
    for error in (saving, folder, reading):
        assert "No such file" not in str(error.value) and "Is a directory" not in str(error.value)
    # The plain mode says it in its line, the game goes on.
    out = io.StringIO()
    PlainGame(
        Session.new(Rules.preset("double-6"), ["human", "greedy"], ROUND_SEED, lang="fy"),
        io.StringIO(f"save {missing}\nquit\n"),
        out,
    ).run()
    failed = render(Code.FILE_SAVE_FAILED, "fy", file=str(missing), reason=render(Code.FILE_NOT_FOUND, "fy"))
    assert render(Code.PLAIN_ERROR, "fy", message=failed) in out.getvalue()
    assert render(Code.PLAIN_BYE, "fy") in out.getvalue()
