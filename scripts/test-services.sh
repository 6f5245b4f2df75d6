#!/usr/bin/env bash
# Installs what the test suite needs beyond Python packages, when it is missing.
set -euo pipefail
