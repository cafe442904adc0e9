#!/usr/bin/env bash
# Checks the Python starter bot: installs the pinned requirements into a virtual environment,
# regenerates the code from proto/ and fails if that changed anything checked in, checks the
# hand-written code's style (ruff), then runs the tests against the real server binary.
#
#   PITCHMATE_SERVER_BIN=target/debug/pitchmate clients/python/ci.sh [VENV_DIR]
#
# VENV_DIR defaults to target/python-venv under the repository's root (ignored by git); an
# existing one is reused.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
venv="${1:-$repo/target/python-venv}"
python="${PYTHON:-python3.11}"

if [[ -z "${PITCHMATE_SERVER_BIN:-}" ]]; then
    echo "ci.sh: set PITCHMATE_SERVER_BIN to the server binary (e.g. target/debug/pitchmate)" >&2
    exit 2
fi
# The tests start the server from their own folder: make a relative path absolute first.
PITCHMATE_SERVER_BIN="$(cd "$(dirname "$PITCHMATE_SERVER_BIN")" && pwd)/$(basename "$PITCHMATE_SERVER_BIN")"
export PITCHMATE_SERVER_BIN

if [[ ! -x "$venv/bin/python" ]]; then
    "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/requirements-dev.txt"

"$venv/bin/python" "$here/generate.py"
changed="$(git -C "$repo" status --porcelain -- clients/python)"
if [[ -n "$changed" ]]; then
    echo "ci.sh: regenerating from proto/ changed these files; run 'python generate.py' in clients/python and commit:" >&2
    echo "$changed" >&2
    exit 1
fi

cd "$here"
"$venv/bin/ruff" check .
"$venv/bin/ruff" format --check .
"$venv/bin/python" -m pytest
