"""``chickenfoot serve``'s operator options: a weak database password and an unknown log format are
refused in one line, before anything starts."""

from __future__ import annotations

import subprocess
import sys

import pytest


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
