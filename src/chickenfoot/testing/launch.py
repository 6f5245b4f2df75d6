"""Start ``chickenfoot serve`` (and nginx in front of several) in child processes: for tests and benchmarks."""

from __future__ import annotations

import os
import shutil
import socket
import string
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO

NGINX_MAIN = """\
daemon off;
worker_processes 1;
pid nginx.pid;
error_log error.log warn;
events {{ worker_connections 4096; }}
http {{
    log_format upstream '$status $request_method $uri $upstream_addr';
    access_log access.log upstream;
    client_body_temp_path client_body;
    proxy_temp_path proxy;
    fastcgi_temp_path fastcgi;
    uwsgi_temp_path uwsgi;
    scgi_temp_path scgi;
    include {site};
}}
"""
"""nginx's main file around a site file; relative paths are under its prefix directory."""

OPEN_LIMITS = (
    *("--connection-limit", "1000000/minute", "--table-limit", "1000000/minute"),
    *("--chat-limit", "1000000/minute", "--cutoff-pause", "off", "--replay-limit", "1000000/minute"),
    *("--quick-play-limit", "1000000/minute", "--quick-play-per-address", "1000"),
)
"""``chickenfoot serve`` options for scripted runs: all their clients share 127.0.0.1, so the limits
per client address are raised out of the way."""


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def served(
    port: int,
    database_url: str,
    *,
    redis_url: str | None = None,
    pace: float = 0.0,
    output: IO[str] | int = subprocess.DEVNULL,
    timeout: float = 30.0,
    options: Sequence[str] = (),
    review_budget: int | None = None,
    env: Mapping[str, str] | None = None,
) -> Iterator[subprocess.Popen[str]]:
    """A running server on ``127.0.0.1:port``, killed on exit; raises ``RuntimeError`` if it never answers.

    ``redis_url``: one of several processes sharing that Redis; ``options`` are more ``chickenfoot
    serve`` options (limits, expiry); ``env``: the server's environment (this process's when ``None``).
    """
    command = [sys.executable, "-m", "chickenfoot", "serve", "--port", str(port), "--database-url", database_url]
    command += [] if redis_url is None else ["--redis-url", redis_url]
    command += ["--pace", str(pace), *options]
    command += [] if review_budget is None else ["--review-budget", str(review_budget)]
    process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/presets", timeout=2).close()
                break
            except urllib.error.HTTPError:
                break  # it answers: a refusal is an answer too (its --allowed-host need not name 127.0.0.1)
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"chickenfoot serve did not start on port {port}") from None
                time.sleep(0.1)
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()


def render_site(template: Path, listen: str, servers: Sequence[str]) -> str:
    """An nginx site file from ``template`` (see deploy/nginx.conf.template), as the nginx image renders it."""
    upstreams = " ".join(f"server {server} max_fails=0;" for server in servers)
    return string.Template(template.read_text()).safe_substitute(
        CHICKENFOOT_LISTEN=listen, CHICKENFOOT_SERVERS=upstreams
    )


def nginx_binary() -> str:
    """The nginx executable (Debian's lives outside a normal user's PATH); ``RuntimeError`` if missing."""
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not os.access(nginx, os.X_OK):
        raise RuntimeError("nginx is not installed")
    return nginx


SITES = "include /etc/nginx/conf.d/*.conf;"
"""The line of a deployment's main file (deploy/nginx.conf) that includes the sites."""


def main_file(main: Path, site: Path) -> str:
    """A deployment's main nginx file (``main``) including ``site`` instead of ``conf.d``."""
    text = main.read_text()
    if SITES not in text:
        raise RuntimeError(f"{main} does not include the sites ({SITES})")
    return text.replace(SITES, f"include {site};")


@contextmanager
def proxied(
    port: int, backends: Sequence[int], template: Path, *, main: Path | None = None, timeout: float = 10.0
) -> Iterator[Path]:
    """nginx on ``127.0.0.1:port`` in front of servers on ``127.0.0.1:backends``, stopped on exit.

    ``main``: a deployment's main file (deploy/nginx.conf) rather than a minimal one; its temporary
    files and logs go where that nginx was built to put them. Yields nginx's directory: with the
    minimal main file, its ``access.log`` ends each request's line with the servers tried. Raises
    ``RuntimeError`` when nginx is missing, ``nginx -t`` refuses the configuration, or it never answers.
    """
    nginx = nginx_binary()
    with tempfile.TemporaryDirectory(prefix="chickenfoot-nginx-") as name:
        directory = Path(name)
        directory.chmod(0o755)  # nginx's workers run as another user when started by root
        site = directory / "chickenfoot.conf"
        site.write_text(render_site(template, f"127.0.0.1:{port}", [f"127.0.0.1:{b}" for b in backends]))
        (directory / "nginx.conf").write_text(NGINX_MAIN.format(site=site) if main is None else main_file(main, site))
        command = [nginx, "-p", f"{directory}/", "-c", "nginx.conf", "-e", "stderr"]
        if main is not None:
            command += ["-g", "daemon off; pid nginx.pid;"]
        check = subprocess.run([*command, "-t", "-q"], capture_output=True, text=True)
        if check.returncode != 0:
            raise RuntimeError(f"nginx refuses the configuration: {check.stderr.strip()}")
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + timeout
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    if process.poll() is not None or time.monotonic() > deadline:
                        said = process.stderr.read().strip() if process.poll() is not None and process.stderr else ""
                        raise RuntimeError(f"nginx did not start on port {port}: {said}") from None
                    time.sleep(0.05)
            yield directory
        finally:
            process.terminate()
            process.wait()
