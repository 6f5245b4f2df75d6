"""The deploy example as far as it runs without containers: the compose file against the Compose
Specification and itself, nginx's files under ``nginx -t`` and in front of a real server, the image's
entry command against writable and read-only data directories, the Dockerfile's steps replayed."""

from __future__ import annotations

import asyncio
import importlib.resources
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect

from chickenfoot.testing.launch import free_port, main_file, nginx_binary, proxied, render_site, served
from services import unavailable

from .conftest import TEMPLATE

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
MAIN = DEPLOY / "nginx.conf"
FORGED = {"X-Forwarded-For": "203.0.113.77"}


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
    entries = [entry.split() for entry in nginx.split(";") if entry.strip()]
    assert sorted(entry[1] for entry in entries) == sorted(f"{name}:{port}" for name, port in ports.items())
    # A restarting process is never marked failed: nginx passes its requests on (deploy/nginx.conf.template).
    assert all(entry[0] == "server" and entry[2:] == ["max_fails=0"] for entry in entries)
    template = next(v.split(":")[0] for v in services["nginx"]["volumes"] if "templates" in v)
    assert (DEPLOY / template).resolve() == DEPLOY / "nginx.conf.template"
    for server in servers.values():
        assert {"postgres", "redis"} <= set(server["depends_on"])
        assert any(a.startswith("--database-url=postgresql+asyncpg://") for a in server["command"])


def compose() -> dict[str, Any]:
    yaml = pytest.importorskip("yaml")
    return dict(yaml.safe_load((DEPLOY / "compose.yaml").read_text()))


def test_the_compose_file_follows_the_compose_specification() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    # The Compose Specification's schema as check-jsonschema vendors it (a dev dependency): no network.
    vendored = importlib.resources.files("check_jsonschema.builtin_schemas.vendor") / "compose-spec.json"
    schema = json.loads(vendored.read_text())
    validator = jsonschema.validators.validator_for(schema)(schema)
    assert [error.message for error in validator.iter_errors(compose())] == []
    broken = {**compose(), "services": {"server1": {"image": 3, "comand": ["chickenfoot"]}}}
    assert len(list(validator.iter_errors(broken))) >= 2  # the schema does catch mistakes


def test_the_servers_trust_nginx_alone_and_nginx_replaces_the_images_default_site() -> None:
    services = compose()["services"]
    nginx = services["nginx"]
    address = nginx["networks"]["backend"]["ipv4_address"]
    for name in ("server1", "server2"):
        command = services[name]["command"]
        assert f"--forwarded-allow-ips={address}" in command
        assert any(argument.startswith("--allowed-host=") for argument in command)
        assert services[name]["ulimits"]["nofile"]["soft"] >= 16384
        assert "ports" not in services[name]  # only nginx is reachable from outside
    mounts = dict(reversed(volume.rsplit(":", 1)[0].split(":", 1)) for volume in nginx["volumes"])
    # The image renders templates/X.template to conf.d/X: default.conf is the image's own site's name.
    assert (DEPLOY / mounts["/etc/nginx/templates/default.conf.template"]).resolve() == TEMPLATE
    assert (DEPLOY / mounts["/etc/nginx/nginx.conf"]).resolve() == MAIN
    assert "default_server" in nginx["environment"]["CHICKENFOOT_LISTEN"]
    # pg_isready over TCP: the image's initialising server listens on its Unix socket only.
    check = services["postgres"]["healthcheck"]["test"]
    assert check[:2] == ["CMD", "pg_isready"] and check[check.index("-h") + 1] == "127.0.0.1"


def test_the_compose_file_serves_https_and_starts_with_no_secret_or_name_but_the_operators() -> None:
    text = (DEPLOY / "compose.yaml").read_text()
    for variable in ("POSTGRES_PASSWORD", "CHICKENFOOT_HOST", "CHICKENFOOT_TLS"):
        uses = re.findall(rf"\$\{{{variable}(.*?)\}}", text)
        # ${VAR:?why}: Compose refuses to start while it is unset or empty; no use falls back on a default.
        assert any(use.startswith(":?") for use in uses) and all(use.startswith(":?") or use == "" for use in uses)
    assert all(use.startswith(":?") for use in re.findall(r"\$\{POSTGRES_PASSWORD(.*?)\}", text))
    services = compose()["services"]
    published = {name for name, service in services.items() if "ports" in service}
    assert published == {"caddy"} and sorted(services["caddy"]["ports"]) == ["443:443", "80:80"]
    caddy = services["caddy"]
    upstream = caddy["environment"]["CHICKENFOOT_UPSTREAM"]
    assert upstream == f"nginx:{services['nginx']['environment']['CHICKENFOOT_LISTEN'].split()[0]}"
    edge = (DEPLOY / "edge.conf").read_text()
    assert f"set_real_ip_from {caddy['networks']['backend']['ipv4_address']};" in edge
    assert any(mount.startswith("./edge.conf:/etc/nginx/conf.d/") for mount in services["nginx"]["volumes"])
    for name in ("server1", "server2"):
        command = services[name]["command"]
        assert "--public-origin=https://${CHICKENFOOT_HOST}" in command and "--secure-cookies" in command
        assert any(argument.startswith("--metrics-port=") for argument in command)


def user_of(service: dict[str, Any]) -> str:
    """The user a service's processes run as: compose's ``user``, else its Dockerfile's last ``USER``."""
    if "user" in service:
        return str(service["user"])
    dockerfile = DEPLOY / Path(service["build"]["dockerfile"]).name
    users = [line.split()[1] for line in dockerfile.read_text().splitlines() if line.startswith("USER ")]
    return users[-1] if users else "root"


def test_every_service_runs_unprivileged_and_waits_for_the_health_of_the_next() -> None:
    services = compose()["services"]
    assert {name: user_of(service) for name, service in services.items()} == {
        "server1": "nobody",
        "server2": "nobody",
        "nginx": "101",
        "caddy": "caddy",
        "postgres": "postgres",
        "redis": "redis",
    }
    assert all("healthcheck" in service for service in services.values())
    for name in ("server1", "server2"):
        assert "http://127.0.0.1:8000/readyz" in " ".join(services[name]["healthcheck"]["test"])
        assert services["nginx"]["depends_on"][name] == {"condition": "service_healthy"}
    assert "/readyz" in " ".join(services["nginx"]["healthcheck"]["test"])
    assert services["caddy"]["depends_on"]["nginx"] == {"condition": "service_healthy"}


def test_the_caddyfile_is_valid_for_the_environment_compose_gives_it(tmp_path: Path) -> None:
    caddy = shutil.which("caddy")
    if caddy is None:
        unavailable("Caddy", "not installed")
    environment = {
        **os.environ,
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path),
    }
    environment |= {name: str(value) for name, value in compose()["services"]["caddy"]["environment"].items()}
    environment |= {"CHICKENFOOT_HOST": "play.example.org", "CHICKENFOOT_TLS": "operator@example.org"}
    command = [caddy, "validate", "--config", str(DEPLOY / "Caddyfile"), "--adapter", "caddyfile"]
    checked = subprocess.run(command, env=environment, capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stderr[-2000:]


def test_nginx_accepts_the_main_file_and_the_site(tmp_path: Path) -> None:
    try:
        nginx = nginx_binary()
    except RuntimeError as exc:
        unavailable("nginx", exc)
    site = tmp_path / "site.conf"
    site.write_text(render_site(TEMPLATE, "127.0.0.1:1 default_server", ["127.0.0.1:2", "127.0.0.1:3"]))
    (tmp_path / "nginx.conf").write_text(main_file(MAIN, site))
    command = [nginx, "-t", "-p", f"{tmp_path}/", "-c", "nginx.conf", "-e", "stderr", "-g", "pid nginx.pid;"]
    checked = subprocess.run(command, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    text = MAIN.read_text()
    connections = int(re.search(r"worker_connections (\d+);", text).group(1))  # type: ignore[union-attr]
    files = int(re.search(r"worker_rlimit_nofile (\d+);", text).group(1))  # type: ignore[union-attr]
    # The README's 400 tables of eight are 3,200 sockets, two nginx connections each.
    assert connections >= 2 * 3200 and files >= 2 * connections


SOCKETS = 600
"""More table sockets than one nginx worker carries with the default worker_connections (1024, two
connections a socket)."""
ADDRESSES = [f"127.0.0.{n}" for n in range(2, 12)]
"""The watchers' addresses: 60 sockets from each, under the caps of one address (nginx's and the server's, 64)."""
TABLES = 4
"""Tables the watchers spread over: 150 sockets at each, under a table's cap (200)."""


def test_the_main_file_carries_more_sockets_than_nginxs_default_and_the_client_address(tmp_path: Path) -> None:
    try:
        nginx_binary()
    except RuntimeError as exc:
        unavailable("nginx", exc)
    backend, port = free_port(), free_port()
    trusted = ["--forwarded-allow-ips", "127.0.0.1", "--table-limit", "1/minute"]
    # The sockets arrive together: the server's own bound on handshakes in progress is not what is measured.
    others = ["--connection-limit", "1000000/minute", "--cutoff-pause", "off", "--opening-sockets", "1000"]
    database = f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    # One worker, whatever the cores: what one worker carries is what the file sets.
    main = tmp_path / "nginx.conf"
    main.write_text(MAIN.read_text().replace("worker_processes auto;", "worker_processes 1;"))
    with served(backend, database, options=[*trusted, *others]), proxied(port, [backend], TEMPLATE, main=main):
        base = f"http://127.0.0.1:{port}"
        seats = {"seats": [{"kind": "human"}, {"kind": "human"}]}
        codes = []
        for address in ADDRESSES[:TABLES]:  # one table a minute from each address
            transport = httpx.HTTPTransport(local_address=address)
            with httpx.Client(base_url=base, transport=transport) as client:
                created = client.post("/api/tables", json=seats)
            assert created.status_code == 201
            codes.append(created.json()["code"])
        # nginx replaces the X-Forwarded-For a client sends: a forged one is no new client.
        assert httpx.post(f"{base}/api/tables", json=seats).status_code == 201
        forged = httpx.post(f"{base}/api/tables", json=seats, headers=FORGED)
        assert forged.status_code == 429 and forged.json()["code"] == "error.too_many_tables"

        async def watchers() -> int:
            sockets = [
                await connect(f"ws://127.0.0.1:{port}/ws/{codes[n % TABLES]}", local_addr=(address, 0))
                for n in range(SOCKETS)
                for address in [ADDRESSES[n % len(ADDRESSES)]]
            ]
            try:
                states = [json.loads(await ws.recv())["type"] for ws in sockets]
            finally:
                await asyncio.gather(*(ws.close() for ws in sockets))
            return states.count("state")

        assert asyncio.run(watchers()) == SOCKETS


def entry_command() -> list[str]:
    """The image's ``CMD``, as the Dockerfile gives it."""
    line = next(line for line in (DEPLOY / "Dockerfile").read_text().splitlines() if line.startswith("CMD "))
    return list(json.loads(line.removeprefix("CMD ")))


def in_data(command: list[str], data: Path, port: int) -> list[str]:
    """``command`` with the image's /data under ``data`` and its port ``port``, run by this Python."""
    moved = [argument.replace("////data/", f"///{data}/") for argument in command]
    moved[moved.index("--port") + 1] = str(port)
    assert moved[0] == "chickenfoot"
    return [sys.executable, "-m", "chickenfoot", *moved[1:]]


def read_only(directory: Path) -> list[str]:
    """A prefix that runs a command with ``directory`` read-only, as a volume mounted ``:ro`` is."""
    if os.geteuid() != 0:
        directory.chmod(0o555)
        return []
    probe = subprocess.run(["unshare", "-m", "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("root without mount namespaces: no way to make a directory read-only here")
    mount = f'mount --bind -o ro "{directory}" "{directory}" && exec "$@"'
    return ["unshare", "-m", "sh", "-c", mount, "sh"]


def test_the_images_entry_command_serves_from_a_writable_data_directory(tmp_path: Path) -> None:
    port = free_port()
    process = subprocess.Popen(in_data(entry_command(), tmp_path, port), stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        assert "Chicken Foot is served" in process.stdout.readline()  # printed once the games file is writable
        deadline = time.monotonic() + 60
        while True:  # the port is open once the server answers: nothing tells before
            try:
                answer = httpx.get(f"http://127.0.0.1:{port}/api/presets", headers={"Host": "localhost"})
                break
            except httpx.TransportError:
                assert process.poll() is None, "the server stopped"
                assert time.monotonic() < deadline, "the server did not answer within 60 s"
                time.sleep(0.1)
        assert answer.status_code == 200
        assert (tmp_path / "games.db").is_file()
    finally:
        process.kill()
        process.wait()


def test_the_images_entry_command_refuses_a_read_only_data_directory_in_one_line(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    command = [*read_only(data), *in_data(entry_command(), data, free_port())]
    ran = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert ran.returncode == 1
    assert ran.stderr.strip().splitlines() == [
        f"chickenfoot: error: cannot write the games file {data / 'games.db'}: Read-only file system"
        if os.geteuid() == 0
        else f"chickenfoot: error: cannot write the games file {data / 'games.db'}: Permission denied"
    ]


@pytest.mark.timeout(900)
def test_the_dockerfiles_build_steps_replayed_in_venvs_build_the_compiled_core() -> None:
    if not os.environ.get("CI") and not os.environ.get("CHICKENFOOT_REPLAY_DOCKERFILE"):
        pytest.skip("minutes of wheel building: CI runs it (or set CHICKENFOOT_REPLAY_DOCKERFILE=1)")
    script = DEPLOY.parent / "scripts" / "replay-dockerfile.py"
    ran = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=880)
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert json.loads(ran.stdout.strip().splitlines()[-1]) == entry_command()


STUBS = {
    "pg_lsclusters": 'printf "15 other 5433 down postgres /o /o.log\\n15 main 5432 down postgres /m /m.log\\n"',
    "pg_ctlcluster": 'echo "pg_ctlcluster $*" >> "$STUB_LOG"',
    "pg_createcluster": 'echo "pg_createcluster $*" >> "$STUB_LOG"',
    "psql": "echo 1",
    "createdb": "true",
    "runuser": 'while [ "$1" != -- ]; do shift; done; shift; exec "$@"',
    "sudo": 'if [ "$1" = -u ]; then shift 2; fi; exec "$@"',
}
"""Stand-ins for PostgreSQL's Debian tools: two clusters, the first listed not on the tests' port."""


@pytest.mark.parametrize(
    ("chosen", "started"), [({}, "15 main start"), ({"CHICKENFOOT_PG_CLUSTER": "15/other"}, "15 other start")]
)
def test_the_test_services_start_the_cluster_on_the_tests_port_or_the_one_named(
    tmp_path: Path, chosen: dict[str, str], started: str
) -> None:
    for name, body in STUBS.items():
        stub = tmp_path / name
        stub.write_text(f"#!/usr/bin/env bash\n{body}\n")
        stub.chmod(0o755)
    log = tmp_path / "log"
    environment = {
        **os.environ,
        **chosen,
        "PATH": f"{tmp_path}{os.pathsep}{os.environ['PATH']}",
        "STUB_LOG": str(log),
        # The other services are someone else's test: their variables make the script leave them be.
        "CHICKENFOOT_TEST_REDIS_URL": "redis://127.0.0.1:1/0",
        "CHICKENFOOT_AXE": "/nowhere/axe.min.js",
    }
    environment.pop("CHICKENFOOT_TEST_DATABASE_URL", None)
    installed = [shutil.which(tool) for tool in ("caddy", "pg_dump")] + [Path("/usr/bin/chromium").exists()]
    if not all(installed) or not (shutil.which("nginx") or Path("/usr/sbin/nginx").exists()):
        pytest.skip("the script would install packages here; run scripts/test-services.sh first")
    script = DEPLOY.parent / "scripts" / "test-services.sh"
    ran = subprocess.run(["bash", str(script)], env=environment, capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    assert log.read_text().splitlines() == [f"pg_ctlcluster {started}"]
