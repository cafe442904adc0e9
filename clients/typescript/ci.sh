#!/usr/bin/env bash
# CI for the TypeScript starter bot: installs the pinned packages, checks that the generated
# code checked in is exactly what `npm run generate` makes from proto/, type-checks and builds,
# and runs the tests against the server binary PITCHMATE_SERVER_BIN names (default: the
# repository's target/debug/pitchmate).
set -euo pipefail
if [ -n "${PITCHMATE_SERVER_BIN:-}" ]; then
  PITCHMATE_SERVER_BIN="$(realpath "$PITCHMATE_SERVER_BIN")"
  export PITCHMATE_SERVER_BIN
fi
cd "$(dirname "$0")"

echo "== npm ci"
npm ci --no-audit --no-fund

echo "== generated code matches proto/"
npm run generate
changed="$(git status --porcelain -- .)"
if [ -n "$changed" ]; then
  echo "$changed"
  git --no-pager diff --stat -- .
  echo "the generated code differs from what npm run generate makes: regenerate and commit src/gen" >&2
  exit 1
fi

echo "== type-check and build"
npm run build

echo "== tests"
npm test
