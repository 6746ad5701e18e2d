"""Ground-truth fidelity of server-delay recovery (npm run fidelity:delays).

Serves a page from four origins on 127.0.0.1 (two HTTP/1.1 cleartext, two HTTPS), each resource held
for a known delay (0-500 ms, seeded), loads it in headless Chromium while tcpdump captures `lo`,
then recovers the delays from the capture three ways and prints their error against the injected:
  cleartext            HTTP/1.x parsing                    target: median |err| <= 2 ms, p90 <= 5 ms
  https+keylog         tshark decryption with the key log  target: the same
  https by order       the thesis' per-host ordering       target: >= 90% within 5 ms
Exits 1 when a target is missed. These targets are timing figures (a benchmark): on a busy machine a
server's write or tcpdump's timestamp can be late by more than 2 ms.

`run.py --check` is the correctness check that `npm test` runs: every injected delay is recovered by
every method and paired with its own request (no resource unmeasured), no recovered delay is shorter
than what the server held (the wire cannot show less; CPU contention only adds), and the median excess
stays far below a gross error (see CHECK_UNDER_MS). It prints the same figures and exits 1 only when that
check fails.
"""

from __future__ import annotations

import ctypes
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "src"))

from server_delays import pipeline  # noqa: E402
from server_delays.script_args import script_flags  # noqa: E402

ORIGINS = [("a", False), ("b", False), ("s1", True), ("s2", True), ("h2", True)]
H2 = {"h2"}  # HTTP/2 over TLS: recoverable only through the key log
DOMAIN = "pcp.test"
KINDS = [".css", ".js", ".png", ".png", ".json"]
# The --check bounds. A server holds a response between reading the request and writing the answer, so
# the delay seen on the wire (request's last byte -> response's first byte) is never shorter than what
# the server logged; CPU contention only lengthens it (a stalled server or tcpdump: errors of 100+ ms
# were seen at load average 20-60 on 2 cores). So the check is one-sided: no recovered delay may fall
# more than CHECK_UNDER_MS below the held one (a response paired with another request's, delays being
# drawn from 0-500 ms, does so for about half the requests), and the median may not exceed the held
# by more than CHECK_MEDIAN_OVER_MS (a gross error: measuring from the wrong packet).
CHECK_UNDER_MS = 2.0
CHECK_MEDIAN_OVER_MS = 250.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def build_page(root: str, ports: dict[str, int], rng: random.Random, per_origin: int) -> dict[str, int]:
    """Writes the page and its resources under `root`; returns the injected delay (ms) of every URL."""
    truth: dict[str, int] = {}
    tags = []
    for name, tls in ORIGINS:
        base = f"{'https' if tls else 'http'}://{name}.{DOMAIN}:{ports[name]}"
        for i in range(per_origin):
            ext = KINDS[i % len(KINDS)]
            d = rng.randint(0, 500)
            path = f"/{name}-r{i}{ext}"
            with open(os.path.join(root, path[1:]), "wb") as f:
                f.write(_BODIES[ext])
            url = f"{base}{path}?delay={d}"
            truth[url] = d
            if ext == ".css":
                tags.append(f'<link rel="stylesheet" href="{url}">')
            elif ext == ".js":
                tags.append(f'<script async src="{url}"></script>')
            elif ext == ".png":
                tags.append(f'<img src="{url}">')
            else:
                tags.append(f'<script>fetch("{url}")</script>')
    with open(os.path.join(root, "index.html"), "w") as f:
        f.write("<!doctype html><html><head><link rel=icon href='data:,'></head><body>\n"
                + "\n".join(tags) + "\n</body></html>\n")
    return truth


_BODIES = {
    ".css": b"body{margin:0}\n" * 40,
    ".js": b"var x=1;\n" * 200,
    ".png": bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000" "1f15c4890000000d49444154"
                          "789c6360000002000154a24f5d0000000049454e44ae426082") + bytes(3000),
    ".json": b'{"ok": true}',
}


def errors(records, truth: dict[str, float], kind: str, signed: bool = False) -> list[float]:
    """recovered - truth (absolute unless `signed`) of every measured (not estimated) delay of `kind`."""
    out = []
    for r in records:
        if _kind(r.url) == kind and r.url in truth and not r.estimated:
            e = r.delayMs - truth[r.url]
            out.append(e if signed else abs(e))
    return out


def _kind(url: str) -> str:
    host = url.split("://", 1)[1].split(".", 1)[0]
    return "h2" if host in H2 else "tls" if url.startswith("https:") else "clear"


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(int(q * len(s)), len(s) - 1)] if s else float("nan")


def main() -> int:
    usage = f"usage: npm run fidelity:delays [-- --check]\n\n{__doc__}"
    check = "--check" in script_flags("fidelity:delays", usage, sys.argv[1:], ("--check",))
    seed = int(os.environ.get("FIDELITY_SEED", "7"))
    per_origin = int(os.environ.get("FIDELITY_RESOURCES", "12"))
    rng = random.Random(seed)
    work = tempfile.mkdtemp(prefix="sd-fidelity-")
    bundle = os.path.join(work, "bundle")
    os.makedirs(bundle)
    ports = {name: free_port() for name, _ in ORIGINS}
    root = os.path.join(work, "site")
    os.makedirs(root)
    truth = build_page(root, ports, rng, per_origin)
    main_d = 40
    page_url = f"http://a.{DOMAIN}:{ports['a']}/index.html?delay={main_d}"
    truth[page_url] = main_d
    pcap = os.path.join(bundle, "capture.pcap")
    keylog = os.path.join(bundle, "tls-keys.log")
    spec = os.path.join(work, "spec.json")
    with open(spec, "w") as f:
        json.dump({"root": root, "page": page_url, "devtools": os.path.join(bundle, "devtools.json"),
                   "keylog": keylog,
                   "origins": [{"name": n, "port": ports[n], "tls": t, "h2": n in H2} for n, t in ORIGINS]}, f)
    port_filter = " or ".join(f"tcp port {p}" for p in ports.values())
    repo = os.path.join(HERE, "..", "..")
    driver = os.environ.get("FIDELITY_DRIVER") or (
        "profile" if os.path.exists(os.path.join(repo, "cli", "src", "commands", "profile.ts")) else "own")
    servers = []
    try:
        for name, _ in ORIGINS:
            # A high priority: on a busy machine a server's timers fire late, and that lateness is not
            # what this check measures (the servers log what they actually held anyway).
            cmd = [*_priority_prefix(), "node", "--import", "tsx", os.path.join(HERE, "load.ts"), "serve", spec, name]
            srv = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=repo,
                                   preexec_fn=die_with_parent)
            servers.append(srv)
            if srv.stdout is None or srv.stdout.readline().strip() != "ready":
                print(f"fidelity: test server for origin {name} did not start", file=sys.stderr)
                return 1
        if driver == "profile":
            why = load_with_profile(repo, page_url, bundle)
            if why:
                print(f"fidelity: pcp profile --pcap failed ({why}); using the own launcher", file=sys.stderr)
                driver = "own"
        if driver == "own":
            why, dropped = load_with_own_launcher(repo, spec, bundle, pcap, port_filter)
            if why:
                print(f"fidelity: page load failed: {why}", file=sys.stderr)
                return 1
            if dropped:
                print(f"fidelity: tcpdump: {dropped}", file=sys.stderr)
    finally:
        # The servers log what they held as they serve, so a slow or killed exit loses nothing; on a
        # saturated machine a node process can still take long to wind down.
        for srv in servers:
            srv.terminate()
        for srv in servers:
            try:
                srv.wait(timeout=15)
            except subprocess.TimeoutExpired:
                srv.kill()
                srv.wait()
                print("fidelity: a test server did not exit within 15 s after SIGTERM; killed (its log is complete)",
                      file=sys.stderr)
    held = _held(root, ports)
    t0 = time.time()
    keyed = pipeline.run(None, bundle, seed=1, use_tshark=True)
    t_keyed = time.time() - t0
    ordered = pipeline.run(None, bundle, seed=1, use_tshark=False)
    count = {k: sum(1 for u in truth if _kind(u) == k) for k in ("clear", "tls", "h2")}
    runs = [("cleartext", keyed, "clear"), ("https+keylog", keyed, "tls"), ("https by order", ordered, "tls"),
            ("h2+keylog", keyed, "h2")]
    late = [held[u] - truth[u] for u in truth if u in held]
    print(f"fidelity:delays  seed {seed}, {len(truth)} resources on {len(ORIGINS)} origins, load by "
          f"{'pcp profile --pcap --ssl-key-log' if driver == 'profile' else 'own launcher + tcpdump'}, "
          f"pcap {os.path.getsize(pcap)} bytes, analysis {t_keyed:.2f}s; server timers fired late by "
          f"median {pct(late, 0.5):.2f} ms, max {max(late, default=0):.2f} ms")
    print("  error = recovered - what the server actually held (its own log); [vs injected] in brackets; "
          + ("correctness check (--check)" if check else "benchmark targets"))
    ok = True
    for name, res, kind in runs:
        expected = count[kind]
        errs = errors(res.records, held, kind)
        errs_inj = errors(res.records, truth, kind)
        within5 = sum(1 for e in errs if e <= 5) / expected if expected else 0.0
        med, p90 = pct(errs, 0.5), pct(errs, 0.9)
        if check:
            signed = errors(res.records, held, kind, signed=True)
            passed = len(errs) == expected and min(signed, default=0) >= -CHECK_UNDER_MS \
                and pct(signed, 0.5) <= CHECK_MEDIAN_OVER_MS
            target = (f"all {expected} paired, none more than {CHECK_UNDER_MS:g} ms under the held delay "
                      f"(lowest {min(signed, default=0):+.2f}), median over <= {CHECK_MEDIAN_OVER_MS:g} ms")
        elif name == "https by order":
            passed = within5 >= 0.90
            target = ">= 90% within 5 ms"
        else:
            passed = len(errs) == expected and med <= 2 and p90 <= 5
            target = "median <= 2, p90 <= 5 ms"
        ok &= passed
        if check and not passed:
            for r in res.records:
                measured = _kind(r.url) == kind and r.url in held and not r.estimated
                if measured and r.delayMs - held[r.url] < -CHECK_UNDER_MS:
                    print(f"  under the held delay: {r.url} held {held[r.url]:.2f} ms, recovered {r.delayMs:.2f} ms "
                          f"({r.source})", file=sys.stderr)
        print(f"  {name:15s} measured {len(errs):3d}/{expected:3d}  median |err| {med:5.2f} ms  p90 {p90:5.2f} ms  "
              f"max {max(errs, default=float('nan')):6.2f} ms  within 5 ms {within5:6.1%}  "
              f"[vs injected: median {pct(errs_inj, 0.5):5.2f}, p90 {pct(errs_inj, 0.9):6.2f}]  "
              f"target {target}: {'PASS' if passed else 'FAIL'}")
    if os.environ.get("FIDELITY_DEBUG"):
        for r in ordered.records:
            print(json.dumps({"url": r.url, "truth": truth.get(r.url), "held": held.get(r.url), "got": r.delayMs,
                              "src": r.source}))
    if os.environ.get("FIDELITY_KEEP") or not ok:
        print(f"  bundle kept in {bundle}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if ok else 1


def die_with_parent() -> None:
    """preexec_fn: the child gets SIGTERM when this process dies, however it dies (PR_SET_PDEATHSIG)."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM, 0, 0, 0)  # 1 = PR_SET_PDEATHSIG


def _priority_prefix() -> list[str]:
    """`nice -n -10` when this process may raise priorities (root). Not real-time scheduling: a Node
    process under SCHED_FIFO was seen spinning for half an hour with the rest of the machine starved."""
    try:
        ok = subprocess.run(["nice", "-n", "-10", "true"], capture_output=True, text=True)
    except OSError:
        return []
    return ["nice", "-n", "-10"] if ok.returncode == 0 and not ok.stderr else []


def load_with_profile(repo: str, page_url: str, bundle: str) -> str | None:
    """The profiler's own capture: pcp profile --pcap --ssl-key-log writes the whole bundle.
    Returns why it failed, or None."""
    shutil.rmtree(bundle, ignore_errors=True)
    cmd = ["node", os.path.join(repo, "cli", "bin", "pcp.js"), "profile", page_url, "--out", bundle,
           "--pcap", "--pcap-interface", "lo", "--ssl-key-log", "--ignore-certificate-errors",
           "--host-resolver-rules", f"MAP *.{DOMAIN} 127.0.0.1", "--quiet", "1000"]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=150, cwd=repo, preexec_fn=die_with_parent)
    except subprocess.TimeoutExpired:
        return "timed out"
    if p.returncode != 0:
        return (p.stderr.strip().splitlines() or [f"exit {p.returncode}"])[-1]
    if not os.path.exists(os.path.join(bundle, "capture.pcap")):
        return "no capture.pcap in its bundle"
    return None


def load_with_own_launcher(repo: str, spec: str, bundle: str, pcap: str, port_filter: str) -> tuple[str | None, str]:
    """tcpdump on lo plus load.ts driving Chromium. Returns (why it failed or None, tcpdump's drop report)."""
    os.makedirs(bundle, exist_ok=True)
    # Immediate mode: without it the last packets sit in a half-filled kernel block and are lost at
    # SIGINT. A 64 MiB buffer and a high priority keep a busy machine from dropping packets.
    # -Z root: dropping to tcpdump's own user would clear the death signal.
    dump = subprocess.Popen([*_priority_prefix(), "tcpdump", "-i", "lo", "--immediate-mode", "-B", "65536", "-U",
                             "-s", "0", "-Z", "root", "-w", pcap, port_filter], stderr=subprocess.PIPE, text=True,
                            preexec_fn=die_with_parent)
    why = None
    try:
        _wait_listening(dump)
        p = subprocess.run(["node", "--import", "tsx", os.path.join(HERE, "load.ts"), "load", spec],
                           capture_output=True, text=True, timeout=150, cwd=repo, preexec_fn=die_with_parent)
        if p.returncode != 0:
            why = p.stderr.strip()[-800:]
        time.sleep(0.3)
    except subprocess.TimeoutExpired:
        why = "the page load did not finish within 150 s"
    finally:
        dump.send_signal(signal.SIGINT)
        _, err = dump.communicate(timeout=10)
    dropped = "; ".join(line for line in err.splitlines() if "dropped" in line and not line.startswith("0 "))
    return why, dropped


def _held(root: str, ports: dict[str, int]) -> dict[str, float]:
    """What each origin actually held each response (ms), from the servers' own logs."""
    out: dict[str, float] = {}
    for name, tls in ORIGINS:
        path = os.path.join(root, f"held-{name}.jsonl")
        if not os.path.exists(path):
            continue
        base = f"{'https' if tls else 'http'}://{name}.{DOMAIN}:{ports[name]}"
        with open(path) as f:
            for line in f:
                if line.strip():
                    h = json.loads(line)
                    out[base + h["path"]] = h["held"]
    return out


def _wait_listening(dump: subprocess.Popen) -> None:
    """tcpdump prints 'listening on' once its capture is live; packets before that are lost."""
    assert dump.stderr is not None
    deadline = time.time() + 10
    while time.time() < deadline:
        line = dump.stderr.readline()
        if "listening on" in line:
            return
        if dump.poll() is not None:
            raise SystemExit(f"fidelity: tcpdump failed: {line.strip()}")
    raise SystemExit("fidelity: tcpdump did not start")


if __name__ == "__main__":
    sys.exit(main())
