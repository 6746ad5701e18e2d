"""TLS record framing over a reassembled stream: the ClientHello's SNI, and record-level exchanges.

An exchange is a run of client application-data records (a request) answered by server
application-data records. Timing uses the record boundaries as stream offsets, so the delay rule of
`measure` applies unchanged. TLS 1.3 hides its handshake tail and session tickets in application-data
records; those are recognised by position (see `exchanges`).
"""

from __future__ import annotations

from dataclasses import dataclass

CT_CCS = 20
CT_ALERT = 21
CT_HANDSHAKE = 22
CT_APPDATA = 23


@dataclass(slots=True)
class Record:
    start: int  # stream offset of the 5-byte header
    end: int
    ctype: int


@dataclass(slots=True)
class Exchange:
    """Client records [req_start, req_end) answered by a server run starting at resp_start."""

    req_start: int
    req_end: int
    resp_start: int | None
    resp_end: int | None


def records(data: bytes | bytearray) -> tuple[list[Record], str | None]:
    """Records from offset 0, and why framing stopped early (None at a clean end or a partial tail)."""
    out: list[Record] = []
    pos = 0
    n = len(data)
    while pos + 5 <= n:
        ctype = data[pos]
        if ctype not in (CT_CCS, CT_ALERT, CT_HANDSHAKE, CT_APPDATA, 24) or data[pos + 1] != 3:
            return out, f"not a TLS record at offset {pos}"
        length = int.from_bytes(data[pos + 3:pos + 5], "big")
        out.append(Record(pos, pos + 5 + length, ctype))
        pos += 5 + length
    return out, None


def looks_like_tls(data: bytes | bytearray) -> bool:
    return len(data) >= 6 and data[0] == CT_HANDSHAKE and data[1] == 3 and data[5] == 1


def client_hello_sni(data: bytes | bytearray) -> str | None:
    """The server_name of the ClientHello at the start of a client stream (first record only)."""
    if not looks_like_tls(data):
        return None
    rec_len = int.from_bytes(data[3:5], "big")
    body = bytes(data[5:5 + rec_len])
    try:
        p = 4 + 2 + 32  # handshake header, client_version, random
        p += 1 + body[p]  # session id
        p += 2 + int.from_bytes(body[p:p + 2], "big")  # cipher suites
        p += 1 + body[p]  # compression methods
        ext_end = p + 2 + int.from_bytes(body[p:p + 2], "big")
        p += 2
        while p + 4 <= min(ext_end, len(body)):
            etype = int.from_bytes(body[p:p + 2], "big")
            elen = int.from_bytes(body[p + 2:p + 4], "big")
            if etype == 0:
                q = p + 4 + 2
                while q + 3 <= p + 4 + elen:
                    ntype, nlen = body[q], int.from_bytes(body[q + 1:q + 3], "big")
                    if ntype == 0:
                        return body[q + 3:q + 3 + nlen].decode("ascii", "replace").lower()
                    q += 3 + nlen
            p += 4 + elen
    except IndexError:
        return None
    return None


TICKET_MAX = 600  # bytes: a NewSessionTicket record is a few hundred bytes
BURST = 0.001  # s: records written together arrive within this of each other
TLS13_ALERT = 2 + 1 + 16  # an encrypted alert's body: alert, inner content type, AEAD tag


def _ticket_like(rec: Record, ts: float, burst: list[tuple[float, Record]]) -> bool:
    """Whether a server record may be one more session ticket of the burst so far. A server's
    NewSessionTicket messages are one fixed layout (lifetime, age_add, nonce, ticket, extensions), so
    the tickets of a burst are records of one size; a small response written right after them (a
    trickled document's headers and first piece, 1 ms later) is not."""
    if rec.end - rec.start > TICKET_MAX:
        return False
    if not burst:
        return True
    first_ts, first = burst[0]
    return ts - first_ts <= BURST and rec.end - rec.start == first.end - first.start


def exchanges(up: list[Record], down: list[Record], up_time, down_time) -> list[Exchange]:
    """Record-level request/response exchanges of one connection.

    `up_time(off)` / `down_time(off)` give when a stream byte was first seen. A request is a run of
    client application-data records with no server application data in between; its response starts
    at the first server application-data record after its last byte.

    TLS 1.3 is recognised by the server sending application data before the client does (its
    encrypted handshake). Then the client's first application-data record is its Finished, and the
    server answers Finished with session tickets: a burst of small records of one size, the first
    server records after Finished. When that burst follows a request, it is skipped; when nothing else answers the
    request, the burst was the response after all (a small one sent at once) and stands. TLS 1.3 also
    encrypts alerts: a 19-byte record (alert, type byte, AEAD tag) is a close_notify, not a response.
    """
    c_app = [r for r in up if r.ctype == CT_APPDATA]
    s_app = [r for r in down if r.ctype == CT_APPDATA]
    if not c_app:
        return []
    tls13 = bool(s_app) and (down_time(s_app[0].start) or 0) <= (up_time(c_app[0].end - 1) or 0)
    if tls13:
        finished_ts = up_time(c_app[0].end - 1) or 0.0
        c_app = c_app[1:]
        # The server's encrypted handshake precedes the client's Finished: not responses.
        s_app = [r for r in s_app if (down_time(r.start) or 0) > finished_ts]
        s_app = [r for r in s_app if r.end - r.start != 5 + TLS13_ALERT]
    events = [(up_time(r.end - 1) or 0.0, 0, r) for r in c_app]
    events += [(down_time(r.start) or 0.0, 1, r) for r in s_app]
    events.sort(key=lambda e: (e[0], e[1]))
    out: list[Exchange] = []
    run: list[Record] = []
    burst: list[tuple[float, Record]] = []
    tickets_pending = tls13  # the first server records after Finished may be session tickets

    def close(resp: Record | None) -> None:
        nonlocal tickets_pending
        out.append(Exchange(run[0].start, run[-1].end, resp.start if resp else None, resp.end if resp else None))
        run.clear()
        burst.clear()
        tickets_pending = False

    for ts, side, rec in events:
        if side == 0:
            if run and burst:
                close(burst[0][1])
            run.append(rec)
            continue
        if not run:
            # No request outstanding: tickets sent before the first request, or a response's tail.
            tickets_pending = False
            continue
        if tickets_pending and _ticket_like(rec, ts, burst):
            burst.append((ts, rec))
            continue
        close(rec)
    if run:
        close(burst[0][1] if burst else None)
    return out
