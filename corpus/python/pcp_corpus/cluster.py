"""The Dask client of a `--scheduler` option: a running scheduler (tcp://HOST:PORT) or a LocalCluster (local:N)."""

from __future__ import annotations

import json
import signal
import sys


def connect(scheduler: str, resources: dict | None = None):
    """(client, cluster or None). local:N starts N single-threaded worker processes with `resources` each."""
    from dask.distributed import Client, LocalCluster

    if scheduler.startswith("local:"):
        n = int(scheduler.split(":", 1)[1])
        cluster = LocalCluster(
            n_workers=n, threads_per_worker=1, processes=True, resources=resources or {},
            host="127.0.0.1", dashboard_address=None,
        )
        return Client(cluster), cluster
    return Client(scheduler, timeout="30s"), None


def emit(event: dict) -> None:
    """One JSON line on stdout, for the pcp command that started the driver."""
    sys.stdout.write(json.dumps(event) + "\n")
    sys.stdout.flush()


def exit_on_sigterm() -> None:
    """SIGTERM (the pcp command ended) unwinds the driver, so its finally blocks close the cluster."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))


def each_completed(scheduler: str, items: list, task, *, resources: dict | None = None, retries: int = 1, key=None):
    """
    Runs `task(item)` = (function, args) for every item as a Dask task (needing `resources` on its worker,
    rerun up to `retries` times when it raises) and yields (item, result, None) or (item, None, exception)
    as each one ends. The cluster is closed when the iteration ends, however it ends.
    """
    from dask.distributed import as_completed

    if not items:
        return
    client, cluster = connect(scheduler, resources)
    try:
        futures = {}
        for item in items:
            fn, args = task(item)
            extra = {"resources": resources} if resources else {}
            if key is not None:
                extra["key"] = key(item)
            futures[client.submit(fn, *args, retries=retries, pure=False, **extra)] = item
        for fut in as_completed(futures):
            try:
                yield futures[fut], fut.result(), None
            except Exception as e:  # noqa: BLE001 - a task's failure is the caller's to record
                yield futures[fut], None, e
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def driver_main(run) -> int:
    """A driver's main: the job as JSON on stdin, `error: ...` on one line and exit 1 when it cannot be run."""
    exit_on_sigterm()
    try:
        return run(json.load(sys.stdin))
    except (OSError, ValueError, KeyError) as e:
        print(f"error: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
