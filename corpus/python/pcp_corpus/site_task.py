"""
The Dask task of a corpus build: one site, built by the one-site unit `pcp corpus build-site` in a local
temporary directory (a child process tied to the worker: it dies with it), then copied to the corpus
through fsspec with DONE last.
"""

from __future__ import annotations

import json
import shutil
import tempfile

from .layout import open_root, page_path, publish_page
from .worker_child import last_line, run_tied, scratch_dir


class SiteTaskError(RuntimeError):
    """The one-site unit ended without a status (killed, crashed): the task fails and Dask retries it."""


def build_site(url: str, page_id: str, out: str, pcp: list[str], site_args: list[str]) -> dict:
    """Runs in a worker; returns the page's status (ok or failed with the profiler's reason)."""
    tmp = tempfile.mkdtemp(prefix="pcp-corpus-site-", dir=scratch_dir())
    try:
        proc = run_tied([*pcp, "corpus", "build-site", url, "--out", tmp, "--id", page_id, *site_args])
        status = None
        for line in reversed(proc.stdout.splitlines()):
            if line.startswith("{"):
                status = json.loads(line)
                break
        if status is None:
            tail = last_line(proc.stderr, f"exit {proc.returncode}")
            raise SiteTaskError(f"{url}: pcp corpus build-site ended without a status: {tail}")
        fs, root = open_root(out)
        publish_page(f"{tmp}/pages/{page_id}", fs, page_path(root, page_id))
        return status
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
