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
