"""`python -m server_delays`: the I/O shell over `pipeline.run`. Errors are one line on stderr, exit 1."""

from __future__ import annotations

import argparse
import os
import sys

from . import cdf, estimate, pipeline, records
from .bundle import BundleError
from .capture import CaptureError

USAGE = """python -m server_delays INPUT [options]

Per-request server processing delays (thesis 3.4.1) from a packet capture.

INPUT is a profiler bundle directory (DevTools log + capture.pcap [+ tls-keys.log]) or a
pcap/pcapng file. With a bundle, one record per resource of the DevTools log; with a bare capture,
one record per HTTP exchange seen on the wire.

options:
  --bundle DIR       resources from this bundle (when INPUT is a capture)
  --out FILE         output file (default: stdout)
  --format FMT       json (default) or tsv (the legacy delays layout)
  --cdf OUTDIR       also write per-class CDFs (<Class>DelaysCDF.dist) of the measured delays
  --seed N           seed of the estimation draws (default 1)
  --keylog FILE      TLS key log (default: the bundle's tls-keys.log); decrypts through tshark
  --no-tshark        ignore the key log; match HTTPS delays by order only
  --fallback-cdf DIR CDFs for classes this capture has no measurements of
                     (default: ../shared/legacy-corpus/server-delay-cdfs or $PCP_SHARED)
  -h, --help         this help
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit 2, like the pcp CLI's UsageError
        sys.stderr.write(f"error: {message} (see --help)\n")
        sys.exit(2)


def main(argv: list[str] | None = None) -> int:
    p = _Parser(prog="server_delays", usage=USAGE, add_help=False)
    p.add_argument("input", nargs="?")
    p.add_argument("--bundle")
    p.add_argument("--out")
    p.add_argument("--format", choices=("json", "tsv"), default="json")
    p.add_argument("--cdf")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--keylog")
    p.add_argument("--no-tshark", action="store_true")
    p.add_argument("--fallback-cdf")
    p.add_argument("-h", "--help", action="store_true")
    a = p.parse_args(argv)
    if a.help:
        sys.stdout.write(USAGE)
        return 0
    if not a.input:
        p.error("INPUT (a bundle directory or a capture file) is required")
    if not os.path.exists(a.input):
        sys.stderr.write(f"error: {a.input} does not exist\n")
        return 1
    capture, bundle_dir = (None, a.input) if os.path.isdir(a.input) else (a.input, a.bundle)
    try:
        res = pipeline.run(capture, bundle_dir, a.seed, a.keylog, not a.no_tshark, a.fallback_cdf)
        text = records.to_tsv(res.records) if a.format == "tsv" else records.to_json(
            res.records, res.warnings, res.summary)
        if a.out:
            with open(a.out, "w", encoding="utf-8") as f:
                f.write(text)
        else:
            sys.stdout.write(text)
        if a.cdf:
            written = cdf.write_dir(estimate.cdf_values(res.records), a.cdf)
            if not written:
                res.warnings.append("no measured delays: no CDF written")
    except (CaptureError, BundleError, OSError) as e:
        sys.stderr.write(f"error: {e}\n")
        return 1
    for w in res.warnings:
        sys.stderr.write(f"warning: {w}\n")
    s = res.summary
    sys.stderr.write(f"server-delays: {s['records']} records, {s['measured']} measured, {s['estimated']} estimated "
                     f"({s['connections']} connections, {s['exchanges']} exchanges)\n")
    return 0
