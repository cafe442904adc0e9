#!/usr/bin/env bash
# CI for the web board: installs the pinned packages, checks that the generated code and the
# built page checked in are exactly what `npm run generate` and `npm run build` make (the
# server compiles dist/ into its binary), then runs the browser tests: Debian's chromium
# (CHROMIUM_BIN, default /usr/bin/chromium) against the server binary PITCHMATE_SERVER_BIN names
# (default: the repository's target/debug/pitchmate). Screenshots land in screenshots/.
set -euo pipefail
if [ -n "${PITCHMATE_SERVER_BIN:-}" ]; then
  PITCHMATE_SERVER_BIN="$(realpath "$PITCHMATE_SERVER_BIN")"
  export PITCHMATE_SERVER_BIN
fi
cd "$(dirname "$0")"

echo "== npm ci"
npm ci --no-audit --no-fund

echo "== generated code and built page match proto/ and src/"
npm run generate
npm run build
changed="$(git status --porcelain -- .)"
if [ -n "$changed" ]; then
  echo "$changed"
  git --no-pager diff --stat -- .
  echo "src/gen or dist differs from what npm run generate && npm run build make: rebuild and commit them" >&2
  exit 1
fi

echo "== browser tests"
npm test
