#!/usr/bin/env bash
# Refresh Unicode's confusables data (UTS #39), shipped with the package for usernames' skeletons.
# Run by hand when Unicode publishes a new version; then run tests/server/accounts and commit the file.
# Changing the data changes skeletons: ship it with a migration that recomputes them (see 0008_profiles).
set -euo pipefail
target="$(dirname "$0")/../src/chickenfoot/server/accounts/data/confusables.txt"
curl -fsSL https://www.unicode.org/Public/security/latest/confusables.txt | sed '1s/^\xEF\xBB\xBF//' >"$target.new"
grep -q '^# Unicode Security Mechanisms for UTS #39' "$target.new"  # the licence header came along
mv "$target.new" "$target"
head -8 "$target"
