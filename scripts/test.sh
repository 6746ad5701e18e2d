#!/usr/bin/env bash
# The one test command (README): installs what is missing, then runs every check and test.
set -euo pipefail
cd "$(dirname "$0")/.."
for arg in "$@"; do
  if [ "$arg" = "--help" ] || [ "$arg" = "-h" ]; then
    echo "usage: npm test"
    echo
    echo "Installs what is missing (scripts/setup.sh), then runs every check: typecheck, ruff, the TypeScript"
    echo "tests (scripts/run-node-tests.sh), the Python tests, the server-delays fidelity check and the rule"
    echo "fidelity of trace graphs (real Chromium). Exit status 1 when any fails."
    exit 0
  fi
done
bash scripts/setup.sh
PY=${PYTHON:-python3}

echo "== typecheck" >&2
npx tsc -p tsconfig.json --noEmit
echo "== ruff" >&2
"$PY" -m ruff check server-delays corpus/python
echo "== TypeScript tests" >&2
bash scripts/run-node-tests.sh
echo "== Python tests" >&2
(cd server-delays && "$PY" -m pytest -q)
(cd corpus/python && "$PY" -m pytest -q)
echo "== server-delays fidelity (real Chromium, tcpdump on lo)" >&2
"$PY" server-delays/fidelity/run.py --check
echo "== rule fidelity of trace graphs (real Chromium on the ground-truth suite)" >&2
npm run -s fidelity:rules
