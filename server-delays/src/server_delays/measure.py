"""The delay definition (thesis §3.4.1, Figure 3.2) applied to every connection of a capture.

delay = first response byte - the server's ACK of the request's last byte.
The ACK stands for the moment the server had the whole request. When it cannot stand for it, the
request time plus one handshake RTT does: when the ACK rides on the response's own data (it left
with the response, after processing), when it rides later than that on other data (it waited for the
server's next write: another stream's frames, a previous response's tail), when it also acknowledges
client data sent after the request (it waited for that data), or when it came so late that
it must be a delayed ACK (Linux delays ACKs by >= 40 ms once a connection turns interactive).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urlsplit

from . import http1, tls
from .tcp import Connection

# An ACK that comes more than max(10 ms, RTT/4) after the one RTT an immediate ACK takes is a delayed
# ACK (Linux waits >= 40 ms, others 200 ms), not the server's receipt.
DELAYED_ACK_SLACK = 0.010


@dataclass(slots=True)
class Measurement:
    """One request/response exchange measured on the wire. Times are capture seconds."""

    conn: int
    host: str
    tls: bool
    server: str
    req_ts: float  # the request's last byte
    resp_ts: float | None  # the response's first byte
    delay: float | None  # seconds
    basis: str  # 'ack', 'rtt' (ACK rode on the data or was delayed) or 'none'
    order: int  # position on its connection
    method: str = ""
    url: str = ""
    status: int = 0
    mime_type: str = ""
    size: int = 0
    req_end: int = 0  # client stream offset past the request (for exact pairing by tshark)


@dataclass
class Analysis:
    measurements: list[Measurement] = field(default_factory=list)
    hosts: dict[int, str] = field(default_factory=dict)  # connection index -> host name
    warnings: list[str] = field(default_factory=list)
    connections: list[Connection] = field(default_factory=list)


def reference_time(conn: Connection, req_end: int, req_ts: float,
                   resp_start: int | None) -> tuple[float | None, str]:
    """When the server is taken to have received the whole request (see the module docstring)."""
    rtt = conn.rtt
    ack = conn.up.first_ack(req_end, req_ts)
    # A retransmitted request reached the server with its last transmission.
    req_ts = max(req_ts, conn.up.last_time_at(req_end - 1) or req_ts)
    if ack is not None and ack.ts < req_ts:
        ack = conn.up.first_ack(req_end, req_ts) or ack
    if ack is None:
        return (req_ts + rtt, "rtt") if rtt is not None else (None, "none")
    rides = ack.carries_data and resp_start is not None and ack.data_start <= resp_start < ack.data_end
    if rides:
        return (req_ts + rtt, "rtt") if rtt is not None else (req_ts, "none")
    # An ACK may have been held, then it is no receipt: one on other data (another HTTP/2 stream's frames, a
    # previous response's tail) left with the server's next write (a receiver in interactive mode holds its
    # ACK for it); one that also covers client bytes sent after the request (the next HTTP/2 requests) waited
    # for them (Linux acknowledges at once when a second segment arrives, not when the first one does).
    later = conn.up.time_at(req_end) if ack.ack > req_end else None
    held = ack.carries_data or (later is not None and later > req_ts)
    if held and rtt is not None and ack.ts > req_ts + rtt:
        return req_ts + rtt, "rtt"
    if rtt is not None and ack.ts - req_ts > rtt + max(DELAYED_ACK_SLACK, rtt / 4):
        return req_ts + rtt, "rtt"
    return ack.ts, "ack"


def _delay(conn: Connection, req_end: int, req_ts: float,
           resp_start: int | None) -> tuple[float | None, float | None, str]:
    if resp_start is None:
        return None, None, "none"
    resp_ts = conn.down.time_at(resp_start)
    if resp_ts is None:
        return None, None, "none"
    ref, basis = reference_time(conn, req_end, req_ts, resp_start)
    if ref is None:
        return resp_ts, None, basis
    return resp_ts, max(resp_ts - ref, 0.0), basis


def http_connection(conn: Connection, host_of_ip: dict[str, list[str]]) -> tuple[list[Measurement], list[str]]:
    warnings = []
    reqs, why = http1.parse_requests(conn.up.data)
    if why:
        warnings.append(f"connection {conn.key}: requests: {why}")
    resps, why = http1.parse_responses(conn.down.data, [r.method for r in reqs])
    if why:
        warnings.append(f"connection {conn.key}: responses: {why}")
    out = []
    for i, (req, resp) in enumerate(http1.pair(reqs, resps)):
        req_ts = conn.up.time_at(req.end - 1)
        if req_ts is None:
            continue
        resp_ts, delay, basis = _delay(conn, req.end, req_ts, resp.start if resp else None)
        host = _hostname(req.host) or _name(conn, host_of_ip)
        out.append(Measurement(conn.index, host, False, f"{conn.server[0]}:{conn.server[1]}", req_ts, resp_ts,
                               delay, basis, i, req.method, req.url, resp.status if resp else 0,
                               resp.mime_type if resp else "", resp.body_size if resp else 0, req.end))
    return out, warnings


def _hostname(host_header: str) -> str:
    """The name in a Host header, without its port ('[::1]:8080' -> '::1')."""
    try:
        return (urlsplit("//" + host_header.strip()).hostname or "").lower()
    except ValueError:
        return ""


def _name(conn: Connection, host_of_ip: dict[str, list[str]]) -> str:
    names = host_of_ip.get(conn.server[0])
    return names[0] if names else conn.server[0]


def tls_connection(conn: Connection, host_of_ip: dict[str, list[str]]) -> tuple[list[Measurement], list[str]]:
    warnings = []
    host = tls.client_hello_sni(conn.up.data) or _name(conn, host_of_ip)
    up, why = tls.records(conn.up.data)
    if why:
        warnings.append(f"connection {conn.key}: client TLS records: {why}")
    down, why = tls.records(conn.down.data)
    if why:
        warnings.append(f"connection {conn.key}: server TLS records: {why}")
    out = []
    for i, ex in enumerate(tls.exchanges(up, down, conn.up.time_at, conn.down.time_at)):
        req_ts = conn.up.time_at(ex.req_end - 1)
        if req_ts is None:
            continue
        resp_ts, delay, basis = _delay(conn, ex.req_end, req_ts, ex.resp_start)
        out.append(Measurement(conn.index, host, True, f"{conn.server[0]}:{conn.server[1]}", req_ts, resp_ts,
                               delay, basis, i, req_end=ex.req_end))
    return out, warnings


def analyse(connections: list[Connection], host_of_ip: dict[str, list[str]]) -> Analysis:
    """Measurements for every HTTP/1.x or TLS connection; other protocols are skipped with a note."""
    res = Analysis(connections=connections)
    other = 0
    for conn in connections:
        head = bytes(conn.up.data[:16])
        if not head:
            continue
        if tls.looks_like_tls(head):
            ms, warns = tls_connection(conn, host_of_ip)
        elif head.split(b" ")[0] in (m for m in (b"GET", b"POST", b"HEAD", b"PUT", b"DELETE", b"OPTIONS",
                                                 b"PATCH")):
            ms, warns = http_connection(conn, host_of_ip)
        else:
            other += 1
            continue
        if ms:
            res.hosts[conn.index] = ms[0].host
        res.measurements.extend(ms)
        res.warnings.extend(warns)
    if other:
        res.warnings.append(f"{other} TCP connections carried neither HTTP/1.x nor TLS; skipped")
    return res
