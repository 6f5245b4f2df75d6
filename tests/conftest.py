"""Fixtures every folder of tests shares: the stores, migrated once per test session.

A test session is one pytest process: the whole run, or one worker of ``pytest -n N``. Each
migrates a SQLite file once, which a test copies for a store of its own, and gets a PostgreSQL
database of its own, created afresh and migrated once (``pg_url``): workers running at once never
share rows, and no test pays the migrations again. The tests of the migrations themselves start
from empty files of their own.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from services import unavailable

# A property is judged by what it finds, never by how long an example took: on a busy machine a slow
# example is no failure (hypothesis's own default fails any example slower than 200 ms).
settings.register_profile("chickenfoot", deadline=None)
settings.load_profile("chickenfoot")

DEFAULT_PG_URL = "postgresql+asyncpg://chickenfoot:chickenfoot@127.0.0.1:5432/chickenfoot_test"


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """A migrated PostgreSQL database of this session's own: ``NAME_WORKER`` (``NAME_master``
    without workers) beside the database NAME that ``CHICKENFOOT_TEST_DATABASE_URL`` names (else
    ``chickenfoot_test`` on 127.0.0.1:5432), created afresh and dropped at the end.

    Creating it takes the role's ``CREATEDB``, which ``scripts/test-services.sh`` grants. Without
    it, a run without workers uses the database NAME itself as it finds it; a run with workers
    skips the tests that need PostgreSQL (fails them on CI), since its workers would share rows.
    """
    import asyncpg

    from chickenfoot.testing.stores import database_of, drop_database, fresh_database, migrated

    url = os.environ.get("CHICKENFOOT_TEST_DATABASE_URL", DEFAULT_PG_URL)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "master")
    own = f"{database_of(url)}_{worker}"
    try:
        session_url = asyncio.run(fresh_database(url, own))
    except asyncpg.InsufficientPrivilegeError as exc:
        if worker != "master":
            unavailable("A PostgreSQL database for each worker", f"{exc}; or run pytest -n 0")
        yield asyncio.run(migrated(url))
        return
    except Exception as exc:
        unavailable("PostgreSQL", exc)
    yield asyncio.run(migrated(session_url))
    asyncio.run(drop_database(url, own))


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated once for the session, for ``chickenfoot.testing.stores.copy_of``."""
    from chickenfoot.testing.stores import migrated

    path = tmp_path_factory.mktemp("template") / "games.db"
    asyncio.run(migrated(f"sqlite+aiosqlite:///{path}"))
    return path
