"""The deployment's HTTPS front for real: Caddy with deploy/Caddyfile (certificates from its local
authority) in front of nginx with deploy/nginx.conf.template, in front of two ``chickenfoot serve``
processes started as compose.yaml starts them, and each service's own health check from compose.yaml
run against it."""

from __future__ import annotations

import json
import os
import shutil
import ssl
import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import yaml
from websockets.sync.client import connect

from chickenfoot.testing.launch import OPEN_LIMITS, free_port, proxied, served
from chickenfoot.testing.waiting import until_now
from scale.conftest import TEMPLATE, unavailable

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


@dataclass(frozen=True, slots=True)
class Front:
    https: int
    http: int
    admin: int
    nginx: int
    servers: list[int]
    authority: Path
    """The root certificate of Caddy's local authority."""

    @property
    def base(self) -> str:
        return f"https://localhost:{self.https}"

    def tls(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.authority))


@contextmanager
def caddy(directory: Path, https: int, http: int, admin: int, upstream: int) -> Iterator[Path]:
    """deploy/Caddyfile run on loopback ports with certificates of Caddy's own authority; its root's path."""
    binary = shutil.which("caddy")
    if binary is None:
        unavailable("Caddy", "not installed")
    environment = {
        **os.environ,
        "HOME": str(directory),
        "XDG_DATA_HOME": str(directory / "data"),
        "XDG_CONFIG_HOME": str(directory / "config"),
        "CHICKENFOOT_HOST": "localhost",
        "CHICKENFOOT_TLS": "internal",
        "CHICKENFOOT_UPSTREAM": f"127.0.0.1:{upstream}",
        "CHICKENFOOT_HTTP_PORT": str(http),
        "CHICKENFOOT_HTTPS_PORT": str(https),
        "CHICKENFOOT_CADDY_ADMIN": f"127.0.0.1:{admin}",
    }
    command = [binary, "run", "--config", str(DEPLOY / "Caddyfile"), "--adapter", "caddyfile"]
    with (directory / "caddy.log").open("w") as log:
        process = subprocess.Popen(command, env=environment, stdout=log, stderr=subprocess.STDOUT)
    root = directory / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
    try:

        def answers() -> bool:
            assert process.poll() is None, (directory / "caddy.log").read_text()[-2000:]
            try:
                return root.is_file() and httpx.get(f"http://127.0.0.1:{admin}/config/").status_code == 200
            except httpx.TransportError:
                return False

        until_now(answers, 30, "Caddy answering with its certificate authority made")
        yield root
    finally:
        process.terminate()
        process.wait()


@pytest.fixture(scope="module")
def front(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Front]:
    directory = tmp_path_factory.mktemp("https")
    https, http, admin, nginx = free_port(), free_port(), free_port(), free_port()
    database = f"sqlite+aiosqlite:///{directory / 'games.db'}"
    # The servers' options as compose.yaml gives them, for the name localhost behind nginx on loopback.
    options = [
        *OPEN_LIMITS,
        *("--forwarded-allow-ips", "127.0.0.1", "--allowed-host", "localhost"),
        *("--public-origin", f"https://localhost:{https}", "--secure-cookies", "--log-format", "json"),
    ]
    servers = [free_port(), free_port()]
    with ExitStack() as stack:
        for port in servers:
            stack.enter_context(served(port, database, options=options))
        try:
            stack.enter_context(proxied(nginx, servers, TEMPLATE))
        except RuntimeError as exc:
            unavailable("nginx", exc)
        root = stack.enter_context(caddy(directory, https, http, admin, nginx))
        yield Front(https, http, admin, nginx, servers, root)


def test_readyz_answers_over_https_with_the_local_authoritys_certificate(front: Front) -> None:
    ready = httpx.get(f"{front.base}/readyz", verify=front.tls())
    assert ready.status_code == 200 and ready.json()["ready"] is True
    assert ready.headers["strict-transport-security"] == "max-age=31536000"
    with pytest.raises(httpx.ConnectError):  # an unknown authority is refused: the certificate is the check
        httpx.get(f"{front.base}/readyz")
    plain = httpx.get(f"http://localhost:{front.http}/readyz")
    assert plain.status_code == 308 and plain.headers["location"].startswith("https://localhost")


def test_a_table_is_played_over_https_and_wss_and_cookies_are_secure(front: Front) -> None:
    with httpx.Client(base_url=front.base, verify=front.tls()) as client:
        signed_up = client.post("/api/account/signup", json={"username": "tls_player", "password": "tile hub toe"})
        assert signed_up.status_code == 201
        assert "secure" in signed_up.headers["set-cookie"].lower().split("; ")
        created = client.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "bot"}]}).json()
    url = f"wss://localhost:{front.https}/ws/{created['code']}?token={created['token']}"
    with connect(url, ssl=front.tls(), origin=f"https://localhost:{front.https}") as ws:  # type: ignore[arg-type]
        first = json.loads(ws.recv())
        assert first["type"] == "state"
        ws.send(json.dumps({"type": "ping"}))
        assert any(json.loads(ws.recv())["type"] == "pong" for _ in range(10))


def health_checks() -> dict[str, list[str]]:
    """Each service's health check command in compose.yaml."""
    services = yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"]
    checks = {name: service["healthcheck"]["test"] for name, service in services.items()}
    assert all(test[0] == "CMD" for test in checks.values())
    return {name: test[1:] for name, test in checks.items()}


def test_each_services_own_health_check_passes_against_it(front: Front) -> None:
    checks = health_checks()
    ports = {
        "server1": ("8000", str(front.servers[0])),
        "server2": ("8000", str(front.servers[1])),
        "nginx": ("8080", str(front.nginx)),
        "caddy": ("2019", str(front.admin)),
    }
    for name, (port, here) in ports.items():
        command = [argument.replace(f"127.0.0.1:{port}/", f"127.0.0.1:{here}/") for argument in checks[name]]
        command = [sys.executable, *command[1:]] if command[0] == "python" else command
        ran = subprocess.run(command, capture_output=True, text=True, timeout=30)
        assert ran.returncode == 0, (name, command, ran.stderr)
    redis = checks["redis"]
    if shutil.which(redis[0]):
        url = os.environ.get("CHICKENFOOT_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
        assert subprocess.run([redis[0], "-u", url, *redis[1:]], capture_output=True).returncode == 0
    nobody = [argument.replace("127.0.0.1:8000/", f"127.0.0.1:{free_port()}/") for argument in checks["server1"]]
    assert subprocess.run([sys.executable, *nobody[1:]], capture_output=True).returncode != 0  # the check can fail
