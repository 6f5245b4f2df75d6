"""schemathesis against the OpenAPI schema of a real ``chickenfoot serve --debug``: no input gives a 5xx."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from chickenfoot.testing.launch import free_port, served

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]  # real server processes


@pytest.fixture(scope="module")
def api_schema(tmp_path_factory: pytest.TempPathFactory, pg_url: str) -> Iterator[schemathesis.BaseSchema]:
    """Over PostgreSQL, the stricter database (it refuses a NUL byte in any string, for one)."""
    directory: Path = tmp_path_factory.mktemp("fuzz")
    port = free_port()
    with (directory / "serve.log").open("w") as log, served(port, pg_url, output=log, options=["--debug"]):
        yield schemathesis.openapi.from_url(f"http://127.0.0.1:{port}/openapi.json")


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_request_gives_a_server_error(case: schemathesis.Case) -> None:
    case.call_and_validate(checks=[not_a_server_error])


def test_the_debug_server_serves_its_schema(api_schema: schemathesis.BaseSchema) -> None:
    paths = set(api_schema.raw_schema["paths"])
    assert {"/api/tables", "/api/tables/{code}/claim", "/api/tables/{code}/join"} <= paths
