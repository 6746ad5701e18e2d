"""Bad captures: clear errors or warnings, never a traceback; what can be read is kept."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys

import dpkt
import pytest
from pcapkit import Conversation, get, ok, write

from server_delays.capture import CaptureError, read_capture
from server_delays.pipeline import run


def two_exchanges() -> Conversation:
    # /1: ACK 11 -> first byte 31 = 20 ms; /2: ACK 51 -> first byte 61 = 10 ms
    c = Conversation().handshake(0, 2)
    c.send(10, "c", get("/1")).ack(11, "s").send(31, "s", ok(b"1" * 50)).ack(32, "c")
    c.send(50, "c", get("/2")).ack(51, "s").send(61, "s", ok(b"2" * 50)).ack(62, "c")
    return c


SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")


def cli(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": SRC}
    return subprocess.run([sys.executable, "-m", "server_delays", *args], capture_output=True, text=True, env=env)


def test_truncated_file_keeps_what_was_read(tmp_path):
    path = write(tmp_path / "t.pcap", two_exchanges().packets)
    data = open(path, "rb").read()
    with open(path, "wb") as f:
        f.write(data[:-30])  # cut inside the last packet (the client's final ACK)
    cap = read_capture(path)
    assert cap.packets == 10 and any("truncated" in w or "partial" in w for w in cap.warnings)
    assert [x.delayMs for x in run(path, use_tshark=False).records] == [20.0, 10.0]
    p = cli(path, "--format", "tsv")
    assert p.returncode == 0 and "warning:" in p.stderr and "Traceback" not in p.stderr


def test_truncated_pcapng(tmp_path):
    path = write(tmp_path / "t.pcapng", two_exchanges().packets, fmt="pcapng")
    data = open(path, "rb").read()
    with open(path, "wb") as f:
        f.write(data[:-30])
    res = run(path, use_tshark=False)
    assert [x.delayMs for x in res.records] == [20.0, 10.0]
    assert any("truncated" in w or "partial" in w for w in res.warnings)


@pytest.mark.parametrize("content", [b"", b"\xd4\xc3\xb2\xa1\x02\x00", b"hello, not a capture at all"])
def test_unreadable_files_are_one_line_errors(tmp_path, content):
    path = tmp_path / "bad.pcap"
    path.write_bytes(content)
    with pytest.raises(CaptureError):
        run(str(path), use_tshark=False)
    p = cli(str(path))
    assert p.returncode == 1 and p.stderr.startswith("error: ") and len(p.stderr.strip().splitlines()) == 1


def udp_only(tmp_path) -> str:
    pkts = []
    for i in range(5):
        udp = dpkt.udp.UDP(sport=5000, dport=6000, data=b"x" * 20)
        udp.ulen = len(udp)
        ip = dpkt.ip.IP(src=socket.inet_aton("10.0.0.1"), dst=socket.inet_aton("10.0.0.2"), p=17, data=udp)
        ip.len = len(ip)
        pkts.append((i, bytes(ip)))
    return write(tmp_path / "udp.pcap", pkts)


def test_non_tcp_capture(tmp_path):
    path = udp_only(tmp_path)
    p = cli(path)
    assert p.returncode == 1 and "no TCP segments" in p.stderr and "Traceback" not in p.stderr
    # With a bundle, nothing is lost: every resource is estimated, with a warning.
    bundle = tmp_path / "b"
    bundle.mkdir()
    (bundle / "capture.pcap").write_bytes(open(path, "rb").read())
    (bundle / "devtools.json").write_text(json.dumps([
        {"method": "Network.requestWillBeSent", "params": {"requestId": "1", "timestamp": 1.0, "wallTime": 5.0,
                                                           "request": {"url": "http://x.test/", "method": "GET"}}},
        {"method": "Network.responseReceived", "params": {"requestId": "1", "response": {
            "status": 200, "mimeType": "text/html", "timing": {"requestTime": 1.0, "receiveHeadersEnd": 20}}}}]))
    out = tmp_path / "o.json"
    p = cli(str(bundle), "--out", str(out), "--fallback-cdf", str(tmp_path))
    doc = json.loads(out.read_text())
    assert p.returncode == 0 and "no TCP segments" in p.stderr
    assert [(x["url"], x["estimated"]) for x in doc["records"]] == [("http://x.test/", True)]


def test_missing_input_and_bad_options(tmp_path):
    assert cli(str(tmp_path / "nope.pcap")).returncode == 1
    p = cli("--format", "xml", "x")
    assert p.returncode == 2 and p.stderr.startswith("error: ")
    assert cli("--help").stdout.startswith("python -m server_delays")
