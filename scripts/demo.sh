#!/usr/bin/env bash
# The one-command demo (README: npm run demo): installs what is missing, profiles the bundled example
# site with the real Chromium, builds its dependency graph and opens it in the viewer, printing the URL.
#
#   npm run demo                                  serve until Ctrl-C on http://127.0.0.1:8737/
#   npm run demo -- --port 0 --exit-after-ready   start, check the graph loads, print the URL, exit (CI)
#
# Environment: PCP_DEMO_GRAPH=<file> shows that graph instead of profiling; PCP_SKIP_SETUP=1 skips
# scripts/setup.sh (tests that already ran it).
set -euo pipefail
cd "$(dirname "$0")/.."

for arg in "$@"; do
  if [ "$arg" = "--help" ] || [ "$arg" = "-h" ]; then
    cat <<'USAGE'
usage: npm run demo [-- --port N] [--exit-after-ready] [pcp view options]

Installs what is missing (scripts/setup.sh), profiles the bundled example site in real Chromium (with a
packet capture for server delays), builds its dependency graph into out/demo/graph.json and opens it in
the viewer on http://127.0.0.1:8737/ (serves until Ctrl-C). --port 0 --exit-after-ready: start, check
the graph loads, print the URL and exit. PCP_DEMO_GRAPH=FILE shows that graph instead of profiling;
PCP_SKIP_SETUP=1 skips the set-up. Other options go to pcp view (pcp view --help).
USAGE
    exit 0
  fi
done

if [ -z "${PCP_SKIP_SETUP:-}" ]; then bash scripts/setup.sh; fi

# demo_graph prints the path of the graph to show: the bundled example site (profiler/example-site),
# served on loopback by the profiler's test server under two origins, profiled with the real Chromium
# (with a packet capture, for server delays), and built into out/demo/graph.json.
demo_graph() {
  if [ -n "${PCP_DEMO_GRAPH:-}" ]; then echo "$PCP_DEMO_GRAPH"; return; fi
  local out=out/demo
  rm -rf "$out" && mkdir -p "$out"
  # setpriv --pdeathsig: the server ends with this script, even when the script is killed with SIGKILL.
  local tie=()
  if command -v setpriv >/dev/null 2>&1; then tie=(setpriv --pdeathsig TERM --); fi
  "${tie[@]}" node --import tsx profiler/test-server/cli.ts --root profiler/example-site --origin a --origin b >"$out/server.json" 2>"$out/server.log" &
  DEMO_SERVER=$!
  trap 'kill "${DEMO_SERVER:-}" 2>/dev/null || true' EXIT
  for _ in $(seq 1 100); do [ -s "$out/server.json" ] && break; sleep 0.2; done
  if [ ! -s "$out/server.json" ]; then
    echo "demo: the example site's server did not start: $(tail -n 1 "$out/server.log")" >&2
    return 1
  fi
  local url rules
  url=$(node -e 'const s=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8").split("\n")[0]); console.log(s.urls.a + "index.html")' "$out/server.json")
  rules=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1],"utf8").split("\n")[0]).hostResolverRules)' "$out/server.json")
  echo "demo: profiling $url with Chromium" >&2
  if ! node cli/bin/pcp.js profile "$url" --out "$out/bundle" --host-resolver-rules "$rules" --pcap >&2; then
    echo "demo: profiling with a packet capture failed; trying without (no server delays)" >&2
    node cli/bin/pcp.js profile "$url" --out "$out/bundle" --host-resolver-rules "$rules" --force >&2
  fi
  kill "$DEMO_SERVER" 2>/dev/null || true
  node cli/bin/pcp.js build "$out/bundle" --out "$out/graph.json" >&2
  echo "$out/graph.json"
}

graph=$(demo_graph)
# The viewer's graph id is the file name without .json / .json.gz.
id=$(basename "$graph")
id=${id%.gz}
id=${id%.json}
echo "demo: opening $graph" >&2
exec node cli/bin/pcp.js view "$graph" --open "$id" "$@"
