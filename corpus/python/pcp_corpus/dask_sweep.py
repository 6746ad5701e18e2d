"""
The Dask driver of `pcp sweep --scheduler`: one task per grid cell (graph x configuration) not yet in the
results, run by `pcp sweep` on a worker; prints {"event": "cell", "graph", "key", "rows": [...]} or
{"event": "cell", "graph", "key", "error": "..."} per cell, then {"event": "done"}. The pcp command
appends the rows (it alone writes the CSV, so a rerun never duplicates one).

Job: {"scheduler", "pcp": [argv of pcp on the workers], "cwd" (graph paths are relative to it, on every
machine), "cells": [{"graph", "key", "grid": {option: value, "runs"}}], "taskRetries"}.
"""

from __future__ import annotations

import sys

from .cluster import driver_main, each_completed, emit
from .sweep_task import run_cell


def run(job: dict) -> int:
    cells = job["cells"]
    tasks = each_completed(
        job["scheduler"], cells, lambda c: (run_cell, (c["graph"], c["grid"], job["pcp"], job["cwd"])),
        retries=job.get("taskRetries", 1),
    )
    for c, rows, error in tasks:
        if error is None:
            emit({"event": "cell", "graph": c["graph"], "key": c["key"], "rows": rows})
        else:
            emit({"event": "cell", "graph": c["graph"], "key": c["key"], "error": f"{type(error).__name__}: {error}"})
    emit({"event": "done"})
    return 0


def main() -> int:
    return driver_main(run)


if __name__ == "__main__":
    sys.exit(main())
