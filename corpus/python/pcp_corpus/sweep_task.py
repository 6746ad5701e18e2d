"""
The Dask task of `pcp sweep --scheduler`: one grid cell (a graph under one emulator configuration, all its
runs), emulated by `pcp sweep GRAPH --grid CELL.json --workers 1` as a child of the worker; returns the
cell's CSV rows (the graph path must be the same on every machine: shared storage).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile

from .worker_child import last_line, run_tied, scratch_dir


class CellTaskError(RuntimeError):
    """The cell could not be emulated (a bad graph, the emulator failed)."""


def run_cell(graph: str, cell: dict, pcp: list[str], cwd: str) -> list[str]:
    tmp = tempfile.mkdtemp(prefix="pcp-sweep-cell-", dir=scratch_dir())
    try:
        grid = os.path.join(tmp, "cell.json")
        out = os.path.join(tmp, "rows.csv")
        with open(grid, "w") as f:
            json.dump(cell, f)
        proc = run_tied([*pcp, "sweep", graph, "--grid", grid, "--out", out, "--workers", "1"], cwd=cwd)
        if proc.returncode != 0:
            raise CellTaskError(last_line(proc.stderr, f"pcp sweep exited {proc.returncode}"))
        with open(out) as f:
            return [line for line in f.read().split("\n")[1:] if line]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
