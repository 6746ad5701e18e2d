"""bench:delays -- packets/s of the server_delays parser beside tshark reading the same pcap, same run.

The pcap (generated once, cached in /tmp) is realistic HTTP/1.1 browsing traffic: many keep-alive
connections, each fetching resources of web-like sizes (log-normal, median ~8 KB) cut into 1448-byte
segments, client ACKs every second segment, server think times of 0-300 ms.
Stages timed: capture decoding alone, and the whole analysis (decode + reassembly + HTTP pairing +
delays). tshark runs twice: plain reading (`-r FILE -q`, no output) and with HTTP dissection
(`-Y http -T fields -e http.request.uri`).
"""

from __future__ import annotations

import os
import random
import shutil
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "src"))

from server_delays import dns, measure  # noqa: E402
from server_delays.capture import read_capture  # noqa: E402
from server_delays.script_args import script_flags  # noqa: E402
from server_delays.tcp import reassemble  # noqa: E402

PCAP = os.environ.get("BENCH_PCAP", "/tmp/pcp-bench-delays-v1.pcap")
MSS = 1448
ETH = b"\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\x08\x00"


def _ip_tcp(src: bytes, dst: bytes, sport: int, dport: int, seq: int, ack: int, flags: int, data: bytes) -> bytes:
    tcp = struct.pack("!HHIIBBHHH", sport, dport, seq & 0xFFFFFFFF, ack & 0xFFFFFFFF, 5 << 4, flags, 65535, 0, 0)
    total = 20 + len(tcp) + len(data)
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, total, 0, 0x4000, 64, 6, 0, src, dst)
    return ETH + ip + tcp + data


def generate(path: str, target_packets: int, seed: int = 42) -> int:
    rng = random.Random(seed)
    out = open(path + ".tmp", "wb")
    out.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 262144, 1))
    n = 0
    t = 1_700_000_000.0
    conn = 0
    pending: list[tuple[float, bytes]] = []

    def emit(ts: float, frame: bytes) -> None:
        pending.append((ts, frame))

    while n < target_packets:
        # A batch of 6 parallel connections (a browser's per-host limit), interleaved by time.
        pending.clear()
        for _ in range(6):
            conn += 1
            cip, sip = bytes([10, 1, (conn >> 8) & 255, conn & 255]), bytes([93, 184, conn % 200, 34])
            sport, dport = 20000 + conn % 40000, 80
            rtt = rng.uniform(0.005, 0.080)
            c_seq, s_seq = rng.getrandbits(32), rng.getrandbits(32)
            ts = t + rng.uniform(0, 0.05)
            emit(ts, _ip_tcp(cip, sip, sport, dport, c_seq, 0, 0x02, b""))
            emit(ts + rtt, _ip_tcp(sip, cip, dport, sport, s_seq, c_seq + 1, 0x12, b""))
            c_seq += 1
            s_seq += 1
            ts += rtt
            emit(ts, _ip_tcp(cip, sip, sport, dport, c_seq, s_seq, 0x10, b""))
            for k in range(rng.randint(3, 15)):
                req = (f"GET /static/{conn}/{k}/asset-{rng.getrandbits(40):x}.js?v={k} HTTP/1.1\r\n"
                       f"Host: site{conn % 50}.example\r\nUser-Agent: Mozilla/5.0 bench\r\nAccept: */*\r\n"
                       f"Accept-Encoding: gzip\r\n"
                       f"Cookie: session={rng.getrandbits(128):x}\r\n\r\n").encode()
                ts += rng.uniform(0.001, 0.02)
                emit(ts, _ip_tcp(cip, sip, sport, dport, c_seq, s_seq, 0x18, req))
                c_seq += len(req)
                emit(ts + rtt / 2 + 0.0001, _ip_tcp(sip, cip, dport, sport, s_seq, c_seq, 0x10, b""))
                size = int(min(rng.lognormvariate(9, 1.2), 2_000_000))
                body = (b"HTTP/1.1 200 OK\r\nContent-Type: application/javascript\r\nContent-Length: "
                        + str(size).encode() + b"\r\nCache-Control: max-age=3600\r\n\r\n" + bytes(size))
                ts += rtt + rng.uniform(0, 0.3)
                for i, off in enumerate(range(0, len(body), MSS)):
                    ts += 0.00012
                    emit(ts, _ip_tcp(sip, cip, dport, sport, s_seq + off, c_seq, 0x18, body[off:off + MSS]))
                    if i % 2 == 1:
                        emit(ts + rtt / 2, _ip_tcp(cip, sip, sport, dport, c_seq, s_seq + off + MSS, 0x10, b""))
                s_seq += len(body)
        pending.sort(key=lambda p: p[0])
        for ts, frame in pending:
            sec = int(ts)
            out.write(struct.pack("<IIII", sec, int((ts - sec) * 1e6), len(frame), len(frame)) + frame)
        n += len(pending)
        t = pending[-1][0] + 0.01
    out.close()
    os.replace(path + ".tmp", path)
    return n


def timed(fn):
    t0 = time.perf_counter()
    v = fn()
    return v, time.perf_counter() - t0


def main() -> int:
    script_flags("bench:delays", f"usage: npm run bench:delays\n\n{__doc__}", sys.argv[1:])
    target = int(os.environ.get("BENCH_PACKETS", "400000"))
    if not os.path.exists(PCAP):
        n, secs = timed(lambda: generate(PCAP, target))
        print(f"generated {PCAP}: {n} packets in {secs:.1f}s (cached for later runs)")
    size_mb = os.path.getsize(PCAP) / 1e6
    cap, t_read = timed(lambda: read_capture(PCAP))
    packets = cap.packets

    def analyse():
        return measure.analyse(reassemble(cap.segments), dns.host_map(cap.datagrams))

    an, t_analyse = timed(analyse)
    total = t_read + t_analyse
    print(f"bench:delays  {PCAP}: {packets} packets, {size_mb:.0f} MB, {len(an.measurements)} HTTP exchanges")
    print(f"  server_delays decode        {packets / t_read:10.0f} packets/s  ({t_read:.2f}s)")
    print(f"  server_delays full analysis {packets / total:10.0f} packets/s  ({total:.2f}s)")
    tshark = shutil.which("tshark")
    if tshark is None:
        print("  tshark not installed: no baseline")
        return 0
    for label, args in (("tshark -r (read, no output)", ["-q"]),
                        ("tshark -r -Y http (HTTP fields)", ["-Y", "http", "-T", "fields", "-e", "http.request.uri"])):
        p, secs = timed(lambda args=args: subprocess.run([tshark, "-r", PCAP, *args], capture_output=True))
        if p.returncode != 0:
            print(f"  {label}: failed ({p.stderr.decode(errors='replace').strip()[-200:]})")
            continue
        print(f"  {label:27s} {packets / secs:10.0f} packets/s  ({secs:.2f}s)   "
              f"server_delays full analysis is {secs / total:.2f}x its speed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
