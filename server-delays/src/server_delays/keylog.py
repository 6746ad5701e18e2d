"""Exact HTTPS pairing: tshark decrypts the capture with the TLS key log and names every HTTP/1.1
request/response and every HTTP/2 stream; the timing still comes from our own reassembly and the
delay rule of `measure`, so decrypted and cleartext delays mean the same thing.

tshark reports a message in the packet that completes it. A request ends with that packet's payload.
A response starts with the TLS record holding the first payload byte of the first packet tshark
reassembled it from (`tls.segment`, `tcp.segment`; the completing packet itself when it came in one):
an HTTP/1.1 body sent in pieces over time (a trickled document) completes with its last piece, but
the server answered with its first. Our reassembly knows when that record's first byte was seen.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections import defaultdict, deque
from dataclasses import dataclass
from urllib.parse import urlsplit

from . import tls
from .measure import Measurement, reference_time
from .tcp import Connection

FIELDS = ["frame.time_epoch", "ip.src", "ipv6.src", "tcp.srcport", "ip.dst", "ipv6.dst", "tcp.dstport",
          "tcp.seq_raw", "tcp.len", "http.request.method", "http.request.full_uri", "http.response.code",
          "http.content_type", "http.content_length", "http2.streamid", "http2.type", "http2.flags.end_stream",
          "http2.headers.method", "http2.headers.path", "http2.headers.authority", "http2.headers.scheme",
          "http2.headers.status", "http2.headers.content_type", "frame.number", "tls.segment", "tcp.segment"]
# Every decrypted message, and every TLS packet with a payload: the first packet of a reassembled
# message is not itself a message's packet, and its sequence number is needed.
FILTER = "http.request or http.response or http2.type == 1 or (tls and tcp.len > 0)"


class TsharkError(Exception):
    pass


@dataclass
class Message:
    """One decrypted HTTP message as tshark saw it: where its completing packet sits on our streams."""

    key: tuple[str, int, str, int]
    ts: float
    seq: int
    length: int
    request: bool
    method: str = ""
    url: str = ""
    status: int = 0
    mime_type: str = ""
    stream: int = -1  # HTTP/2 stream id; -1 for HTTP/1.x
    # HTTP/2: the message's HEADERS is not the first frame tshark decrypted in its packet (frames of records
    # that end in the packet, in order), so it may sit in a record that starts inside the packet.
    after_frames: bool = False


def run_tshark(capture: str, keylog: str, timeout: float = 300) -> list[dict]:
    exe = shutil.which("tshark")
    if exe is None:
        raise TsharkError("tshark is not installed")
    cmd = [exe, "-r", capture, "-o", f"tls.keylog_file:{keylog}", "-Y", FILTER, "-T", "json"]
    for f in FIELDS:
        cmd += ["-e", f]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise TsharkError(f"tshark took over {timeout:.0f}s") from None
    if out.returncode != 0:
        raise TsharkError(f"tshark failed: {out.stderr.strip().splitlines()[-1:] or out.returncode}")
    try:
        return [p["_source"]["layers"] for p in json.loads(out.stdout or "[]")]
    except (ValueError, KeyError, TypeError) as e:
        raise TsharkError(f"unreadable tshark output: {e}") from None


def _frames(layers: list[dict]) -> dict[int, tuple[tuple[str, int, str, int], int]]:
    """frame number -> (four-tuple, raw sequence number) of every packet tshark listed."""
    out = {}
    for lay in layers:
        try:
            (num,), (port_s,), (port_d,), (seq,) = (lay["frame.number"], lay["tcp.srcport"], lay["tcp.dstport"],
                                                    lay["tcp.seq_raw"])
            src = (lay.get("ip.src") or lay.get("ipv6.src"))[0]
            dst = (lay.get("ip.dst") or lay.get("ipv6.dst"))[0]
            out[int(num)] = ((src, int(port_s), dst, int(port_d)), int(seq))
        except (KeyError, ValueError, TypeError):
            continue
    return out


def _first_packet(lay: dict, key, frames: dict) -> int | None:
    """Raw sequence number of the earliest packet the message completed here was reassembled from, on
    the same direction of the same connection; None when it came in this packet alone."""
    nums = []
    for name in ("tls.segment", "tcp.segment"):
        for v in lay.get(name, []):
            try:
                nums.append(int(v))
            except ValueError:
                continue
    seqs = [frames[n][1] for n in sorted(nums) if n in frames and frames[n][0] == key]
    return seqs[0] if seqs else None


def messages(layers: list[dict]) -> list[Message]:
    """HTTP/1.x and HTTP/2 messages from tshark's per-packet fields. An HTTP/1.x response is placed at
    the first packet it was reassembled from (its first byte), not the packet that completed it."""
    out: list[Message] = []
    frames = _frames(layers)
    for lay in layers:
        def one(name: str, default: str = "", lay: dict = lay) -> str:
            v = lay.get(name)
            return v[0] if v else default

        src = one("ip.src") or one("ipv6.src")
        dst = one("ip.dst") or one("ipv6.dst")
        try:
            key = (src, int(one("tcp.srcport")), dst, int(one("tcp.dstport")))
            ts, seq, length = float(one("frame.time_epoch")), int(one("tcp.seq_raw")), int(one("tcp.len", "0"))
        except ValueError:
            continue
        for method, uri in zip(lay.get("http.request.method", []), lay.get("http.request.full_uri", []),
                               strict=False):
            out.append(Message(key, ts, seq, length, True, method.upper(), uri))
        types = lay.get("http.content_type", [])
        for i, code in enumerate(lay.get("http.response.code", [])):
            # The segment lists are those of the packet's first reassembled message: only it starts earlier.
            first = _first_packet(lay, key, frames) if i == 0 else None
            out.append(Message(key, ts, seq if first is None else first, length, False, status=int(code),
                               mime_type=(types[i] if i < len(types) else "").split(";")[0].strip().lower()))
        out.extend(_h2(lay, key, ts, seq, length))
    return out


def _h2(lay: dict, key, ts: float, seq: int, length: int) -> list[Message]:
    """HEADERS frames: those with :method are requests, those with :status responses (trailers skipped)."""
    frames = list(zip(lay.get("http2.streamid", []), lay.get("http2.type", []), strict=False))
    ids = [(int(s), i > 0) for i, (s, t) in enumerate(frames) if t == "1"]
    methods = deque(lay.get("http2.headers.method", []))
    paths = deque(lay.get("http2.headers.path", []))
    hosts = deque(lay.get("http2.headers.authority", []))
    schemes = deque(lay.get("http2.headers.scheme", []))
    statuses = deque(lay.get("http2.headers.status", []))
    ctypes = deque(lay.get("http2.headers.content_type", []))
    out = []
    for sid, later in ids:
        if methods:
            url = f"{schemes.popleft() if schemes else 'https'}://{hosts.popleft() if hosts else ''}" \
                  f"{paths.popleft() if paths else '/'}"
            out.append(Message(key, ts, seq, length, True, methods.popleft().upper(), url, stream=sid))
        elif statuses:
            out.append(Message(key, ts, seq, length, False, int(statuses.popleft()),
                               mime_type=(ctypes.popleft() if ctypes else "").split(";")[0].lower(), stream=sid,
                               after_frames=later))
    return out


def measurements(msgs: list[Message], conns: list[Connection]) -> list[Measurement]:
    """Pair decrypted requests and responses (FIFO per connection; by stream id for HTTP/2) and time them."""
    by_key: dict[tuple, Connection] = {}
    for c in conns:
        by_key[c.key] = c  # a reused four-tuple keeps the latest connection
    reqs: dict[tuple, deque] = defaultdict(deque)
    out: list[Measurement] = []
    records_cache: dict[int, list[tls.Record]] = {}
    for m in sorted(msgs, key=lambda m: m.ts):
        if m.request:
            conn = by_key.get(m.key)
            if conn is not None:
                reqs[(conn.index, m.stream)].append(m)
            continue
        conn = by_key.get((m.key[2], m.key[3], m.key[0], m.key[1]))
        if conn is None or not reqs[(conn.index, m.stream)]:
            continue
        req = reqs[(conn.index, m.stream)].popleft()
        if 100 <= m.status < 200:
            reqs[(conn.index, m.stream)].appendleft(req)
            continue
        out.append(_measure(conn, req, m, records_cache))
    return out


def _measure(conn: Connection, req: Message, resp: Message, cache: dict[int, list[tls.Record]]) -> Measurement:
    req_end = conn.up.offset(req.seq + req.length)
    req_ts = conn.up.time_at(req_end - 1) if req_end else None
    resp_off = conn.down.offset(resp.seq)
    if conn.index not in cache:
        cache[conn.index] = tls.records(conn.down.data)[0]
    resp_start = None
    if resp_off is not None:
        for r in cache[conn.index]:  # the record holding the packet's first byte
            if r.start <= resp_off < r.end:
                resp_start = r.start
                break
        resp_start = resp_off if resp_start is None else resp_start
        # That record began in an earlier packet; an HTTP/2 HEADERS after other frames may be in a later
        # record that starts in this packet (another stream's DATA ending here, then this response): its
        # first byte is no earlier than the packet. (HEADERS first: the record was sealed after it was
        # written, so the record's start stands.)
        if resp.after_frames and resp_start < resp_off:
            resp_start = resp_off
    resp_ts = conn.down.time_at(resp_start) if resp_start is not None else None
    delay = basis = None
    if req_ts is not None and resp_ts is not None and req_end is not None:
        ref, basis = reference_time(conn, req_end, req_ts, resp_start)
        delay = max(resp_ts - ref, 0.0) if ref is not None else None
    host = (urlsplit(req.url).hostname or "").lower()
    return Measurement(conn.index, host, True, f"{conn.server[0]}:{conn.server[1]}", req_ts or req.ts, resp_ts,
                       delay, "keylog" if delay is not None else "none", 0, req.method, req.url, resp.status,
                       resp.mime_type, 0, req_end or 0)


def decrypted_measurements(capture: str, keylog: str, conns: list[Connection]) -> list[Measurement]:
    """Every HTTPS exchange tshark could decrypt, timed like the cleartext ones."""
    msgs = [m for m in messages(run_tshark(capture, keylog)) if m.url.startswith("https:") or not m.request]
    return measurements(msgs, conns)
