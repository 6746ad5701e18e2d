"""The profiler bundle: a directory with a DevTools log (`[{method, params}]` of Network events),
a gzipped Chrome trace, and optionally capture.pcap and tls-keys.log.

Resources come from Network.requestWillBeSent / responseReceived / loadingFinished / loadingFailed.
A redirect reuses its requestId: the hop it ends becomes its own resource with the redirect status.
"""

from __future__ import annotations

import gzip
import json
import os
from dataclasses import dataclass, field
from urllib.parse import urlsplit


class BundleError(Exception):
    pass


@dataclass
class Resource:
    request_id: str
    url: str
    method: str
    start: float  # monotonic seconds (DevTools `timestamp`)
    wall_offset: float | None  # wallTime - timestamp: monotonic -> epoch seconds
    status: int = 0
    mime_type: str = ""
    size: int = 0
    first_byte: float | None = None  # monotonic seconds: response headers received
    from_cache: bool = False
    protocol: str = ""
    remote_ip: str = ""
    remote_port: int = 0
    failed: bool = False
    order: int = 0

    @property
    def host(self) -> str:
        return (urlsplit(self.url).hostname or "").lower()

    @property
    def tls(self) -> bool:
        return self.url.startswith(("https:", "wss:"))

    @property
    def first_byte_epoch(self) -> float | None:
        if self.first_byte is None or self.wall_offset is None:
            return None
        return self.first_byte + self.wall_offset


@dataclass
class Bundle:
    path: str
    devtools: str | None
    capture: str | None
    keylog: str | None
    resources: list[Resource] = field(default_factory=list)


def _load_json(path: str):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def _is_devtools_log(value) -> bool:
    return isinstance(value, list) and any(
        isinstance(e, dict) and str(e.get("method", "")).startswith("Network.") for e in value[:2000])


def find(path: str) -> Bundle:
    """Locate the bundle's files; the DevTools log is the JSON file holding Network events."""
    if not os.path.isdir(path):
        raise BundleError(f"bundle {path} is not a directory")
    names = sorted(os.listdir(path))
    capture = next((os.path.join(path, n) for n in names if n.endswith((".pcap", ".pcapng", ".pcap.gz"))), None)
    keylog = next((os.path.join(path, n) for n in names
                   if n in ("tls-keys.log", "sslkeylog.log", "keylog.txt") or n.endswith(".keylog")), None)
    devtools = None
    candidates = sorted((n for n in names if n.endswith((".json", ".json.gz"))),
                        key=lambda n: (0 if "devtools" in n.lower() else 1, n))
    for n in candidates:
        p = os.path.join(path, n)
        try:
            if _is_devtools_log(_load_json(p)):
                devtools = p
                break
        except (OSError, ValueError, EOFError):
            continue
    return Bundle(path, devtools, capture, keylog)


def resources_from_events(events: list[dict]) -> list[Resource]:
    """Resources in request order, from DevTools Network events (data: and blob: URLs excluded)."""
    live: dict[tuple[str, str], Resource] = {}
    out: list[Resource] = []
    for ev in events:
        if not isinstance(ev, dict):
            continue
        method, p = ev.get("method"), ev.get("params") or {}
        if p.get("requestId") is None:
            continue
        # Request ids are unique per DevTools session; a bundle logs every session (OOPIFs, workers).
        rid = (ev.get("sessionId") or "", p["requestId"])
        if method == "Network.requestWillBeSent":
            prev = live.get(rid)
            redirect = p.get("redirectResponse")
            if prev is not None and redirect:
                _apply_response(prev, redirect, p.get("timestamp"))
            req = p.get("request") or {}
            url = req.get("url", "")
            if url.startswith(("data:", "blob:")):
                continue
            ts = float(p.get("timestamp") or 0.0)
            wall = p.get("wallTime")
            r = Resource(rid[1], url, str(req.get("method", "GET")).upper(), ts,
                         float(wall) - ts if wall is not None else None, order=len(out))
            live[rid] = r
            out.append(r)
        elif method == "Network.responseReceived" and rid in live:
            _apply_response(live[rid], p.get("response") or {}, p.get("timestamp"))
        elif method == "Network.loadingFinished" and rid in live:
            r = live[rid]
            size = p.get("encodedDataLength")
            if isinstance(size, (int, float)) and size >= 0 and not r.size:
                r.size = int(size)
        elif method == "Network.requestServedFromCache" and rid in live:
            live[rid].from_cache = True  # memory cache: no exchange on the wire
        elif method == "Network.loadingFailed" and rid in live:
            live[rid].failed = True
    # Resources without their own wall clock borrow the page's (one monotonic clock per browser).
    offsets = [r.wall_offset for r in out if r.wall_offset is not None]
    for r in out:
        if r.wall_offset is None and offsets:
            r.wall_offset = offsets[0]
    return out


def _apply_response(r: Resource, resp: dict, ts) -> None:
    r.status = int(resp.get("status") or 0)
    r.mime_type = str(resp.get("mimeType") or "").lower()
    r.from_cache = bool(resp.get("fromDiskCache") or resp.get("fromServiceWorker")
                        or resp.get("fromPrefetchCache") or resp.get("fromMemoryCache"))
    r.protocol = str(resp.get("protocol") or "")
    r.remote_ip = str(resp.get("remoteIPAddress") or "").strip("[]")
    r.remote_port = int(resp.get("remotePort") or 0)
    timing = resp.get("timing") or {}
    if timing.get("requestTime") is not None:
        headers_ms = timing.get("receiveHeadersStart", timing.get("receiveHeadersEnd"))
        if headers_ms is not None and headers_ms >= 0:
            r.first_byte = float(timing["requestTime"]) + float(headers_ms) / 1000.0
    if r.first_byte is None and ts is not None:
        r.first_byte = float(ts)
    length = resp.get("encodedDataLength")
    if isinstance(length, (int, float)) and length > 0 and r.status in range(300, 400):
        r.size = 0  # a redirect hop carries no resource body


def load(path: str) -> Bundle:
    b = find(path)
    if b.devtools is None:
        raise BundleError(f"bundle {path} has no DevTools log (devtools.log.json: a JSON list of Network events)")
    try:
        events = _load_json(b.devtools)
    except (OSError, ValueError, EOFError) as e:
        raise BundleError(f"cannot read DevTools log {b.devtools}: {e}") from None
    b.resources = resources_from_events(events)
    return b
