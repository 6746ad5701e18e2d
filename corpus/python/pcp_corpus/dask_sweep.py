"""
The Dask driver of `pcp sweep --scheduler`: one task per grid cell (graph x configuration) not yet in the
results, run by `pcp sweep` on a worker; prints {"event": "cell", "graph", "key", "rows": [...]} or
{"event": "cell", "graph", "key", "error": "..."} per cell, then {"event": "done"}. The pcp command
appends the rows (it alone writes the CSV, so a rerun never duplicates one).

Job: {"scheduler", "pcp": [argv of pcp on the workers], "cwd" (graph paths are relative to it, on every
machine), "cells": [{"graph", "key", "grid": {option: value, "runs"}}], "taskRetries"}.
"""

from __future__ import annotations

import json
import sys

from .cluster import connect, emit, exit_on_sigterm
from .sweep_task import run_cell


def run(job: dict) -> int:
    from dask.distributed import as_completed

    cells = job["cells"]
    if cells:
        client, cluster = connect(job["scheduler"])
        try:
            futures = {
                client.submit(
                    run_cell, c["graph"], c["grid"], job["pcp"], job["cwd"],
                    retries=job.get("taskRetries", 1), pure=False,
                ): c
                for c in cells
            }
            for fut in as_completed(futures):
                c = futures[fut]
                try:
                    emit({"event": "cell", "graph": c["graph"], "key": c["key"], "rows": fut.result()})
                except Exception as e:  # noqa: BLE001 - a failed cell is reported, the others go on
                    emit({"event": "cell", "graph": c["graph"], "key": c["key"], "error": f"{type(e).__name__}: {e}"})
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
    emit({"event": "done"})
    return 0


def main() -> int:
    exit_on_sigterm()
    try:
        return run(json.load(sys.stdin))
    except (OSError, ValueError, KeyError) as e:
        print(f"error: {type(e).__name__}: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
