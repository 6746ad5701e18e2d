"""Cleartext HTTP/1.x delays on captures written by the tests. Every conversation states its times in
ms; the expected delay is computed by hand from them in the comments (rtt = SYN -> SYN/ACK)."""

from __future__ import annotations

import pytest
from pcapkit import ACK, Conversation, get, ok, write

from server_delays.capture import read_capture
from server_delays.pipeline import run
from server_delays.tcp import reassemble


def delays(path) -> list[tuple[str, float]]:
    res = run(str(path), use_tshark=False)
    return [(r.url, round(r.delayMs, 3)) for r in res.records]


def keepalive() -> Conversation:
    c = Conversation().handshake(0, 2)
    c.send(10, "c", get("/a.css")).ack(11, "s").send(51, "s", ok(b"a" * 500)).ack(52, "c")
    c.send(60, "c", get("/b.css")).ack(61, "s").send(86, "s", ok(b"b" * 300)).ack(87, "c")
    return c


def test_keepalive(tmp_path):
    # /a.css: server ACK at 11, first response byte at 51 -> 40 ms; /b.css: ACK 61, response 86 -> 25 ms
    assert delays(write(tmp_path / "k.pcap", keepalive().packets)) == [
        ("http://example.org/a.css", 40.0), ("http://example.org/b.css", 25.0)]


@pytest.mark.parametrize("linktype", ["ethernet", "sll", "sll2", "raw"])
@pytest.mark.parametrize("fmt", ["pcap", "pcapng"])
def test_link_types_and_formats(tmp_path, linktype, fmt):
    # The keep-alive conversation framed every way gives the same 40 ms and 25 ms.
    path = write(tmp_path / f"k.{fmt}", keepalive().packets, linktype=linktype, fmt=fmt)
    assert [d for _, d in delays(path)] == [40.0, 25.0]


def test_pipelining(tmp_path):
    # Two requests back to back (10 and 10.5), one server ACK covering both at 11.
    # Response 1 starts at 31 (31 - 11 = 20 ms); response 2 starts at 50 (50 - 11 = 39 ms).
    c = Conversation().handshake(0, 2)
    c.send(10, "c", get("/1.js")).send(10.5, "c", get("/2.js")).ack(11, "s")
    c.send(31, "s", ok(b"x" * 100, "application/javascript")).send(50, "s", ok(b"y" * 80, "application/javascript"))
    assert delays(write(tmp_path / "p.pcap", c.packets)) == [
        ("http://example.org/1.js", 20.0), ("http://example.org/2.js", 39.0)]


def test_pipelined_responses_in_one_segment(tmp_path):
    # Both responses leave in one segment at 40: both first bytes are at 40 -> 40 - 11 = 29 ms each.
    c = Conversation().handshake(0, 2)
    c.send(10, "c", get("/1") + get("/2")).ack(11, "s").send(40, "s", ok(b"a") + ok(b"b"))
    assert [d for _, d in delays(write(tmp_path / "p1.pcap", c.packets))] == [29.0, 29.0]


def test_request_spanning_segments(tmp_path):
    # The request leaves in three segments (10, 10.2, 10.4). The server's ACK at 10.1 covers only the
    # first one and does not count; its ACK at 10.5 covers the last -> response at 40.5 - 10.5 = 30 ms.
    req = get("/big", extra="Cookie: " + "c" * 3000 + "\r\n")
    c = Conversation().handshake(0, 2)
    c.send(10, "c", req[:1200]).ack(10.1, "s").send(10.2, "c", req[1200:2400]).send(10.4, "c", req[2400:])
    c.ack(10.5, "s").send(40.5, "s", ok(b"z" * 10))
    assert delays(write(tmp_path / "s.pcap", c.packets)) == [("http://example.org/big", 30.0)]


def test_retransmissions(tmp_path):
    # The request (10) is lost past the capture point and retransmitted at 210; the server ACKs at 211
    # and answers at 251 -> 40 ms. The response's first segment is duplicated at 260: its first byte
    # time stays 251, and the duplicate does not corrupt the stream.
    c = Conversation().handshake(0, 2)
    req = get("/r.png")
    c.send(10, "c", req).send(210, "c", req, seq_off=0).ack(211, "s")
    body = ok(b"p" * 2000, "image/png")
    c.send(251, "s", body[:1000]).send(260, "s", body[:1000], seq_off=0).send(261, "s", body[1000:])
    res = run(write(tmp_path / "r.pcap", c.packets), use_tshark=False)
    assert [(r.url, r.delayMs, r.size) for r in res.records] == [("http://example.org/r.png", 40.0, 2000)]
    conn = reassemble(read_capture(str(tmp_path / "r.pcap")).segments)[0]
    assert conn.down.retransmitted_bytes == 1000 and conn.up.retransmitted_bytes == len(req)


def test_out_of_order_segments(tmp_path):
    # The response's second segment arrives first (50), its first segment later (50.3): the first
    # response byte is seen at 50.3 -> 50.3 - 11 = 39.3 ms; the reassembled body is whole.
    c = Conversation().handshake(0, 2)
    c.send(10, "c", get("/o.css")).ack(11, "s")
    body = ok(b"q" * 400)
    c.send(50, "s", body[100:], seq_off=100, advance=False).send(50.3, "s", body[:100], seq_off=0)
    res = run(write(tmp_path / "o.pcap", c.packets), use_tshark=False)
    assert [(round(r.delayMs, 3), r.size) for r in res.records] == [(39.3, 400)]


def test_ack_riding_on_data(tmp_path):
    # No pure ACK: the response at 60 carries it. rtt = 2 (SYN 0 -> SYN/ACK 2), request at 10 ->
    # delay = 60 - (10 + 2) = 48 ms.
    c = Conversation().handshake(0, 2)
    c.send(10, "c", get("/x")).send(60, "s", ok(b"x" * 10))
    assert [d for _, d in delays(write(tmp_path / "a.pcap", c.packets))] == [48.0]


def test_delayed_ack(tmp_path):
    # The server's ACK comes 40 ms after the request (a delayed ACK, > rtt + 10 ms): the request
    # time plus one rtt stands for the receipt -> 110 - (10 + 2) = 98 ms.
    c = Conversation().handshake(0, 2)
    c.send(10, "c", get("/d")).ack(50, "s").send(110, "s", ok(b"d"))
    assert [d for _, d in delays(write(tmp_path / "d.pcap", c.packets))] == [98.0]


def test_ack_riding_on_other_data(tmp_path):
    # rtt 2. /1's response starts at 20; /2 is asked at 25 and its ACK rides on /1's tail at 31 (the
    # server held it for its next write, 6 ms: within the delayed-ACK slack, but not a receipt): the
    # receipt is 25 + 2 = 27, and /2's response at 45 -> 18 ms (not 45 - 31 = 14).
    c = Conversation().handshake(0, 2)
    c.send(10, "c", get("/1")).ack(11, "s")
    first = ok(b"1" * 300)
    c.send(20, "s", first[:100]).send(25, "c", get("/2")).send(31, "s", first[100:]).send(45, "s", ok(b"2"))
    assert [d for _, d in delays(write(tmp_path / "o.pcap", c.packets))] == [9.0, 18.0]


def test_ack_held_for_the_next_request(tmp_path):
    # rtt 2. /1 is asked at 10 and its ACK comes only with /2's at 15 (one ACK for both: the server's
    # kernel acknowledged when the second segment came), within the delayed-ACK slack: /1's receipt is
    # 10 + 2 = 12, its response at 40 -> 28 ms (not 40 - 15 = 25). /2's own: 15 -> 60 - 15 = 45.
    c = Conversation().handshake(0, 2)
    c.send(10, "c", get("/1")).send(14.5, "c", get("/2")).ack(15, "s")
    c.send(40, "s", ok(b"1" * 10)).send(60, "s", ok(b"2" * 10))
    assert [d for _, d in delays(write(tmp_path / "n.pcap", c.packets))] == [28.0, 45.0]


def _wan(ack_ms: float) -> Conversation:
    c = Conversation().handshake(0, 80)
    return c.send(100, "c", get("/w")).ack(ack_ms, "s").send(330, "s", ok(b"w"))


def test_wan_delayed_ack_and_jitter(tmp_path):
    # rtt 80 ms (SYN 0 -> SYN/ACK 80). Request at 100; an immediate ACK would arrive at ~180, this one
    # at 220 (40 ms delayed ACK, beyond rtt + max(10, rtt/4) = 100 ms): reference = 100 + 80 = 180.
    # The response arrives at 330 -> 150 ms. An ACK at 185 (jitter) is taken as is: 330 - 185 = 145.
    conv = _wan
    assert [d for _, d in delays(write(tmp_path / "w1.pcap", conv(220).packets))] == [150.0]
    assert [d for _, d in delays(write(tmp_path / "w2.pcap", conv(185).packets))] == [145.0]


def test_statuses_304_and_errors(tmp_path):
    # 304 keeps its measurement (41 - 11 = 30 ms) and is cached; a 404 is never measured.
    c = Conversation().handshake(0, 2)
    c.send(10, "c", get("/c.png")).ack(11, "s").send(41, "s", b"HTTP/1.1 304 Not Modified\r\n\r\n")
    c.send(50, "c", get("/missing.png")).ack(51, "s").send(70, "s", ok(b"no", "text/html", "404 Not Found"))
    res = run(write(tmp_path / "s.pcap", c.packets), use_tshark=False)
    r304, r404 = res.records
    assert (r304.delayMs, r304.cached, r304.estimated) == (30.0, True, False)
    assert r404.estimated and r404.status == 404


def test_snaplen_cut_bodies(tmp_path):
    # A 96-byte snaplen cuts the response body (2000 bytes in one segment) but not the headers:
    # the delay (41 - 11 = 30 ms) and size (from Content-Length) survive, with a warning.
    c = Conversation().handshake(0, 2)
    c.send(10, "c", get("/cut")).ack(11, "s").send(41, "s", ok(b"k" * 2000)).send(60, "c", get("/next"))
    c.ack(61, "s").send(71, "s", ok(b"m" * 20))
    res = run(write(tmp_path / "cut.pcap", c.packets, snaplen=150), use_tshark=False)
    assert [(r.delayMs, r.size) for r in res.records] == [(30.0, 2000), (10.0, 20)]
    assert any("snapshot length" in w for w in res.warnings)


def test_loopback_oversized_segment(tmp_path):
    # Loopback carries 64 KiB segments: a 60000-byte response in one segment is parsed whole.
    c = Conversation(client=("127.0.0.1", 40000), server=("127.0.0.1", 8080)).handshake(0, 0.05)
    c.send(10, "c", get("/huge.jpg")).ack(10.05, "s").send(110.05, "s", ok(b"j" * 60000, "image/jpeg"))
    res = run(write(tmp_path / "lo.pcap", c.packets), use_tshark=False)
    assert [(round(r.delayMs, 3), r.size) for r in res.records] == [(100.0, 60000)]


@pytest.mark.parametrize("linktype", ["ethernet", "sll2", "raw"])
def test_ipv6_and_bracketed_host(tmp_path, linktype):
    # The keep-alive timings over IPv6 loopback with Host: [::1]:8080 -> host '::1', 40 ms.
    c = Conversation(client=("::1", 40000), server=("::1", 8080)).handshake(0, 2)
    c.send(10, "c", get("/v6", host="[::1]:8080")).ack(11, "s").send(51, "s", ok(b"6"))
    res = run(write(tmp_path / "v6.pcap", c.packets, linktype=linktype), use_tshark=False)
    assert [(r.host, r.url, r.delayMs) for r in res.records] == [("::1", "http://[::1]:8080/v6", 40.0)]


def test_chunked_response_and_post(tmp_path):
    # POST with a body, answered chunked at 35 (ACK 11 -> 24 ms), then a GET answered at 62 (ACK 51 -> 11 ms).
    c = Conversation().handshake(0, 2)
    c.send(10, "c", b"POST /api HTTP/1.1\r\nHost: example.org\r\nContent-Length: 5\r\n\r\nhello").ack(11, "s")
    c.send(35, "s", b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n"
           b"5\r\nworld\r\n0\r\n\r\n")
    c.send(50, "c", get("/after")).ack(51, "s").send(62, "s", ok(b"1"))
    res = run(write(tmp_path / "c.pcap", c.packets), use_tshark=False)
    assert [(r.method, r.url, r.delayMs) for r in res.records] == [
        ("POST", "http://example.org/api", 24.0), ("GET", "http://example.org/after", 11.0)]


def test_ack_on_previous_response_data(tmp_path):
    # Request 2 (at 20) is ACKed by a data segment of response 1 at 21 (not its own data): the ACK
    # time stands -> response 2 at 45 - 21 = 24 ms. Response 1: ACK 11, first byte 15 -> 4 ms.
    c = Conversation().handshake(0, 2)
    body1 = ok(b"1" * 3000)
    c.send(10, "c", get("/one")).ack(11, "s").send(15, "s", body1[:1500])
    c.send(20, "c", get("/two")).send(21, "s", body1[1500:]).send(45, "s", ok(b"2"))
    assert [d for _, d in delays(write(tmp_path / "pp.pcap", c.packets))] == [4.0, 24.0]


def test_mid_connection_capture(tmp_path):
    # The capture starts after the handshake: offsets start at the first byte seen; ACK 11 -> 41 = 30 ms.
    c = Conversation().handshake(0, 2)
    c.send(10, "c", get("/m")).ack(11, "s").send(41, "s", ok(b"m"))
    pkts = c.packets[3:]
    assert [d for _, d in delays(write(tmp_path / "m.pcap", pkts))] == [30.0]


def test_ack_helper_is_pure_ack():
    c = Conversation().handshake(0, 1).ack(5, "s")
    assert len(c.packets) == 4 and ACK


def test_trickled_body_is_timed_at_its_first_byte(tmp_path):
    # r03-parse-chunks' server, in cleartext: the request at 10, ACKed at 10.5; the headers and the first
    # 256-byte piece at 12, then a piece every 150 ms (162, 312, 462). The delay ends at the response's
    # first byte: 12 - 10.5 = 1.5 ms (the last piece would give 451.5). Then a keep-alive image: 480.5 -> 488.
    body = b"p" * 822
    resp = ok(body, "text/html")
    head = len(resp) - len(body)
    c = Conversation().handshake(0, 2)
    c.send(10, "c", get("/r03/index.html")).ack(10.5, "s")
    for k, at in enumerate((12, 162, 312, 462)):
        c.send(at, "s", resp[: head + 256] if k == 0 else body[256 * k: 256 * (k + 1)] if k < 3 else body[768:])
    c.ack(463, "c").send(480, "c", get("/r03/a.png")).ack(480.5, "s").send(488, "s", ok(b"i" * 74, "image/png"))
    assert delays(write(tmp_path / "trickle.pcap", c.packets)) == [
        ("http://example.org/r03/index.html", 1.5), ("http://example.org/r03/a.png", 7.5)]
