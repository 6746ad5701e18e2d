"""PCP server delays: pcap -> per-request server processing delays (thesis §3.4.1)."""
