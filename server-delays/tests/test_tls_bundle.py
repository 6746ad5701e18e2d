"""HTTPS record-level delays, host mapping (SNI, DNS CNAME chains) and the bundle's resource matching.
Times in ms; expected delays are derived from the scripted times in the comments."""

from __future__ import annotations

import json
import socket
import struct

import dpkt
from pcapkit import Conversation, get, ok, write

from server_delays.pipeline import run

SERVER = ("10.0.0.9", 443)


def rec(ctype: int, body_len: int) -> bytes:
    """A TLS record with an opaque body."""
    return bytes([ctype, 3, 3]) + struct.pack("!H", body_len) + bytes(body_len)


def client_hello(sni: str | None) -> bytes:
    exts = b""
    if sni:
        name = sni.encode()
        entry = b"\x00" + struct.pack("!H", len(name)) + name
        exts = struct.pack("!HH", 0, len(entry) + 2) + struct.pack("!H", len(entry)) + entry
    body = b"\x03\x03" + bytes(32) + b"\x00" + b"\x00\x02\x13\x01" + b"\x01\x00" + struct.pack("!H", len(exts)) + exts
    hs = b"\x01" + len(body).to_bytes(3, "big") + body
    return bytes([22, 3, 1]) + struct.pack("!H", len(hs)) + hs


def tls12(sni: str | None = "secure.example", port: int = 51001) -> Conversation:
    # Handshake records (type 22) both ways, then two application-data exchanges:
    #   request record at 10, server ACK at 11, response record at 41 -> 30 ms
    #   request record at 60, server ACK at 61, response record at 76 -> 15 ms
    c = Conversation(client=("10.0.0.2", port), server=SERVER).handshake(0, 1)
    c.send(2, "c", client_hello(sni)).send(3, "s", rec(22, 900)).send(4, "c", rec(22, 70) + rec(20, 1) + rec(22, 40))
    c.send(5, "s", rec(20, 1) + rec(22, 40))
    c.send(10, "c", rec(23, 300)).ack(11, "s").send(41, "s", rec(23, 1400)).send(41.1, "s", rec(23, 600))
    c.send(60, "c", rec(23, 280)).ack(61, "s").send(76, "s", rec(23, 900))
    return c


def test_tls12_record_exchanges_and_sni(tmp_path):
    res = run(write(tmp_path / "t.pcap", tls12().packets), use_tshark=False)
    assert [(r.host, r.tls, r.delayMs) for r in res.records] == [
        ("secure.example", True, 30.0), ("secure.example", True, 15.0)]


def test_tls13_tickets_are_not_responses(tmp_path):
    # TLS 1.3: the server's encrypted handshake (type 23) at 3 precedes the client's Finished. The
    # client's Finished (53-byte record) and request (300) leave together at 10; the server ACKs at
    # 10.5, sends two 250-byte session tickets at 11 (one burst) and the response at 61:
    # delay = 61 - 10.5 = 50.5 ms, not the 0.5 ms the tickets would give.
    c = Conversation(server=SERVER).handshake(0, 1)
    c.send(2, "c", client_hello("tls13.example")).send(3, "s", rec(22, 90) + rec(20, 1) + rec(23, 1200))
    c.send(10, "c", rec(20, 1) + rec(23, 53) + rec(23, 300)).ack(10.5, "s")
    c.send(11, "s", rec(23, 250) + rec(23, 250)).send(61, "s", rec(23, 2000))
    c.send(80, "c", rec(23, 310)).ack(80.5, "s").send(100.5, "s", rec(23, 500))  # second request: 20 ms
    res = run(write(tmp_path / "t13.pcap", c.packets), use_tshark=False)
    assert [r.delayMs for r in res.records] == [50.5, 20.0]


def test_tls13_trickled_response_right_after_the_tickets(tmp_path):
    # r03-parse-chunks as recorded (Node, TLS 1.3): the client's Finished and request leave together at
    # 10, the server ACKs at 10.5 and sends two 282-byte session tickets (287-byte records) at 11. The
    # response's headers and first 256-byte piece (a 529-byte record) follow at 11.9, within the 1 ms a
    # ticket burst spans, and the body trickles on: 273-byte records at 161.9 and 311.9, the last
    # 71-byte one at 461.9. The response starts at 11.9: delay = 11.9 - 10.5 = 1.4 ms (the 529-byte
    # record is no ticket: not the tickets' size). Counting it as a third ticket gave 161.9 - 10.5 =
    # 151.4 ms; the record completing the body, 461.9 - 10.5 = 451.4 ms.
    c = Conversation(server=SERVER).handshake(0, 1)
    c.send(2, "c", client_hello("a.pcp.test")).send(3, "s", rec(22, 90) + rec(20, 1) + rec(23, 1200))
    c.send(10, "c", rec(20, 1) + rec(23, 53) + rec(23, 690)).ack(10.5, "s")
    c.send(11, "s", rec(23, 282) + rec(23, 282)).send(11.9, "s", rec(23, 529))
    c.send(161.9, "s", rec(23, 273)).send(311.9, "s", rec(23, 273)).send(461.9, "s", rec(23, 71))
    c.send(470, "c", rec(23, 630)).ack(470.5, "s").send(478, "s", rec(23, 331))  # an image: 7.5 ms
    res = run(write(tmp_path / "trickle.pcap", c.packets), use_tshark=False)
    assert [r.delayMs for r in res.records] == [1.4, 7.5]


def dns_answer(ts_ms: float, name: str, cname: str, ip: str) -> tuple[float, bytes]:
    msg = dpkt.dns.DNS(id=1, qr=dpkt.dns.DNS_R, opcode=dpkt.dns.DNS_QUERY, rcode=dpkt.dns.DNS_RCODE_NOERR)
    msg.qd = [dpkt.dns.DNS.Q(name=name, type=dpkt.dns.DNS_A)]
    msg.an = [dpkt.dns.DNS.RR(name=name, type=dpkt.dns.DNS_CNAME, cls=1, ttl=60, cname=cname),
              dpkt.dns.DNS.RR(name=cname, type=dpkt.dns.DNS_A, cls=1, ttl=60, ip=socket.inet_aton(ip))]
    udp = dpkt.udp.UDP(sport=53, dport=33333, data=bytes(msg))
    udp.ulen = len(udp)
    pkt = dpkt.ip.IP(src=socket.inet_aton("10.0.0.53"), dst=socket.inet_aton("10.0.0.2"), p=17, data=udp)
    pkt.len = len(pkt)
    return ts_ms, bytes(pkt)


def test_dns_cname_names_connections_without_sni(tmp_path):
    # No SNI: www.site.test -> CNAME edge.cdn.test -> A 10.0.0.9 names the server after the query.
    pkts = [dns_answer(0.5, "www.site.test", "edge.cdn.test", SERVER[0])] + tls12(sni=None).packets
    res = run(write(tmp_path / "d.pcap", pkts), use_tshark=False)
    assert {r.host for r in res.records} == {"www.site.test"}


def devtools_event(method: str, **params) -> dict:
    return {"method": f"Network.{method}", "params": params}


def resource_events(rid: str, url: str, t: float, first_byte_ms: float, status: int = 200,
                    mime: str = "text/css", size: int = 500, method: str = "GET") -> list[dict]:
    """requestWillBeSent at monotonic t (wall clock = t + 1e9), response headers first_byte_ms later."""
    return [
        devtools_event("requestWillBeSent", requestId=rid, timestamp=t, wallTime=t + 1e9,
                       request={"url": url, "method": method}),
        devtools_event("responseReceived", requestId=rid, timestamp=t + first_byte_ms / 1000,
                       response={"status": status, "mimeType": mime, "protocol": "http/1.1",
                                 "timing": {"requestTime": t, "receiveHeadersEnd": first_byte_ms}}),
        devtools_event("loadingFinished", requestId=rid, encodedDataLength=size),
    ]


def test_bundle_matches_urls_and_https_order(tmp_path):
    # Capture: the TLS 1.2 connection (30 ms then 15 ms exchanges, first bytes at 41 and 76) and a
    # cleartext one to example.org (/a.css 40 ms). DevTools: two https resources of secure.example
    # whose first bytes come in the order /second.js (t+41 ms), /first.css (t+76 ms): the thesis'
    # ordering gives 30 ms to /second.js and 15 ms to /first.css. /a.css matches by url (40 ms).
    # /gone.png is a 404: never measured, and no image/png delays of example.org or Image CDF exist in
    # this capture, so it is drawn from the fallback Image CDF given here (20 or 30 ms).
    clear = Conversation(client=("10.0.0.2", 52000)).handshake(0, 2)
    clear.send(10, "c", get("/a.css")).ack(11, "s").send(51, "s", ok(b"a" * 500)).ack(52, "c")
    bundle = tmp_path / "bundle"
    bundle.mkdir()
    write(bundle / "capture.pcap", tls12().packets + clear.packets)
    events = (resource_events("1", "http://example.org/a.css", 100.0, 40)
              + resource_events("2", "https://secure.example/first.css", 100.0, 76)
              + resource_events("3", "https://secure.example/second.js", 100.0, 41, mime="application/javascript")
              + resource_events("4", "http://example.org/gone.png", 100.2, 5, status=404, mime="image/png"))
    (bundle / "devtools.json").write_text(json.dumps(events))
    cdfs = tmp_path / "cdfs"
    cdfs.mkdir()
    (cdfs / "ImageDelaysCDF.dist").write_text("0.02 0\n0.02 0.5\n0.03 1")
    res = run(None, str(bundle), seed=3, use_tshark=False, fallback_dir=str(cdfs))
    got = {r.url: (r.delayMs, r.estimated, r.source) for r in res.records}
    assert got["http://example.org/a.css"] == (40.0, False, "ack")
    assert got["https://secure.example/second.js"] == (30.0, False, "order")
    assert got["https://secure.example/first.css"] == (15.0, False, "order")
    delay, estimated, source = got["http://example.org/gone.png"]
    assert estimated and source == "fallback-cdf" and delay in (20.0, 30.0)


def test_tls13_tickets_before_request_and_encrypted_close_notify(tmp_path):
    # TLS 1.3 where the tickets (two 250-byte records at 6) arrive before the first request (10):
    # they answer nothing. The request is ACKed at 10.5 and answered by a small 247-byte record at 510
    # -> 499.5 ms; the 24-byte record at 1500 is an encrypted close_notify, not a response.
    c = Conversation(server=SERVER).handshake(0, 1)
    c.send(2, "c", client_hello("late.example")).send(3, "s", rec(22, 90) + rec(20, 1) + rec(23, 1200))
    c.send(5, "c", rec(20, 1) + rec(23, 53)).send(6, "s", rec(23, 250) + rec(23, 250))
    c.send(10, "c", rec(23, 300)).ack(10.5, "s").send(510, "s", rec(23, 247)).send(1500, "s", rec(23, 19))
    res = run(write(tmp_path / "late.pcap", c.packets), use_tshark=False)
    assert [r.delayMs for r in res.records] == [499.5]


def test_devtools_redirects_cache_hits_and_sessions():
    from server_delays.bundle import resources_from_events

    # A redirect reuses requestId 1: the 302 hop becomes its own resource; request 2 is a memory-cache
    # hit; request 1 of another session (an out-of-process iframe) is a different request.
    ev = [devtools_event("requestWillBeSent", requestId="1", timestamp=1.0, wallTime=11.0,
                         request={"url": "http://a.test/old", "method": "GET"}),
          devtools_event("requestWillBeSent", requestId="1", timestamp=1.1, wallTime=11.1,
                         request={"url": "http://a.test/new", "method": "GET"},
                         redirectResponse={"status": 302, "mimeType": "text/html"}),
          *resource_events("1", "unused", 0, 0)[1:],
          devtools_event("requestWillBeSent", requestId="2", timestamp=1.2, request={"url": "http://a.test/c.css"}),
          devtools_event("requestServedFromCache", requestId="2"),
          {"method": "Network.requestWillBeSent", "sessionId": "S2",
           "params": {"requestId": "1", "timestamp": 1.3, "request": {"url": "http://b.test/frame.html"}}}]
    res = resources_from_events(ev)
    assert [(r.url, r.status, r.from_cache) for r in res] == [
        ("http://a.test/old", 302, False), ("http://a.test/new", 200, False), ("http://a.test/c.css", 0, True),
        ("http://b.test/frame.html", 0, False)]
    assert res[3].wall_offset == 10.0  # borrowed from the page's clock
