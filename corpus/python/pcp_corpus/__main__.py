"""python -m pcp_corpus: the Python half of `pcp corpus stats` and `pcp corpus publish`.

  describe JSONL_DIR --data DATA_DIR --report REPORT_DIR   tables (JSON lines) -> Parquet, then stats
  stats DATA_DIR --report REPORT_DIR                       stats of existing Parquet tables (a release's data/)
  croissant RELEASE_DIR [--check]                          croissant.json from datapackage.json, or its validation

Also writes JSONL_DIR/schema.json (the tables' Frictionless fields, for the release manifest).
The report: summary.txt (also printed), summary.md, summary.json, and the figures as PNG and SVG.
Errors: one line `error: ...` on stderr, exit 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import duckdb

from . import croissant, plots, stats, tables


def report(data_dir: Path, out: Path, quiet: bool) -> None:
    con = stats.connect(data_dir)
    s = stats.compute(con)
    out.mkdir(parents=True, exist_ok=True)
    text = stats.as_text(s)
    (out / "summary.txt").write_text(text + "\n")
    (out / "summary.md").write_text(stats.as_markdown(s))
    summary = stats.as_json(s)
    summary["figures"] = plots.write_all(s, out)
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    if not quiet:
        print(text)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pcp_corpus")
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("describe", help="JSON-lines tables -> Parquet -> statistics and figures")
    d.add_argument("jsonl_dir", type=Path)
    d.add_argument("--data", type=Path, required=True)
    d.add_argument("--report", type=Path, required=True)
    d.add_argument("--quiet", action="store_true")
    st = sub.add_parser("stats", help="statistics and figures of Parquet tables")
    st.add_argument("data_dir", type=Path)
    st.add_argument("--report", type=Path, required=True)
    st.add_argument("--quiet", action="store_true")
    c = sub.add_parser("croissant", help="MLCommons Croissant metadata of a release, or its validation")
    c.add_argument("release", type=Path)
    c.add_argument("--check", action="store_true")
    args = ap.parse_args(argv)
    try:
        if args.cmd == "describe":
            tables.write_tables(args.jsonl_dir, args.data)
            tables.write_schema(args.jsonl_dir / "schema.json")
            report(args.data, args.report, args.quiet)
        elif args.cmd == "croissant" and args.check:
            problems = croissant.check(args.release)
            if problems:
                raise ValueError("; ".join(problems))
        elif args.cmd == "croissant":
            croissant.write(args.release)
        else:
            report(args.data_dir, args.report, args.quiet)
    except (OSError, ValueError, RuntimeError, duckdb.Error) as e:
        print(f"error: {str(e).splitlines()[0]}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
