"""
The Dask driver of `pcp corpus build --scheduler`: reads a job (JSON on stdin, written by the TypeScript
command), connects to a scheduler (tcp://HOST:8786) or starts a LocalCluster (local:N, N worker processes),
submits one task per unfinished site (worker resource browser=1: one browser per worker; Dask retries a
task whose worker died), and prints one JSON line per site on stdout: {"event": "site", "status": {...},
"skipped": bool}, then {"event": "done", "failures": N}. Errors: one line on stderr, `error: ...`, exit 1.

Job: {"scheduler", "out" (fsspec URL or path), "sites": [{"url", "id"}], "manifest", "siteList", "pcp": [argv
of the pcp command on the workers], "siteArgs": [arguments of pcp corpus build-site], "taskRetries"}.
"""

from __future__ import annotations

import json
import sys
from datetime import datetime, timezone

from .cluster import driver_main, each_completed, emit
from .layout import init_corpus, is_done, open_root, page_path, read_status, rewrite_failures, write_text_atomic
from .site_task import build_site


def record_task_failure(out: str, site: dict, reason: str, started: str) -> dict:
    """A task that never produced a status (every attempt's worker died, or the unit crashed): status.json says why."""
    fs, root = open_root(out)
    target = page_path(root, site["id"])
    fs.makedirs(target, exist_ok=True)
    now = datetime.now(timezone.utc).isoformat()
    status = {
        "url": site["url"], "id": site["id"], "status": "failed", "reason": reason, "attempts": 1,
        "startedAt": started, "finishedAt": now,
    }
    write_text_atomic(fs, f"{target}/status.json", json.dumps(status, indent=2))
    return status


def run(job: dict) -> int:
    out = job["out"]
    fs, root = open_root(out)
    init_corpus(fs, root, job["manifest"], job["siteList"])
    sites = job["sites"]
    todo = []
    for s in sites:
        if is_done(fs, root, s["id"]):
            status = read_status(fs, root, s["id"]) or {"url": s["url"], "id": s["id"], "status": "ok"}
            emit({"event": "site", "status": status, "skipped": True})
        else:
            todo.append(s)
    started = datetime.now(timezone.utc).isoformat()
    tasks = each_completed(
        job["scheduler"], todo, lambda s: (build_site, (s["url"], s["id"], out, job["pcp"], job["siteArgs"])),
        resources={"browser": 1}, retries=job.get("taskRetries", 2), key=lambda s: f"pcp-corpus-site-{s['id']}",
    )
    for site, status, error in tasks:
        if error is not None:
            first = (str(error).splitlines() or [""])[0]
            status = record_task_failure(out, site, f"task: {type(error).__name__}: {first}", started)
        emit({"event": "site", "status": status, "skipped": False})
    failures = rewrite_failures(fs, root, sites)
    emit({"event": "done", "failures": len(failures)})
    return 0


def main() -> int:
    return driver_main(run)


if __name__ == "__main__":
    sys.exit(main())
