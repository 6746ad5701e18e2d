"""IP -> host names from DNS answers in the capture, following CNAME chains back to the queried name.

Multi-homed names map every A/AAAA address to the name; an address answered for several names keeps
all of them in answer order (the connection's SNI, when present, decides between them).
"""

from __future__ import annotations

import socket

import dpkt

from .capture import Datagram


def host_map(datagrams: list[Datagram]) -> dict[str, list[str]]:
    names: dict[str, list[str]] = {}
    for d in datagrams:
        if d.sport != 53:
            continue
        try:
            msg = dpkt.dns.DNS(d.payload)
        except (dpkt.Error, IndexError, ValueError):
            continue
        if msg.qr != dpkt.dns.DNS_R:
            continue
        alias: dict[str, str] = {}  # CNAME target -> the name that pointed to it
        for rr in msg.an:
            if rr.type == dpkt.dns.DNS_CNAME:
                alias[rr.cname.lower().rstrip(".")] = rr.name.lower().rstrip(".")
        for rr in msg.an:
            if rr.type not in (dpkt.dns.DNS_A, dpkt.dns.DNS_AAAA):
                continue
            name = rr.name.lower().rstrip(".")
            seen = set()
            while name in alias and name not in seen:  # walk the chain back to the queried name
                seen.add(name)
                name = alias[name]
            fam = socket.AF_INET if rr.type == dpkt.dns.DNS_A else socket.AF_INET6
            try:
                ip = socket.inet_ntop(fam, bytes(rr.rdata))
            except (ValueError, OSError, AttributeError):
                continue
            lst = names.setdefault(ip, [])
            if name not in lst:
                lst.append(name)
    return names
