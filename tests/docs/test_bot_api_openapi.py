"""The Bot API's OpenAPI description on the site is the server's own, for the routes the server has now."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("bot_api_openapi", ROOT / "scripts" / "bot_api_openapi.py")
assert spec is not None and spec.loader is not None
generator = importlib.util.module_from_spec(spec)
spec.loader.exec_module(generator)


def test_the_committed_description_is_the_servers() -> None:
    committed = generator.OUT.read_text(encoding="utf-8")
    assert committed == generator.text(), "run python scripts/bot_api_openapi.py and commit the file"


def test_it_holds_every_bot_route_and_no_other() -> None:
    paths = json.loads(generator.OUT.read_text(encoding="utf-8"))["paths"]
    assert {"/api/bot/stream", "/api/bot/tables/{code}/move", "/api/bots", "/api/account/tokens"} <= set(paths)
    assert all(path.startswith(generator.BOT_API) or path == generator.INVITE for path in paths)
    moves = paths["/api/bot/tables/{code}/move"]["post"]
    assert moves["security"] == [{"token": []}]
    assert moves["requestBody"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/MoveBody"}
