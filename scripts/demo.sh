#!/usr/bin/env bash
# The one-command demo (README: npm run demo): installs what is missing, produces a dependency graph
# and opens it in the viewer, printing the URL.
#
#   npm run demo                                  serve until Ctrl-C on http://127.0.0.1:8737/
#   npm run demo -- --port 0 --exit-after-ready   start, check the graph loads, print the URL, exit (CI)
#
# Environment: PCP_DEMO_GRAPH=<file> shows that graph instead; PCP_SKIP_SETUP=1 skips scripts/setup.sh
# (tests that already ran it); PCP_SHARED locates the shared data (default ../shared).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${PCP_SKIP_SETUP:-}" ]; then bash scripts/setup.sh; fi

SHARED=${PCP_SHARED:-../shared}

# demo_graph prints the path of the graph to show. The final pipeline replaces its body with:
#   start the bundled example site (profiler/example-site) on loopback with the profiler's test server,
#   `pcp profile` it with the real Chromium into out/demo/, `pcp build` the graph (with server delays
#   when the capture has them) into out/demo/graph.json, and print that path.
# Until then it shows a reference graph of the legacy corpus.
demo_graph() {
  if [ -n "${PCP_DEMO_GRAPH:-}" ]; then echo "$PCP_DEMO_GRAPH"; return; fi
  local legacy="$SHARED/legacy-corpus/graphs/www.bild.de.json.gz"
  if [ ! -f "$legacy" ]; then
    echo "demo: no graph to show: $legacy is missing (set PCP_SHARED or PCP_DEMO_GRAPH)" >&2
    return 1
  fi
  echo "$legacy"
}

graph=$(demo_graph)
# The viewer's graph id is the file name without .json / .json.gz.
id=$(basename "$graph")
id=${id%.gz}
id=${id%.json}
echo "demo: opening $graph" >&2
exec node cli/bin/pcp.js view "$graph" --open "$id" "$@"
