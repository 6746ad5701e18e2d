#!/usr/bin/env bash
# Runs every TypeScript test (files named *.test.ts beside their modules) with node's test runner.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(find cli graph-builder emulator profiler graph-viewer corpus replay shaper scripts -name '*.test.ts' -not -path '*/node_modules/*' | sort)
if [ "${#files[@]}" -eq 0 ]; then echo "no TypeScript tests found" >&2; exit 1; fi
exec node --import tsx --test --test-concurrency="${TEST_CONCURRENCY:-2}" "${files[@]}"
