"""An MkDocs hook: an OpenAPI description shown as a page, each operation with its parameters and body.

A page writes ``{{ openapi FILE }}`` (a path under ``docs/``); the hook puts there, for every path and
method of that description, what to send and what comes back. The file itself is copied to the site
beside the page, for tools that read OpenAPI.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

DOCS = Path(__file__).resolve().parents[1]
PLACEHOLDER = re.compile(r"\{\{ openapi (?P<file>[\w./-]+) \}\}")
LIMITS = {
    "minLength": "at least {} characters",
    "maxLength": "at most {} characters",
    "minimum": "at least {}",
    "maximum": "at most {}",
    "minItems": "at least {} items",
    "maxItems": "at most {} items",
}


def kind(schema: dict[str, Any]) -> str:
    """A schema's type in a few words."""
    if "$ref" in schema:
        return f"`{schema['$ref'].rsplit('/', 1)[-1]}`"
    if "anyOf" in schema:
        return " or ".join(kind(option) for option in schema["anyOf"])
    if "enum" in schema:
        return " or ".join(f"`{json.dumps(value)}`" for value in schema["enum"])
    if schema.get("type") == "array":
        return f"list of {kind(schema.get('items', {}))}"
    return f"{schema.get('type', 'any')}"


def limits(schema: dict[str, Any]) -> str:
    found = [text.format(schema[key]) for key, text in LIMITS.items() if key in schema]
    return ", ".join(found)


def fields(name: str, schemas: dict[str, Any]) -> list[str]:
    """The table of a body schema's fields."""
    schema = schemas[name]
    required = set(schema.get("required", []))
    rows = ["| field | type | required | what |", "| --- | --- | --- | --- |"]
    for field, spec in schema.get("properties", {}).items():
        what = "; ".join(part for part in (spec.get("description", ""), limits(spec)) if part)
        if "default" in spec:
            what = "; ".join(part for part in (what, f"default `{json.dumps(spec['default'])}`") if part)
        rows.append(f"| `{field}` | {kind(spec)} | {'yes' if field in required else 'no'} | {what} |")
    return rows


def nested(schema: dict[str, Any]) -> set[str]:
    """The object schemas a body's fields are made of (``opponents``: a list of ``Opponent``)."""
    found = set()
    for spec in schema.get("properties", {}).values():
        for part in (spec, spec.get("items", {}), *spec.get("anyOf", [])):
            if "$ref" in part:
                found.add(part["$ref"].rsplit("/", 1)[-1])
    return found


def operation(path: str, method: str, op: dict[str, Any], schemas: dict[str, Any]) -> list[str]:
    lines = [f"### `{method.upper()} {path}`", ""]
    if "description" in op:
        lines += [op["description"], ""]
    lines += ["Authorization: `Bearer cfb_...` (a bot account's token)." if "security" in op else "", ""]
    parameters = op.get("parameters", [])
    if parameters:
        lines += ["| parameter | in | type |", "| --- | --- | --- |"]
        lines += [f"| `{p['name']}` | {p['in']} | {kind(p.get('schema', {}))} |" for p in parameters]
        lines.append("")
    body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
    if body is not None and "$ref" in body:
        name = body["$ref"].rsplit("/", 1)[-1]
        lines += [f"Body: a JSON object (`{name}`):", "", *fields(name, schemas), ""]
        for inner in sorted(nested(schemas[name])):
            lines += [f"`{inner}`:", "", *fields(inner, schemas), ""]
    answers = ", ".join(f"{code} {answer['description'].lower()}" for code, answer in op["responses"].items())
    lines += [f"Answers: {answers}; refusals as on [the Bot API](bot-api.md#calling-the-api).", ""]
    return lines


def rendered(file: str) -> str:
    spec = json.loads((DOCS / file).read_text(encoding="utf-8"))
    schemas = spec.get("components", {}).get("schemas", {})
    lines: list[str] = []
    for path, item in spec["paths"].items():
        for method, op in item.items():
            lines += operation(path, method, op, schemas)
    return "\n".join(lines)


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    return PLACEHOLDER.sub(lambda found: rendered(found["file"]), markdown)
