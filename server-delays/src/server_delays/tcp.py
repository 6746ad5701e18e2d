"""TCP reassembly per connection and direction.

Each direction's byte stream is rebuilt from segments in capture order. A byte's time is the first
time any segment carried it, so retransmissions and duplicate data never move a time later, and
out-of-order segments fill their place in the stream. Bytes that were on the wire but not captured
(snaplen cuts, lost segments) are holes: zero-filled in `data`, listed in `holes`.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field

from .capture import TCP_ACK, TCP_RST, TCP_SYN, Segment

_WRAP = 1 << 32
_HALF = 1 << 31

FlowKey = tuple[str, int, str, int]  # (src, sport, dst, dport)


@dataclass(slots=True)
class Piece:
    """A run of stream bytes first seen together, in one segment."""

    start: int
    end: int
    ts: float
    last_ts: float  # the last time any segment carried these bytes (retransmissions)


@dataclass(slots=True)
class AckMark:
    """A segment from the peer: when it was seen, what it acknowledged of this direction."""

    ts: float
    ack: int  # relative to this direction's data offset 0
    carries_data: bool
    data_start: int  # stream offsets of the peer's payload it carried (meaningful when carries_data)
    data_end: int


@dataclass
class Direction:
    """One direction of a connection: its reassembled stream and the peer's ACKs of it."""

    isn: int | None = None
    syn_ts: float | None = None
    pieces: list[Piece] = field(default_factory=list)  # sorted by start, non-overlapping
    holes: list[tuple[int, int]] = field(default_factory=list)
    data: bytearray = field(default_factory=bytearray)
    acks: list[AckMark] = field(default_factory=list)
    retransmitted_bytes: int = 0
    _starts: list[int] = field(default_factory=list)
    _ack_max: list[int] = field(default_factory=list)

    @property
    def length(self) -> int:
        return len(self.data)

    def offset(self, seq: int) -> int | None:
        """Stream offset of a sequence number (byte 0 is the one after the SYN); None if before it."""
        if self.isn is None:
            return None
        rel = (seq - self.isn - 1) % _WRAP
        return None if rel >= _HALF else rel

    def add(self, off: int, payload: bytes, length: int, ts: float) -> None:
        """Record `length` bytes at `off`, `payload` being the captured prefix of them."""
        end = off + length
        n = len(self.data)
        if off == n and len(payload) == length:
            # The common case: the next bytes in order, all captured.
            self.data += payload
            self.pieces.append(Piece(off, end, ts, ts))
            self._starts.append(off)
            return
        if end > n:
            self.data.extend(bytes(end - n))
        # Fast path: in-order data after everything seen so far.
        if not self.pieces or off >= self.pieces[-1].end:
            self._put(off, end, ts, payload)
            return
        i = max(bisect_right(self._starts, off) - 1, 0)
        while i < len(self.pieces) and self.pieces[i].start < end:
            if self.pieces[i].end > off:
                self.pieces[i].last_ts = ts
            i += 1
        parts = self._uncovered(off, end)
        for s, e in parts:
            self._put(s, e, ts, payload[s - off:e - off])
        self.retransmitted_bytes += length - sum(e - s for s, e in parts)

    def _uncovered(self, s: int, e: int) -> list[tuple[int, int]]:
        out = []
        i = max(bisect_right(self._starts, s) - 1, 0)
        cur = s
        while i < len(self.pieces) and cur < e:
            p = self.pieces[i]
            if p.end <= cur:
                i += 1
                continue
            if p.start >= e:
                break
            if p.start > cur:
                out.append((cur, p.start))
            cur = max(cur, p.end)
            i += 1
        if cur < e:
            out.append((cur, e))
        return out

    def _put(self, s: int, e: int, ts: float, payload: bytes) -> None:
        got = len(payload)
        if got:
            self.data[s:s + got] = payload
        if got < e - s:
            self.holes.append((s + got, e))
        i = bisect_left(self._starts, s)
        self.pieces.insert(i, Piece(s, e, ts, ts))
        self._starts.insert(i, s)

    def add_ack(self, mark: AckMark) -> None:
        prev = self._ack_max[-1] if self._ack_max else -1
        self.acks.append(mark)
        self._ack_max.append(max(prev, mark.ack))

    def time_at(self, off: int) -> float | None:
        """When the byte at `off` was first seen."""
        i = bisect_right(self._starts, off) - 1
        if i >= 0 and self.pieces[i].start <= off < self.pieces[i].end:
            return self.pieces[i].ts
        return None

    def last_time_at(self, off: int) -> float | None:
        """When the byte at `off` was last (re)transmitted."""
        i = bisect_right(self._starts, off) - 1
        if i >= 0 and self.pieces[i].start <= off < self.pieces[i].end:
            return self.pieces[i].last_ts
        return None

    def first_ack(self, upto: int, not_before: float) -> AckMark | None:
        """The first peer segment acknowledging every byte before `upto`, seen at or after `not_before`."""
        i = bisect_left(self._ack_max, upto)
        while i < len(self.acks):
            if self.acks[i].ts >= not_before and self.acks[i].ack >= upto:
                return self.acks[i]
            i += 1
        return None

    def in_hole(self, start: int, end: int) -> bool:
        return any(s < end and start < e for s, e in self.holes)


@dataclass
class Connection:
    """A TCP connection: the client is the side that sent the SYN (else the side with the higher port)."""

    client: tuple[str, int]
    server: tuple[str, int]
    up: Direction = field(default_factory=Direction)  # client -> server
    down: Direction = field(default_factory=Direction)  # server -> client
    syn_ts: float | None = None
    synack_ts: float | None = None
    first_ts: float = 0.0
    reset: bool = False
    index: int = 0

    @property
    def rtt(self) -> float | None:
        """Handshake RTT seen at the client (SYN -> SYN/ACK)."""
        if self.syn_ts is None or self.synack_ts is None:
            return None
        return max(self.synack_ts - self.syn_ts, 0.0)

    @property
    def key(self) -> FlowKey:
        return (self.client[0], self.client[1], self.server[0], self.server[1])


def _orient(seg: Segment) -> tuple[tuple[str, int], tuple[str, int]]:
    a, b = (seg.src, seg.sport), (seg.dst, seg.dport)
    if seg.flags & TCP_SYN and not seg.flags & TCP_ACK:
        return a, b
    if seg.flags & TCP_SYN:
        return b, a
    return (a, b) if seg.sport > seg.dport else (b, a)


def reassemble(segments: list[Segment]) -> list[Connection]:
    """Connections in order of first appearance; a reused four-tuple after a fresh SYN is a new one."""
    live: dict[frozenset, Connection] = {}
    out: list[Connection] = []
    for seg in segments:
        k = frozenset(((seg.src, seg.sport), (seg.dst, seg.dport)))
        conn = live.get(k)
        fresh_syn = seg.flags & TCP_SYN and not seg.flags & TCP_ACK
        if conn is not None and fresh_syn and conn.up.isn is not None and (seg.seq - conn.up.isn) % _WRAP != 0:
            conn = None  # port reuse: a new connection on the same four-tuple
        if conn is None:
            client, server = _orient(seg)
            conn = Connection(client, server, first_ts=seg.ts, index=len(out))
            live[k] = conn
            out.append(conn)
        _feed(conn, seg)
    return out


def _feed(conn: Connection, seg: Segment) -> None:
    from_client = (seg.src, seg.sport) == conn.client
    mine, peer = (conn.up, conn.down) if from_client else (conn.down, conn.up)
    if seg.flags & TCP_RST:
        conn.reset = True
    if seg.flags & TCP_SYN:
        if mine.isn is None:
            mine.isn, mine.syn_ts = seg.seq, seg.ts
        if from_client and conn.syn_ts is None:
            conn.syn_ts = seg.ts
        if not from_client and conn.synack_ts is None:
            conn.synack_ts = seg.ts
        return
    if mine.isn is None:
        # Capture began mid-connection: the first byte seen is offset 0.
        mine.isn = (seg.seq - 1) % _WRAP
    off = mine.offset(seg.seq)
    if seg.length and off is not None:
        mine.add(off, seg.payload, seg.length, seg.ts)
    if seg.flags & TCP_ACK and peer.isn is not None:
        ack = peer.offset(seg.ack)
        if ack is not None:
            start = off if off is not None else -1
            peer.add_ack(AckMark(seg.ts, ack, seg.length > 0, start, start + seg.length))
