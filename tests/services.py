"""The services some tests need (PostgreSQL, Redis, nginx, redis-server): a test whose service is
missing here is skipped with the reason, and fails on CI."""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def unavailable(what: str, reason: object) -> NoReturn:
    """Skip a test whose service is missing here; on CI, fail it."""
    if os.environ.get("CI"):
        pytest.fail(f"{what} is required on CI: {reason}")
    pytest.skip(f"{what} is not available ({reason}); run scripts/test-services.sh")
