"""Cleartext HTTP/1.x framing over a reassembled stream, and FIFO pairing of requests and responses.

Pure functions over bytes: they return message boundaries (stream offsets) and the few header fields
the delay records need. Bodies are skipped by Content-Length or chunked framing, so zero-filled
holes inside bodies (snaplen cuts) do not derail parsing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

_METHODS = (b"GET", b"POST", b"HEAD", b"PUT", b"DELETE", b"OPTIONS", b"PATCH", b"CONNECT", b"TRACE")
_MAX_HEAD = 256 * 1024


@dataclass(slots=True)
class HttpRequest:
    start: int  # stream offset of the request's first byte
    end: int  # offset just past its last byte (headers + body)
    method: str
    target: str
    version: str
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def host(self) -> str:
        return self.headers.get("host", "")

    @property
    def url(self) -> str:
        if self.target.startswith(("http://", "https://")):
            return self.target
        return f"http://{self.host}{self.target}"


@dataclass(slots=True)
class HttpResponse:
    start: int
    header_end: int
    end: int
    status: int
    version: str
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def body_size(self) -> int:
        return self.end - self.header_end

    @property
    def mime_type(self) -> str:
        return self.headers.get("content-type", "").split(";")[0].strip().lower()


class HttpParseError(ValueError):
    pass


def _head(data: bytes | bytearray, start: int) -> tuple[list[str], int] | None:
    """Header lines of the message at `start` and the offset past the blank line; None if incomplete."""
    end = data.find(b"\r\n\r\n", start, start + _MAX_HEAD)
    sep = 4
    if end < 0:
        end = data.find(b"\n\n", start, start + _MAX_HEAD)
        sep = 2
        if end < 0:
            return None
    text = bytes(data[start:end]).decode("latin-1")
    return text.replace("\r\n", "\n").split("\n"), end + sep


def _fields(lines: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if sep:
            key = name.strip().lower()
            out[key] = f"{out[key]}, {value.strip()}" if key in out else value.strip()
    return out


def _chunked_end(data: bytes | bytearray, pos: int) -> int | None:
    """Offset past a chunked body starting at `pos` (trailers included); None when incomplete."""
    while True:
        eol = data.find(b"\r\n", pos, pos + 1024)
        if eol < 0:
            return None
        size_text = bytes(data[pos:eol]).split(b";")[0].strip()
        try:
            size = int(size_text, 16)
        except ValueError:
            raise HttpParseError(f"bad chunk size {size_text[:20]!r} at offset {pos}") from None
        pos = eol + 2
        if size == 0:
            while True:  # trailers, then the empty line
                eol = data.find(b"\r\n", pos, pos + _MAX_HEAD)
                if eol < 0:
                    return None
                if eol == pos:
                    return pos + 2
                pos = eol + 2
        pos += size + 2
        if pos > len(data):
            return None


def _body_end(data: bytes | bytearray, pos: int, headers: dict[str, str]) -> int | None:
    if "chunked" in headers.get("transfer-encoding", "").lower():
        return _chunked_end(data, pos)
    length = headers.get("content-length")
    if length is not None:
        try:
            n = int(length.split(",")[0])
        except ValueError:
            raise HttpParseError(f"bad Content-Length {length!r}") from None
        return pos + n if pos + n <= len(data) else None
    return pos


def parse_requests(data: bytes | bytearray) -> tuple[list[HttpRequest], str | None]:
    """Every complete request in a client stream, and why parsing stopped early (None if it did not)."""
    out: list[HttpRequest] = []
    pos = 0
    while pos < len(data):
        while data[pos:pos + 2] == b"\r\n":  # stray CRLF between requests (RFC 9112 §2.2)
            pos += 2
        if pos >= len(data):
            break
        if bytes(data[pos:pos + 8]).split(b" ")[0] not in _METHODS:
            return out, f"not an HTTP request at offset {pos}"
        head = _head(data, pos)
        if head is None:
            return out, None if len(data) - pos < _MAX_HEAD else "request headers too long"
        lines, body = head
        parts = lines[0].split(" ")
        if len(parts) < 3:
            return out, f"bad request line {lines[0][:60]!r}"
        headers = _fields(lines)
        try:
            end = _body_end(data, body, headers)
        except HttpParseError as e:
            return out, str(e)
        if end is None:
            return out, None
        out.append(HttpRequest(pos, end, parts[0], parts[1], parts[2], headers))
        pos = end
    return out, None


def _no_body(status: int, method: str) -> bool:
    return method == "HEAD" or status in (204, 304) or 100 <= status < 200


def parse_responses(data: bytes | bytearray, methods: list[str]) -> tuple[list[HttpResponse], str | None]:
    """Final responses in a server stream, given the request methods in order (HEAD has no body)."""
    out: list[HttpResponse] = []
    pos = 0
    i = 0
    while pos < len(data):
        if not data.startswith(b"HTTP/", pos):
            return out, f"not an HTTP response at offset {pos}"
        head = _head(data, pos)
        if head is None:
            return out, None
        lines, body = head
        parts = lines[0].split(" ", 2)
        try:
            status = int(parts[1])
        except (IndexError, ValueError):
            return out, f"bad status line {lines[0][:60]!r}"
        headers = _fields(lines)
        method = methods[i] if i < len(methods) else "GET"
        if 100 <= status < 200 and status != 101:
            pos = body  # interim response: it answers no request on its own
            continue
        try:
            end = body if _no_body(status, method) else _body_end(data, body, headers)
        except HttpParseError as e:
            return out, str(e)
        if end is None:
            # Read-until-close body, or a body cut by the end of the capture.
            end = len(data)
        if end == body and "content-length" not in headers and "chunked" not in headers.get(
                "transfer-encoding", "") and not _no_body(status, method):
            end = len(data)
        out.append(HttpResponse(pos, body, end, status, parts[0], headers))
        pos = end
        i += 1
        if status == 101:
            break  # protocol switch: what follows is not HTTP/1.x
    return out, None


def pair(requests: list[HttpRequest], responses: list[HttpResponse]) -> list[tuple[HttpRequest, HttpResponse | None]]:
    """HTTP/1.x answers in request order on a connection (keep-alive and pipelining alike)."""
    return [(req, responses[i] if i < len(responses) else None) for i, req in enumerate(requests)]
