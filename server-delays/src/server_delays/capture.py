"""Capture reading: pcap and pcapng through dpkt, link layers decoded by hand for speed.

Supported link types: Ethernet (with 802.1Q tags), Linux cooked SLL and SLL2, raw IP, BSD loopback.
Only TCP segments and UDP datagrams on port 53 (DNS) are kept. A truncated file keeps every packet
read before the damage and adds a warning; an unreadable file raises CaptureError.
"""

from __future__ import annotations

import mmap
import os
import socket
import struct
from collections.abc import Iterator
from dataclasses import dataclass, field

import dpkt

# LINKTYPE_* values (tcpdump.org/linktypes.html); 12 and 14 are historical DLT_RAW aliases.
LINK_NULL = 0
LINK_ETHERNET = 1
LINK_RAW = (12, 14, 101)
LINK_LOOP = 108
LINK_SLL = 113
LINK_IPV4 = 228
LINK_IPV6 = 229
LINK_SLL2 = 276
LINK_NAMES = {0: "null", 1: "ethernet", 12: "raw", 14: "raw", 101: "raw", 108: "loop", 113: "linux-sll",
              228: "ipv4", 229: "ipv6", 276: "linux-sll2"}

ETH_IPV4 = 0x0800
ETH_IPV6 = 0x86DD
ETH_VLAN = (0x8100, 0x88A8)

TCP_FIN = 0x01
TCP_SYN = 0x02
TCP_RST = 0x04
TCP_PSH = 0x08
TCP_ACK = 0x10


class CaptureError(Exception):
    """The capture cannot be read at all (missing, not a capture, unsupported link type)."""


@dataclass(slots=True)
class Segment:
    """One TCP segment as seen at the capture point."""

    ts: float
    src: str
    dst: str
    sport: int
    dport: int
    seq: int
    ack: int
    flags: int
    payload: bytes  # the captured payload bytes (may be shorter than `length` under a snaplen)
    length: int  # payload length on the wire, from the IP header

    @property
    def truncated(self) -> bool:
        return len(self.payload) < self.length


@dataclass(slots=True)
class Datagram:
    """One UDP datagram (only DNS is kept)."""

    ts: float
    src: str
    dst: str
    sport: int
    dport: int
    payload: bytes


@dataclass
class Capture:
    path: str
    linktype: int
    packets: int = 0
    segments: list[Segment] = field(default_factory=list)
    datagrams: list[Datagram] = field(default_factory=list)
    truncated_packets: int = 0
    warnings: list[str] = field(default_factory=list)


_ipv4 = socket.inet_ntoa


def _ipv6(b: bytes) -> str:
    return socket.inet_ntop(socket.AF_INET6, b)


def network_offset(linktype: int, frame: bytes) -> tuple[int, int] | None:
    """(offset of the IP header, IP version) for a frame, or None when it carries no IP."""
    if linktype == LINK_ETHERNET:
        off, etype = 14, int.from_bytes(frame[12:14], "big") if len(frame) >= 14 else 0
        while etype in ETH_VLAN and len(frame) >= off + 4:
            etype = int.from_bytes(frame[off + 2:off + 4], "big")
            off += 4
    elif linktype == LINK_SLL:
        off, etype = 16, int.from_bytes(frame[14:16], "big") if len(frame) >= 16 else 0
    elif linktype == LINK_SLL2:
        off, etype = 20, int.from_bytes(frame[0:2], "big") if len(frame) >= 20 else 0
    elif linktype in LINK_RAW or linktype in (LINK_IPV4, LINK_IPV6):
        if not frame:
            return None
        version = frame[0] >> 4
        return (0, version) if version in (4, 6) else None
    elif linktype in (LINK_NULL, LINK_LOOP):
        if len(frame) < 4:
            return None
        family = int.from_bytes(frame[0:4], "little" if linktype == LINK_NULL else "big")
        if family not in (2, 10, 24, 28, 30):  # AF_INET, then the AF_INET6 values of various BSDs/Linux
            family = int.from_bytes(frame[0:4], "big" if linktype == LINK_NULL else "little")
        return (4, 4) if family == 2 else (4, 6) if family in (10, 24, 28, 30) else None
    else:
        return None
    if etype == ETH_IPV4:
        return off, 4
    if etype == ETH_IPV6:
        return off, 6
    return None


_IPV6_EXT = {0, 43, 60}  # hop-by-hop, routing, destination options: skipped to find TCP/UDP


def decode(linktype: int, ts: float, frame: bytes) -> Segment | Datagram | None:
    """Decode one frame into a TCP Segment, a DNS Datagram, or None (anything else or malformed)."""
    if linktype == LINK_ETHERNET and frame[12:14] == b"\x08\x00":
        where: tuple[int, int] | None = (14, 4)  # untagged Ethernet IPv4, the bulk of any capture
    else:
        where = network_offset(linktype, frame)
    if where is None:
        return None
    off, version = where
    if version == 4:
        if len(frame) < off + 20:
            return None
        ihl = (frame[off] & 0x0F) * 4
        total = int.from_bytes(frame[off + 2:off + 4], "big")
        if int.from_bytes(frame[off + 6:off + 8], "big") & 0x1FFF:
            return None  # a non-first fragment carries no transport header
        proto = frame[off + 9]
        src, dst = _ipv4(frame[off + 12:off + 16]), _ipv4(frame[off + 16:off + 20])
        l4 = off + ihl
        # total == 0 happens with TSO/GSO on loopback: the captured length is then the truth.
        wire_end = off + total if total else None
    elif version == 6:
        if len(frame) < off + 40:
            return None
        plen = int.from_bytes(frame[off + 4:off + 6], "big")
        proto = frame[off + 6]
        src, dst = _ipv6(frame[off + 8:off + 24]), _ipv6(frame[off + 24:off + 40])
        l4 = off + 40
        while proto in _IPV6_EXT and len(frame) >= l4 + 2:
            proto, l4 = frame[l4], l4 + (frame[l4 + 1] + 1) * 8
        wire_end = off + 40 + plen if plen else None
    else:
        return None
    if proto == 6:
        if len(frame) < l4 + 20:
            return None
        sport, dport, seq, ack, doff_flags = struct.unpack_from("!HHIIH", frame, l4)
        data_off = l4 + ((doff_flags >> 12) * 4)
        length = (wire_end - data_off) if wire_end is not None else (len(frame) - data_off)
        length = max(length, 0)
        payload = frame[data_off:data_off + length]
        return Segment(ts, src, dst, sport, dport, seq, ack, doff_flags & 0x3F, payload, length)
    if proto == 17:
        if len(frame) < l4 + 8:
            return None
        sport, dport = struct.unpack_from("!HH", frame, l4)
        if sport != 53 and dport != 53:
            return None
        return Datagram(ts, src, dst, sport, dport, frame[l4 + 8:wire_end] if wire_end else frame[l4 + 8:])
    return None


_PCAP_MAGIC = {  # magic -> (byte order, seconds per timestamp fraction unit)
    b"\xd4\xc3\xb2\xa1": ("<", 1e-6), b"\xa1\xb2\xc3\xd4": (">", 1e-6),
    b"\x4d\x3c\xb2\xa1": ("<", 1e-9), b"\xa1\xb2\x3c\x4d": (">", 1e-9),
}
_PCAPNG_MAGIC = b"\x0a\x0d\x0d\x0a"


def iter_frames(path: str, warnings: list[str]) -> Iterator[tuple[int, float, bytes]]:
    """(linktype, ts, frame) for every frame; a damaged tail ends the iteration with a warning.

    Classic pcap is walked here over an mmap (dpkt's Reader costs a third of a whole analysis, see
    bench:delays); pcapng goes through dpkt.pcapng.
    """
    try:
        fileobj = open(path, "rb")
    except OSError as e:
        raise CaptureError(f"cannot open capture {path}: {e.strerror}") from None
    with fileobj:
        magic = fileobj.read(4)
        fileobj.seek(0)
        if len(magic) < 4:
            raise CaptureError(f"{path}: empty file")
        if magic in _PCAP_MAGIC:
            yield from _pcap_frames(fileobj, path, magic, warnings)
        elif magic == _PCAPNG_MAGIC:
            yield from _pcapng_frames(fileobj, path, warnings)
        else:
            raise CaptureError(f"{path}: not a pcap or pcapng file (magic {magic.hex()})")


def _pcap_frames(fileobj, path: str, magic: bytes, warnings: list[str]) -> Iterator[tuple[int, float, bytes]]:
    order, unit = _PCAP_MAGIC[magic]
    size = os.fstat(fileobj.fileno()).st_size
    if size < 24:
        raise CaptureError(f"{path}: truncated pcap header ({size} of 24 bytes)")
    buf = mmap.mmap(fileobj.fileno(), 0, access=mmap.ACCESS_READ)
    try:
        linktype = struct.unpack_from(order + "I", buf, 20)[0] & 0xFFFF
        record = struct.Struct(order + "IIII")
        unpack = record.unpack_from
        off, n = 24, 0
        while off + 16 <= size:
            sec, frac, caplen, _wire = unpack(buf, off)
            off += 16
            if off + caplen > size:
                warnings.append(f"capture {path} is truncated inside packet {n + 1}; kept the {n} packets before it")
                return
            n += 1
            yield linktype, sec + frac * unit, buf[off:off + caplen]
            off += caplen
        if off < size:
            warnings.append(f"capture {path} ends with a partial packet header after {n} packets; "
                            "kept the packets before it")
    finally:
        buf.close()


def _pcapng_frames(fileobj, path: str, warnings: list[str]) -> Iterator[tuple[int, float, bytes]]:
    try:
        reader = dpkt.pcapng.Reader(fileobj)
    except (ValueError, dpkt.Error, struct.error) as e:
        raise CaptureError(f"cannot read capture header of {path}: {e}") from None
    linktype = reader.datalink()
    n = 0
    try:
        for ts, frame in reader:
            n += 1
            yield linktype, float(ts), frame
    except (ValueError, dpkt.Error, struct.error, EOFError) as e:
        warnings.append(f"capture {path} is truncated or damaged after {n} packets ({type(e).__name__}); "
                        "kept the packets before it")
        return
    if fileobj.tell() < os.fstat(fileobj.fileno()).st_size:
        warnings.append(f"capture {path} ends with a partial block after {n} packets; kept the packets before it")


def read_capture(path: str) -> Capture:
    """Every TCP segment and DNS datagram of a capture, in capture order."""
    warnings: list[str] = []
    segments: list[Segment] = []
    datagrams: list[Datagram] = []
    packets = truncated = 0
    linktype = -1
    for linktype, ts, frame in iter_frames(path, warnings):
        packets += 1
        rec = decode(linktype, ts, frame)
        if rec is None:
            continue
        if isinstance(rec, Segment):
            if len(rec.payload) < rec.length:
                truncated += 1
            segments.append(rec)
        else:
            datagrams.append(rec)
    if linktype != -1 and linktype not in LINK_NAMES:
        raise CaptureError(f"unsupported link type {linktype} in {path} "
                           "(supported: Ethernet, Linux SLL/SLL2, raw IP, loopback)")
    cap = Capture(path, linktype, packets, segments, datagrams, truncated, warnings)
    if truncated:
        warnings.append(f"{truncated} TCP segments were cut by the snapshot length; their missing bytes are "
                        "treated as holes")
    return cap
