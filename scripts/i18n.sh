#!/usr/bin/env bash
# The catalogs: extract every message of chickenfoot.messages, merge it into each language's .po,
# and compile the .mo files the game reads. Run after changing a message or a translation; the
# tests fail while a .po lacks a message or a .mo is older than its .po.
#   scripts/i18n.sh           extract, update, compile
#   scripts/i18n.sh compile   compile only (after editing translations)
set -euo pipefail
cd "$(dirname "$0")/.."
LOCALES=src/chickenfoot/locales
if [ "${1:-}" != compile ]; then
    template=$(mktemp --suffix=.pot)
    trap 'rm -f "$template"' EXIT
    pybabel -q extract -F babel.cfg --no-default-keywords -k msg:1c,2 -k nmsg:1c,2,3 --no-location \
        --project chickenfoot --copyright-holder "the chickenfoot authors" -o "$template" src/chickenfoot
    pybabel -q update -i "$template" -d "$LOCALES" -D chickenfoot --ignore-obsolete --no-wrap
fi
pybabel compile -d "$LOCALES" -D chickenfoot --statistics
