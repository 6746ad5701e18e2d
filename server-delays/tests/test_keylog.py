"""Exact HTTPS pairing through tshark and a TLS key log, on a real capture: a Python TLS server on
127.0.0.1 holds /slow for 150 ms and /fast for 20 ms; a client asks /slow first (connection 1) and
/fast second (connection 2), so first-response-byte order is the reverse of request order and only
decryption can tell which delay is whose. Expected: /slow ~150 ms, /fast ~20 ms, both measured by
`keylog`. A third connection's /trickle sends its body in two pieces 150 ms apart: its delay ends at
the first. The server logs what it actually held each response (a Python server's threads can wake
late), and the recovered delays are compared with that. The capture is known live, and known complete, when
tcpdump has written a marker datagram sent before and after the exchanges (no fixed sleeps: a loaded machine's
tcpdump can lag). Needs tcpdump (root) and tshark."""

from __future__ import annotations

import http.client
import http.server
import os
import shutil
import signal
import socket
import ssl
import subprocess
import threading
import time
import uuid

import pytest

from server_delays import keylog
from server_delays.pipeline import run

pytestmark = pytest.mark.skipif(not (shutil.which("tcpdump") and shutil.which("tshark") and os.geteuid() == 0
                                     and shutil.which("openssl")), reason="needs root, tcpdump, tshark, openssl")
HOLD = {"/slow": 150, "/fast": 20}
HELD: dict[str, float] = {}


def _await_marker(pcap, mark: socket.socket, what: str) -> None:
    """Sends a datagram naming `what` until tcpdump has written it: packets reach the capture file in the
    order they crossed lo, so once it is there every packet sent before it is too, and the capture is live."""
    marker = f"pcp-marker {what} {uuid.uuid4()}".encode()
    deadline = time.monotonic() + 60
    while not (pcap.exists() and marker in pcap.read_bytes()):
        assert time.monotonic() < deadline, f"tcpdump did not write the {what} marker within 60 s"
        mark.send(marker)
        time.sleep(0.02)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Without TCP_NODELAY the response waits behind the unacknowledged session ticket for the
    # client's delayed ACK (Nagle): real wire delay, but not the hold this test injects.
    disable_nagle_algorithm = True

    def do_GET(self):  # noqa: N802 -- http.server's naming
        t0 = time.monotonic()
        time.sleep(HOLD.get(self.path, 0) / 1000)
        body = b"x" * 100
        # What it held before its first byte: end_headers() writes the headers, and a loaded machine may
        # run this thread again only well after they left.
        HELD[self.path] = (time.monotonic() - t0) * 1000
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.path == "/trickle":  # the body in two pieces 150 ms apart: the delay ends at the first
            self.wfile.write(body[:50])
            self.wfile.flush()
            time.sleep(0.15)
            body = body[50:]
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_keylog_pairs_https_exactly(tmp_path):
    key, crt = tmp_path / "k.pem", tmp_path / "c.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-days", "1", "-subj", "/CN=tls.test", "-keyout", key, "-out", crt],
                   check=True, capture_output=True)
    sctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    sctx.load_cert_chain(crt, key)
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.socket = sctx.wrap_socket(srv.socket, server_side=True)
    port = srv.server_address[1]
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    pcap, keys = tmp_path / "c.pcap", tmp_path / "keys.log"
    sink = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)  # the markers' destination, bound for the whole test
    sink.bind(("127.0.0.1", 0))
    mark = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    mark.connect(sink.getsockname())
    dump = subprocess.Popen(["tcpdump", "-i", "lo", "--immediate-mode", "-U", "-s", "0", "-w", str(pcap),
                             f"tcp port {port} or udp port {sink.getsockname()[1]}"], stderr=subprocess.PIPE, text=True)
    try:
        assert "listening" in dump.stderr.readline()
        _await_marker(pcap, mark, "start")  # "listening" can precede the kernel filter being attached
        cctx = ssl.create_default_context()
        cctx.check_hostname, cctx.verify_mode = False, ssl.CERT_NONE
        cctx.keylog_filename = str(keys)
        results = {}

        def fetch(path: str) -> None:
            c = http.client.HTTPSConnection("127.0.0.1", port, context=cctx)
            c.request("GET", path, headers={"Host": f"tls.test:{port}"})
            results[path] = c.getresponse().read()
            c.close()

        slow = threading.Thread(target=fetch, args=("/slow",))
        slow.start()
        time.sleep(0.03)
        fetch("/fast")
        slow.join()
        fetch("/trickle")
        _await_marker(pcap, mark, "end")  # every packet of the exchanges is written before tcpdump is stopped
    finally:
        dump.send_signal(signal.SIGINT)
        dump.wait(timeout=10)
        srv.shutdown()
        mark.close()
        sink.close()
    res = run(str(pcap), keylog=str(keys))
    got = {r.url.rsplit("/", 1)[1]: r for r in res.records}
    assert set(got) == {"slow", "fast", "trickle"}
    assert got["slow"].source == got["fast"].source == got["trickle"].source == "keylog"
    # The wire cannot show less than the server held; a loaded machine only adds (37 ms over /fast's hold was
    # seen at load average 25), so a lower bound shows the pairing: swapped, /slow would get /fast's ~20 ms.
    assert all(got[p].delayMs >= HELD["/" + p] - 2 for p in got), ({p: got[p].delayMs for p in got}, HELD)
    # /trickle's delay ends at its first piece: tshark reports the response in the packet completing its
    # body, which left at least 150 ms after the first piece (the server slept between them).
    (trickle,) = [m for m in res.measurements if m.url.endswith("/trickle")]
    last = max(m.ts for m in keylog.messages(keylog.run_tshark(str(pcap), str(keys))) if not m.request)
    assert last - trickle.resp_ts >= 0.15 - 0.002
    # Without the key log the two exchanges have no urls.
    assert {r.url for r in run(str(pcap), use_tshark=False).records} == {""}


def test_h2_headers_align_with_their_streams():
    # One packet carrying two HEADERS frames (streams 1 and 3) and a DATA frame: tshark lists the
    # frame types and stream ids per frame and the header values only for HEADERS frames.
    layers = [{"frame.time_epoch": ["1.0"], "ip.src": ["10.0.0.2"], "tcp.srcport": ["5000"], "ip.dst": ["10.0.0.1"],
               "tcp.dstport": ["443"], "tcp.seq_raw": ["100"], "tcp.len": ["90"],
               "http2.streamid": ["1", "3", "1"], "http2.type": ["1", "1", "0"],
               "http2.headers.method": ["GET", "POST"], "http2.headers.path": ["/a", "/b"],
               "http2.headers.authority": ["x.test", "x.test"], "http2.headers.scheme": ["https", "https"]}]
    msgs = keylog.messages(layers)
    assert [(m.stream, m.method, m.url) for m in msgs] == [(1, "GET", "https://x.test/a"),
                                                           (3, "POST", "https://x.test/b")]


def _tls(n: int) -> bytes:
    """A TLS application-data record of n bytes of payload (framing is all the measurement reads)."""
    return bytes([23, 3, 3, n >> 8, n & 0xFF]) + bytes(n)


def test_h2_headers_after_other_frames_are_no_earlier_than_their_packet(tmp_path):
    # rtt 2; the request (one record) at 10, ACKed at 11. Record R1 (another stream's DATA) starts at 20 and
    # ends in the packet at 30, which also carries R2. tshark lists the response's HEADERS in the packet at
    # 30: after R1's frames it may be in R2, which cannot have left before 30 -> 30 - 11 = 19 ms. As the
    # packet's first frame it is R1's first, and R1 was sealed after it was written -> 20 - 11 = 9 ms.
    from pcapkit import Conversation, write

    from server_delays.capture import read_capture
    from server_delays.tcp import reassemble

    r1 = _tls(200)
    c = Conversation().handshake(0, 2)
    c.send(10, "c", _tls(50)).ack(11, "s")
    c.send(20, "s", r1[:100]).send(30, "s", r1[100:] + _tls(40))
    conns = reassemble(read_capture(write(tmp_path / "h2.pcap", c.packets)).segments)
    (conn,) = conns
    req_seq = conn.up.isn + 1
    resp_seq = conn.down.isn + 1 + 100
    ckey = (*conn.client, *conn.server)
    skey = (*conn.server, *conn.client)

    def delay(after_frames: bool) -> float:
        req = keylog.Message(ckey, 0.0, req_seq, 55, True, "GET", "https://x.test/a", stream=3)
        resp = keylog.Message(skey, 0.0, resp_seq, 150, False, 200, stream=3, after_frames=after_frames)
        (m,) = keylog.measurements([req, resp], conns)
        return round(m.delay * 1000, 3)

    assert delay(True) == 19.0
    assert delay(False) == 9.0


def test_trickled_http1_response_starts_at_its_first_packet(tmp_path):
    # rtt 2; the request (one 60-byte record) at 10, ACKed at 10.5. The server trickles its response: the
    # record with the headers and first piece at 12 (frame 6), two more pieces at 162 and 312 (frames 7, 8).
    # tshark reassembles the body and reports the response in frame 8, listing frames 6, 7, 8 as its
    # segments: the response began at 12 -> 12 - 10.5 = 1.5 ms. From the completing packet: 301.5 ms.
    from pcapkit import Conversation, write

    from server_delays.capture import read_capture
    from server_delays.tcp import reassemble

    c = Conversation().handshake(0, 2)
    c.send(10, "c", _tls(60)).ack(10.5, "s")
    c.send(12, "s", _tls(500)).send(162, "s", _tls(256)).send(312, "s", _tls(50))
    conns = reassemble(read_capture(write(tmp_path / "trickle.pcap", c.packets)).segments)
    (conn,) = conns
    cli = {"ip.src": [conn.client[0]], "tcp.srcport": [str(conn.client[1])], "ip.dst": [conn.server[0]],
           "tcp.dstport": [str(conn.server[1])]}
    srv = {"ip.src": [conn.server[0]], "tcp.srcport": [str(conn.server[1])], "ip.dst": [conn.client[0]],
           "tcp.dstport": [str(conn.client[1])]}
    s0 = conn.down.isn + 1

    def pkt(num: int, side: dict, ms: float, seq: int, n: int, **http) -> dict:
        return {**side, "frame.number": [str(num)], "frame.time_epoch": [str(1_700_000_000 + ms / 1000)],
                "tcp.seq_raw": [str(seq)], "tcp.len": [str(n)], **http}

    layers = [pkt(4, cli, 10, conn.up.isn + 1, 65, **{"http.request.method": ["GET"],
                                                       "http.request.full_uri": ["https://x.test/doc"]}),
              pkt(6, srv, 12, s0, 505), pkt(7, srv, 162, s0 + 505, 261),
              pkt(8, srv, 312, s0 + 766, 55, **{"http.response.code": ["200"], "http.content_type": ["text/html"],
                                                  "tls.segment": ["6", "7", "8"]})]
    (m,) = keylog.measurements(keylog.messages(layers), conns)
    assert (m.url, m.status, round(m.delay * 1000, 3)) == ("https://x.test/doc", 200, 1.5)
    del layers[3]["tls.segment"]
    (m,) = keylog.measurements(keylog.messages(layers), conns)
    assert round(m.delay * 1000, 3) == 301.5


def test_missing_tshark_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(keylog.TsharkError, match="not installed"):
        keylog.run_tshark("x.pcap", "k.log")
