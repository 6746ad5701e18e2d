"""What a Dask task needs to run `pcp` as a child of its worker: tied to the worker's life, in its scratch space."""

from __future__ import annotations

import ctypes
import signal
import subprocess

_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """In the child before exec: SIGKILL when the worker that started it ends (Linux prctl)."""
    ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def scratch_dir() -> str | None:
    """The worker's own scratch space: a worker killed mid-task leaves its temporary files there, and Dask
    clears a dead worker's space when the next worker starts on the machine."""
    try:
        from distributed import get_worker

        return get_worker().local_directory
    except (ImportError, ValueError):
        return None


def run_tied(argv: list[str], cwd: str | None = None) -> subprocess.CompletedProcess:
    """Runs argv to its end, output captured as text; the child dies with the worker."""
    return subprocess.run(
        argv, cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True, text=True, preexec_fn=_die_with_parent,
        check=False,
    )


def last_line(text: str, fallback: str) -> str:
    return (text.strip().splitlines() or [fallback])[-1]
