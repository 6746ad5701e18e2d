"""
The Dask task of a corpus build: one site, built by the one-site unit `pcp corpus build-site` in a local
temporary directory (a child process tied to the worker: it dies with it), then copied to the corpus
through fsspec with DONE last.
"""

from __future__ import annotations

import ctypes
import json
import shutil
import signal
import subprocess
import tempfile

from .layout import open_root, page_path, publish_page

_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """In the child before exec: SIGKILL when the worker that started it ends (Linux prctl)."""
    ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def _scratch_dir() -> str | None:
    """The worker's own scratch space: a worker killed mid-task leaves its temporary page there, and Dask
    clears a dead worker's space when the next worker starts on the machine."""
    try:
        from distributed import get_worker

        return get_worker().local_directory
    except (ImportError, ValueError):
        return None


class SiteTaskError(RuntimeError):
    """The one-site unit ended without a status (killed, crashed): the task fails and Dask retries it."""


def build_site(url: str, page_id: str, out: str, pcp: list[str], site_args: list[str]) -> dict:
    """Runs in a worker; returns the page's status (ok or failed with the profiler's reason)."""
    tmp = tempfile.mkdtemp(prefix="pcp-corpus-site-", dir=_scratch_dir())
    try:
        proc = subprocess.run(
            [*pcp, "corpus", "build-site", url, "--out", tmp, "--id", page_id, *site_args],
            stdin=subprocess.DEVNULL, capture_output=True, text=True,
            preexec_fn=_die_with_parent, check=False,
        )
        status = None
        for line in reversed(proc.stdout.splitlines()):
            if line.startswith("{"):
                status = json.loads(line)
                break
        if status is None:
            tail = (proc.stderr.strip().splitlines() or [f"exit {proc.returncode}"])[-1]
            raise SiteTaskError(f"{url}: pcp corpus build-site ended without a status: {tail}")
        fs, root = open_root(out)
        publish_page(f"{tmp}/pages/{page_id}", fs, page_path(root, page_id))
        return status
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
