"""The whole run: capture (+ bundle, + key log) -> measured and imputed delay records."""

from __future__ import annotations

import os
from collections import defaultdict
from dataclasses import dataclass, field

from . import bundle as bundle_mod
from . import cdf, dns, estimate, measure
from .bundle import Resource
from .capture import CaptureError, read_capture
from .measure import Measurement
from .records import DelayRecord, ext_type
from .tcp import reassemble


@dataclass
class Result:
    records: list[DelayRecord]
    warnings: list[str] = field(default_factory=list)
    summary: dict = field(default_factory=dict)
    measurements: list[Measurement] = field(default_factory=list)


def default_fallback_dir() -> str | None:
    """The legacy corpus CDFs (../shared from the repository root, or $PCP_SHARED)."""
    shared = os.environ.get("PCP_SHARED")
    if not shared:
        root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
        shared = os.path.join(root, "..", "shared")
    d = os.path.join(shared, "legacy-corpus", "server-delay-cdfs")
    return d if os.path.isdir(d) else None


def _ms(seconds: float | None) -> float | None:
    """Capture clocks tick in microseconds: more digits would be float noise."""
    return None if seconds is None else round(seconds * 1000, 3)


def _record_from_measurement(m: Measurement) -> DelayRecord:
    url = m.url or ""
    return DelayRecord(m.method or "", m.host, url, m.size, _ms(m.delay),
                       m.mime_type, ext_type(url) if url else "other", m.tls, m.status == 304,
                       m.delay is None, m.status, m.basis if m.delay is not None else "none")


def _record_from_resource(r: Resource) -> DelayRecord:
    return DelayRecord(r.method, r.host, r.url, r.size, None, r.mime_type or "unknown", ext_type(r.url), r.tls,
                       r.from_cache or r.status == 304, True, r.status, "none")


def match_by_url(records: list[DelayRecord], resources: list[Resource], ms: list[Measurement]) -> int:
    """Measurements carrying a URL (cleartext, or decrypted) fill the resource of the same URL, in order."""
    by_url: dict[tuple[str, str], list[Measurement]] = defaultdict(list)
    for m in sorted(ms, key=lambda m: m.req_ts):
        if m.url:
            by_url[(m.method, m.url)].append(m)
    n = 0
    for rec, res in zip(records, resources, strict=True):
        if res.from_cache and res.status != 304:
            continue
        queue = by_url.get((res.method, res.url))
        if queue:
            m = queue.pop(0)
            if m.delay is not None:
                rec.delayMs, rec.estimated, rec.source = _ms(m.delay), False, m.basis
                n += 1
    return n


def match_by_order(records: list[DelayRecord], resources: list[Resource], ms: list[Measurement]) -> int:
    """The thesis' HTTPS rule: per host, the i-th exchange by first response byte goes to the i-th
    resource by first response byte (resources answered from the browser cache have no exchange)."""
    ex_by_host: dict[str, list[Measurement]] = defaultdict(list)
    for m in ms:
        if m.tls and not m.url and m.resp_ts is not None:
            ex_by_host[m.host].append(m)
    res_by_host: dict[str, list[int]] = defaultdict(list)
    for i, (rec, res) in enumerate(zip(records, resources, strict=True)):
        if res.tls and rec.estimated and not res.failed and not (res.from_cache and res.status != 304) \
                and res.first_byte is not None and res.protocol.lower() not in ("h2", "h3", "quic", "spdy"):
            res_by_host[res.host].append(i)
    n = 0
    for host, idx in res_by_host.items():
        exs = sorted(ex_by_host.get(host, []), key=lambda m: m.resp_ts)
        idx.sort(key=lambda i: resources[i].first_byte)
        for i, m in zip(idx, exs, strict=False):
            if m.delay is not None:
                records[i].delayMs, records[i].estimated, records[i].source = _ms(m.delay), False, "order"
                n += 1
    return n


def run(capture: str | None, bundle_dir: str | None = None, seed: int = 1, keylog: str | None = None,
        use_tshark: bool = True, fallback_dir: str | None = None) -> Result:
    warnings: list[str] = []
    resources: list[Resource] | None = None
    if bundle_dir:
        b = bundle_mod.load(bundle_dir)
        resources = b.resources
        capture = capture or b.capture
        keylog = keylog or b.keylog
    if capture is None:
        raise CaptureError("no capture: give a pcap, or a bundle holding capture.pcap")
    cap = read_capture(capture)
    warnings.extend(cap.warnings)
    if not cap.segments:
        msg = f"no TCP segments in {capture} ({cap.packets} packets)"
        if resources is None:
            raise CaptureError(msg)
        warnings.append(msg + "; every delay is estimated")
    conns = reassemble(cap.segments)
    analysis = measure.analyse(conns, dns.host_map(cap.datagrams))
    warnings.extend(analysis.warnings)
    ms = analysis.measurements
    exact = 0
    if keylog and any(m.tls for m in ms):
        from . import keylog as keylog_mod

        if use_tshark:
            try:
                decrypted = keylog_mod.decrypted_measurements(capture, keylog, conns)
            except keylog_mod.TsharkError as e:
                warnings.append(f"key log not used: {e}")
                decrypted = []
            if decrypted:
                ms = [m for m in ms if not m.tls] + decrypted
                exact = len(decrypted)
    if resources is None:
        records = [_record_from_measurement(m) for m in ms]
        by_url = by_order = 0
    else:
        records = [_record_from_resource(r) for r in resources]
        by_url = match_by_url(records, resources, ms)
        by_order = match_by_order(records, resources, ms)
    fb_dir = fallback_dir or default_fallback_dir()
    fallback = cdf.read_dir(fb_dir) if fb_dir else {}
    estimate.impute(records, seed, fallback)
    summary = {
        "capture": capture, "bundle": bundle_dir, "packets": cap.packets, "connections": len(conns),
        "exchanges": len(ms), "decrypted": exact, "records": len(records),
        "measured": sum(1 for r in records if not r.estimated), "matchedByUrl": by_url,
        "matchedByOrder": by_order, "estimated": sum(1 for r in records if r.estimated), "seed": seed,
    }
    return Result(records, warnings, summary, ms)
