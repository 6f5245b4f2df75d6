"""Write the OpenAPI description of the Bot API, taken from the server's own, for the documentation.

    python scripts/bot_api_openapi.py             # writes docs/research/bot-api.openapi.json
    python scripts/bot_api_openapi.py --check     # exit 1 if that file differs from the server's routes

The server describes all its HTTP routes (``chickenfoot serve --debug`` serves it at ``/openapi.json``);
the Bot API is the part a program playing as a bot account uses: ``/api/bot/...``, ``/api/bots``, the
account's tokens, and the invitation of a bot account to a seat. This keeps those paths and the schemas
they name, adds the bearer token they are called with, and writes them with sorted keys, so the file
changes only when the routes do (``tests/docs/test_bot_api_openapi.py`` checks it).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "research" / "bot-api.openapi.json"
BOT_API = ("/api/bot/", "/api/bots", "/api/account/tokens")
INVITE = "/api/tables/{code}/seats/{seat}/invite"


def server_description() -> dict[str, Any]:
    """The server's whole OpenAPI description, from an application built but not started."""
    from chickenfoot.server.app import Settings, create_app

    with tempfile.TemporaryDirectory() as directory:
        app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{directory}/unused.db"))
        return app.openapi()


def referenced(value: Any) -> set[str]:
    """The names of the component schemas ``value`` refers to, directly."""
    if isinstance(value, dict):
        found = {value["$ref"].rsplit("/", 1)[-1]} if "$ref" in value else set()
        return found.union(*(referenced(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(referenced(v) for v in value))
    return set()


def bot_api(whole: dict[str, Any]) -> dict[str, Any]:
    """The Bot API's part of the server's description."""
    paths = {path: item for path, item in whole["paths"].items() if path.startswith(BOT_API) or path == INVITE}
    schemas = whole.get("components", {}).get("schemas", {})
    wanted: set[str] = set()
    todo = referenced(paths)
    while todo:
        name = todo.pop()
        wanted.add(name)
        todo |= referenced(schemas[name]) - wanted
    for path, item in paths.items():
        if path.startswith("/api/bot/"):
            for operation in item.values():
                operation["security"] = [{"token": []}]
    return {
        "openapi": whole["openapi"],
        "info": {
            "title": "chickenfoot Bot API",
            "version": whole["info"]["version"],
            "description": "Programs playing on a chickenfoot server as bot accounts: docs/research/bot-api.md.",
        },
        "paths": paths,
        "components": {
            "schemas": {name: schemas[name] for name in sorted(wanted)},
            "securitySchemes": {
                "token": {"type": "http", "scheme": "bearer", "description": "A bot account's token, cfb_..."}
            },
        },
    }


def text() -> str:
    return json.dumps(bot_api(server_description()), indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    if parser.parse_args().check:
        if OUT.read_text(encoding="utf-8") != text():
            sys.exit(f"{OUT.relative_to(ROOT)} differs from the server's routes: run python scripts/bot_api_openapi.py")
        return
    OUT.write_text(text(), encoding="utf-8")


if __name__ == "__main__":
    main()
