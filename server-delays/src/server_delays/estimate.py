"""§3.4.1 imputation. Pure: records in, records out.

- errors and redirects are never measured (their wire delay is dropped) and never feed the pools;
- 304 keeps its measurement and carries the `cached` flag;
- a missing delay is drawn from the same host's measured delays of the same MIME type, else from the
  per-class CDF (by MIME type, POST separately) of this capture's delays, else from fallback CDFs;
- estimated zero-size responses are clamped at 10 ms (most likely 204 No Content);
- delays over 1 s are outliers: kept on their own resource, left out of the CDFs.
Each draw uses its own generator seeded from (seed, url, occurrence), so a record's draw does not
depend on how many other records drew before it.
"""

from __future__ import annotations

import random
from collections import defaultdict

from . import cdf
from .records import DelayRecord

OUTLIER_S = 1.0
ZERO_SIZE_CAP_MS = 10.0


def measurable(status: int) -> bool:
    return 200 <= status < 300 or status == 304 or status == 0


def cdf_values(records: list[DelayRecord]) -> dict[str, list[float]]:
    """Measured, successful, non-outlier delays in seconds, per CDF class."""
    out: dict[str, list[float]] = defaultdict(list)
    for r in records:
        if not r.estimated and r.delayMs is not None and r.delayMs / 1000 <= OUTLIER_S and measurable(r.status):
            out[cdf.mime_class(r.mimeType, r.method)].append(r.delayMs / 1000)
    return dict(out)


def impute(records: list[DelayRecord], seed: int,
           fallback: dict[str, list[tuple[float, float]]] | None = None) -> list[DelayRecord]:
    for r in records:
        if not r.estimated and r.delayMs is not None and not measurable(r.status):
            r.delayMs, r.estimated, r.source = None, True, "none"
        if r.status == 304:
            r.cached = True
    pools: dict[tuple[str, str], list[float]] = defaultdict(list)
    for r in records:
        if not r.estimated and r.delayMs is not None:
            pools[(r.host, r.mimeType)].append(r.delayMs)
    own = {cls: cdf.points(vals) for cls, vals in cdf_values(records).items()}
    seen: dict[str, int] = defaultdict(int)
    for r in records:
        occurrence = seen[r.url]
        seen[r.url] += 1
        if not r.estimated and r.delayMs is not None:
            continue
        rng = random.Random(f"{seed}:{r.method}:{r.url}:{occurrence}")
        cls = cdf.mime_class(r.mimeType, r.method)
        pool = pools.get((r.host, r.mimeType))
        if pool:
            r.delayMs, r.source = rng.choice(sorted(pool)), "domain"
        elif own.get(cls):
            r.delayMs, r.source = cdf.sample(own[cls], rng.random()) * 1000, "cdf"
        elif fallback and fallback.get(cls):
            r.delayMs, r.source = cdf.sample(fallback[cls], rng.random()) * 1000, "fallback-cdf"
        else:
            r.delayMs, r.source = None, "none"
        r.estimated = True
        if r.delayMs is not None and r.size == 0:
            r.delayMs = min(r.delayMs, ZERO_SIZE_CAP_MS)
    return records
