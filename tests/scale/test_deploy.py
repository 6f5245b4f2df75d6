"""deploy/compose.yaml agrees with itself: nginx names every server process, at the port it serves."""

from __future__ import annotations

from pathlib import Path

import pytest

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def test_nginx_is_in_front_of_every_server_process_of_the_compose_file() -> None:
    yaml = pytest.importorskip("yaml")
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    servers = {name: s for name, s in services.items() if s.get("build", {}).get("dockerfile") == "deploy/Dockerfile"}
    assert len(servers) >= 2
    ports = {
        name: next(a.split("=")[1] for a in s["command"] if a.startswith("--port=")) for name, s in servers.items()
    }
    nginx = services["nginx"]["environment"]["CHICKENFOOT_SERVERS"]
    assert sorted(nginx.replace(";", "").split()[1::2]) == sorted(f"{name}:{port}" for name, port in ports.items())
    template = next(v.split(":")[0] for v in services["nginx"]["volumes"] if "templates" in v)
    assert (DEPLOY / template).resolve() == DEPLOY / "nginx.conf.template"
    for server in servers.values():
        assert {"postgres", "redis"} <= set(server["depends_on"])
        assert any(a.startswith("--database-url=postgresql+asyncpg://") for a in server["command"])
