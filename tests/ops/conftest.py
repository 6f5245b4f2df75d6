"""Fixtures of the operators' tests: the server tests' in-process apps over SQLite and PostgreSQL."""

from __future__ import annotations

from server.conftest import client, database_url, make_client, pg_url

__all__ = ["client", "database_url", "make_client", "pg_url"]
