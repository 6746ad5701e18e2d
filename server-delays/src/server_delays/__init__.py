"""Per-request server processing delays from packet captures (thesis §3.4.1), on dpkt.

Modules, one per concern:
  capture   pcap/pcapng reading and link/IP/TCP/UDP decoding into Segment/Datagram records
  tcp       per-connection, per-direction reassembly with first-arrival times and ACK lookup
  http1     cleartext HTTP/1.x message framing and FIFO request/response pairing
  tls       TLS record framing, SNI, and record-level request/response exchanges
  dns       IP -> host name map from DNS answers (CNAME chains)
  measure   the delay definition (first response byte minus the server's ACK of the request)
  bundle    the profiler bundle: DevTools Network events -> resources
  keylog    exact HTTPS pairing through tshark with a TLS key log
  estimate  §3.4.1 imputation: domain pools, per-MIME CDFs, seeded draws
  cdf       the legacy .dist CDF layout
  records   output records, JSON and legacy TSV writers
  pipeline  the whole run: capture + bundle -> records
  cli       `python -m server_delays`
"""

__version__ = "0.1.0"
