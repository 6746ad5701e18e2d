#!/usr/bin/env bash
# Runs every TypeScript test (files named *.test.ts beside their modules) with node's test runner.
set -euo pipefail
cd "$(dirname "$0")/.."
case " $* " in
  *" --help "* | *" -h "*)
    echo "usage: npm run test:node"
    echo
    echo "Every TypeScript test (*.test.ts beside its module) under node's test runner, TEST_CONCURRENCY (default 2)"
    echo "files at a time: npm test's TypeScript step alone (no set-up, typecheck, ruff, Python tests or fidelity checks)."
    exit 0
    ;;
esac
mapfile -t files < <(find cli graph-builder emulator profiler graph-viewer corpus replay shaper synth scripts -name '*.test.ts' -not -path '*/node_modules/*' | sort)
if [ "${#files[@]}" -eq 0 ]; then echo "no TypeScript tests found" >&2; exit 1; fi
exec node --import tsx --test --test-concurrency="${TEST_CONCURRENCY:-2}" "${files[@]}"
