"""Write small captures with dpkt for the tests: a scripted TCP conversation between a client and a
server, framed as Ethernet, Linux SLL/SLL2 or raw IP, into pcap or pcapng.

Times are given in milliseconds from t0 so that expected delays can be read off the script.
"""

from __future__ import annotations

import socket
import struct
from dataclasses import dataclass, field

import dpkt

T0 = 1_700_000_000.0
CLIENT = ("10.0.0.2", 51000)
SERVER = ("10.0.0.1", 80)

SYN, ACK, PSH, FIN = dpkt.tcp.TH_SYN, dpkt.tcp.TH_ACK, dpkt.tcp.TH_PUSH, dpkt.tcp.TH_FIN


@dataclass
class Conversation:
    """One TCP connection. `seq` tracks the next byte each side sends; packets are (ms, ip bytes)."""

    client: tuple[str, int] = CLIENT
    server: tuple[str, int] = SERVER
    isn_c: int = 1000
    isn_s: int = 5000
    packets: list[tuple[float, bytes]] = field(default_factory=list)

    def __post_init__(self):
        self.nxt = {"c": self.isn_c + 1, "s": self.isn_s + 1}

    def _ip(self, side: str, seq: int, ack: int, flags: int, data: bytes) -> bytes:
        src, dst = (self.client, self.server) if side == "c" else (self.server, self.client)
        tcp = dpkt.tcp.TCP(sport=src[1], dport=dst[1], seq=seq & 0xFFFFFFFF, ack=ack & 0xFFFFFFFF, flags=flags,
                           win=65535, data=data)
        if ":" in src[0]:
            v6 = socket.AF_INET6
            ip6 = dpkt.ip6.IP6(src=socket.inet_pton(v6, src[0]), dst=socket.inet_pton(v6, dst[0]),
                               nxt=dpkt.ip.IP_PROTO_TCP, hlim=64, data=tcp)
            ip6.plen = len(tcp)
            return bytes(ip6)
        ip = dpkt.ip.IP(src=socket.inet_aton(src[0]), dst=socket.inet_aton(dst[0]), p=dpkt.ip.IP_PROTO_TCP,
                        ttl=64, data=tcp)
        ip.len = len(ip)  # dpkt fills checksums on bytes()
        return bytes(ip)

    def handshake(self, ms: float, rtt: float) -> Conversation:
        self.packets.append((ms, self._ip("c", self.isn_c, 0, SYN, b"")))
        self.packets.append((ms + rtt, self._ip("s", self.isn_s, self.isn_c + 1, SYN | ACK, b"")))
        self.packets.append((ms + rtt, self._ip("c", self.isn_c + 1, self.isn_s + 1, ACK, b"")))
        return self

    def send(self, ms: float, side: str, data: bytes, *, seq_off: int | None = None, advance: bool = True,
             flags: int = PSH | ACK) -> Conversation:
        """`side` sends `data` at `ms`; seq_off re-sends from an earlier offset (retransmission)."""
        other = "s" if side == "c" else "c"
        seq = self.nxt[side] if seq_off is None else (self.isn_c if side == "c" else self.isn_s) + 1 + seq_off
        self.packets.append((ms, self._ip(side, seq, self.nxt[other], flags, data)))
        if advance and seq_off is None:
            self.nxt[side] += len(data)
        return self

    def ack(self, ms: float, side: str) -> Conversation:
        """A pure ACK from `side` of everything the other side sent so far."""
        other = "s" if side == "c" else "c"
        self.packets.append((ms, self._ip(side, self.nxt[side], self.nxt[other], ACK, b"")))
        return self


def frame(linktype: str, ip: bytes) -> bytes:
    etype = 0x86DD if ip[0] >> 4 == 6 else 0x0800
    if linktype == "ethernet":
        return b"\x00\x11\x22\x33\x44\x55" + b"\x66\x77\x88\x99\xaa\xbb" + struct.pack("!H", etype) + ip
    if linktype == "sll":
        # packet type (0 = to us), ARPHRD_ETHER, address length, 8-byte address, protocol
        return struct.pack("!HHH8sH", 0, 1, 6, b"\x66\x77\x88\x99\xaa\xbb\x00\x00", etype) + ip
    if linktype == "sll2":
        # protocol, reserved, ifindex, ARPHRD_ETHER, packet type, address length, 8-byte address
        return struct.pack("!HHIHBB8s", etype, 0, 1, 1, 0, 6, b"\x66\x77\x88\x99\xaa\xbb\x00\x00") + ip
    if linktype == "raw":
        return ip
    raise ValueError(linktype)


LINKTYPES = {"ethernet": 1, "sll": 113, "sll2": 276, "raw": 101}


def write(path, packets: list[tuple[float, bytes]], linktype: str = "ethernet", fmt: str = "pcap",
          snaplen: int = 65535) -> str:
    """Packets (ms, ip bytes) sorted by time into a capture file; frames cut at `snaplen`."""
    packets = sorted(packets, key=lambda p: p[0])
    with open(path, "wb") as f:
        if fmt == "pcapng":
            w = dpkt.pcapng.Writer(f, snaplen=snaplen, linktype=LINKTYPES[linktype])
        else:
            w = dpkt.pcap.Writer(f, snaplen=snaplen, linktype=LINKTYPES[linktype], nano=False)
        for ms, ip in packets:
            buf = frame(linktype, ip)
            ts = T0 + ms / 1000
            if len(buf) > snaplen:
                if fmt == "pcapng":
                    w.writepkt_time(buf[:snaplen], ts)  # dpkt records the cut length as the wire length
                else:
                    _write_cut_pcap(f, buf, snaplen, ts)
            else:
                w.writepkt(buf, ts)
    return str(path)


def _write_cut_pcap(f, buf: bytes, snaplen: int, ts: float) -> None:
    """A pcap record whose captured length is below its wire length, as tcpdump -s writes them."""
    sec = int(ts)
    usec = round((ts - sec) * 1e6)
    f.write(struct.pack("<IIII", sec, usec, snaplen, len(buf)) + buf[:snaplen])


def get(path: str, host: str = "example.org", extra: str = "") -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: {host}\r\n{extra}\r\n".encode()


def ok(body: bytes, ctype: str = "text/css", status: str = "200 OK") -> bytes:
    return f"HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body
