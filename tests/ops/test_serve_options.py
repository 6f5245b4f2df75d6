"""``chickenfoot serve``'s operator options: a weak database password and an unknown log format are
refused in one line, before anything starts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from chickenfoot.testing.launch import free_port


def serve(*options: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "chickenfoot", "serve", "--port", "1", *options]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(
    ("password", "said"),
    [("change-me", "is a well-known default"), ("", "is empty"), ("Chickenfoot", "is a well-known default")],
)
def test_a_weak_password_for_a_database_on_another_machine_is_refused(password: str, said: str) -> None:
    ran = serve("--database-url", f"postgresql+asyncpg://chickenfoot:{password}@db.example.org/chickenfoot")
    assert ran.returncode == 1
    assert ran.stderr.splitlines() == [
        f"chickenfoot: error: the database password for db.example.org {said}: set a password of your own"
    ]


def test_an_unknown_log_format_is_refused() -> None:
    ran = serve("--log-format", "xml", "--database-url", "sqlite+aiosqlite:///:memory:")
    assert ran.returncode == 1
    assert ran.stderr.splitlines() == ["chickenfoot: error: unknown log format 'xml': use text or json"]


def test_a_metrics_port_that_cannot_be_had_is_refused_before_anything_starts(tmp_path: Path) -> None:
    port = free_port()
    database = f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    command = [sys.executable, "-m", "chickenfoot", "serve", "--port", str(port), "--metrics-port", str(port)]
    ran = subprocess.run([*command, "--database-url", database], capture_output=True, text=True, timeout=120)
    assert ran.returncode == 1
    assert ran.stderr.splitlines() == [f"chickenfoot: error: cannot listen on 127.0.0.1:{port}: Address already in use"]
    assert ran.stdout == ""  # refused before the server said it serves


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (
            ("--smtp-url", "imap://mail.example.org"),
            "an SMTP URL is smtp://[user:password@]host[:port] or smtps://…, not 'imap://mail.example.org'",
        ),
        (
            ("--smtp-url", "smtp://mail.example.org"),
            "e-mail needs the site's public origin for its links: give --public-origin too",
        ),
        (
            ("--vapid-subject", "operator@example.org"),
            "a VAPID subject is mailto:someone@example.org or https://…, not 'operator@example.org'",
        ),
    ],
)
def test_notification_options_that_cannot_work_are_refused(tmp_path: Path, options: tuple[str, ...], said: str) -> None:
    ran = serve(*options, "--database-url", f"sqlite+aiosqlite:///{tmp_path / 'games.db'}")
    assert ran.returncode == 1
    assert ran.stderr.splitlines() == [f"chickenfoot: error: {said}"]
