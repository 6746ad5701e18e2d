"""Output records and their writers: JSON (one object per request) and the legacy TSV layout
(../shared/legacy-corpus/delays: space-separated, header `method hostname url size time mimetype
exttype cached`, url without its scheme, time in seconds)."""

from __future__ import annotations

import json
import posixpath
from dataclasses import asdict, dataclass
from urllib.parse import urlsplit

_EXT = {
    "image": ("jpg", "jpeg", "png", "gif", "webp", "svg", "ico", "bmp", "avif"),
    "javascript": ("js", "mjs"),
    "css": ("css",),
    "font": ("woff", "woff2", "ttf", "otf", "eot"),
    "flash": ("swf", "flv"),
    "text": ("html", "htm", "txt", "xml", "json"),
    "php": ("php",),
    "application": ("aspx", "ashx", "asp", "jsp", "cgi"),
}
_EXT_TYPE = {ext: kind for kind, exts in _EXT.items() for ext in exts}


def ext_type(url: str) -> str:
    """The legacy `exttype`: what the URL's file extension says, `other` without one."""
    ext = posixpath.splitext(urlsplit(url).path)[1].lstrip(".").lower()
    return _EXT_TYPE.get(ext, "other")


@dataclass
class DelayRecord:
    method: str
    host: str
    url: str
    size: int
    delayMs: float | None  # noqa: N815 -- the public JSON field name
    mimeType: str  # noqa: N815
    extType: str  # noqa: N815
    tls: bool
    cached: bool
    estimated: bool
    status: int = 0
    source: str = ""  # how delayMs was obtained: ack, rtt, keylog, order, domain, cdf, fallback-cdf, none

    def to_json(self) -> dict:
        d = asdict(self)
        if d["delayMs"] is not None:
            d["delayMs"] = round(d["delayMs"], 3)
        return d


def to_json(records: list[DelayRecord], warnings: list[str], summary: dict) -> str:
    return json.dumps({"schema": "pcp-server-delays/1", "summary": summary, "warnings": warnings,
                       "records": [r.to_json() for r in records]}, indent=1) + "\n"


def _field(s: str) -> str:
    return s.replace(" ", "%20").replace("\t", "%09").replace("\n", "%0A") or "unknown"


def to_tsv(records: list[DelayRecord]) -> str:
    lines = ["method hostname url size time mimetype exttype cached"]
    for r in records:
        url = r.url.split("://", 1)[-1]
        t = f"{r.delayMs / 1000:.6f}" if r.delayMs is not None else "nan"
        lines.append(" ".join([_field(r.method), _field(r.host), _field(url), str(r.size), t,
                               _field(r.mimeType), r.extType, "1" if r.cached else "0"]))
    return "\n".join(lines) + "\n"
