"""Empirical CDFs in the legacy `.dist` layout (../shared/legacy-corpus/server-delay-cdfs).

One `value probability` pair per line, values in seconds, both printed with 5 significant digits;
the first line is (smallest value, 0), then one line per distinct value with P(X <= value); no
trailing newline. Files are named <Class>DelaysCDF.dist.
"""

from __future__ import annotations

import os
from bisect import bisect_left
from collections import Counter

CLASSES = ("CSS", "Image", "Javascript", "Text", "Other", "Post")


def mime_class(mime_type: str, method: str = "GET") -> str:
    """The CDF a resource draws from: POST has its own; GETs go by MIME type. The same classes as the
    emulator's (emulator/src/server-delays.ts), so the CDFs written here are drawn from alike there."""
    if method.upper() == "POST":
        return "Post"
    m = mime_type.lower()
    if "html" in m or m.startswith("text/plain"):
        return "Text"
    if "css" in m:
        return "CSS"
    if "javascript" in m or "ecmascript" in m:
        return "Javascript"
    if m.startswith("image/"):
        return "Image"
    return "Other"


def points(values: list[float]) -> list[tuple[float, float]]:
    """The ECDF of `values` as (value, P(X <= value)) with the leading (min, 0) row."""
    if not values:
        return []
    n = len(values)
    counts = sorted(Counter(round(v, 6) for v in values).items())
    out = [(counts[0][0], 0.0)]
    acc = 0
    for v, c in counts:
        acc += c
        out.append((v, acc / n))
    return out


def format_dist(values: list[float]) -> str:
    return "\n".join(f"{v:.5g} {p:.5g}" for v, p in points(values))


def parse_dist(text: str) -> list[tuple[float, float]]:
    out = []
    for i, line in enumerate(text.splitlines()):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 2:
            raise ValueError(f"line {i + 1}: expected 'value probability', got {line[:40]!r}")
        out.append((float(parts[0]), float(parts[1])))
    return out


def sample(pts: list[tuple[float, float]], u: float) -> float:
    """Inverse-CDF draw: the smallest value whose cumulative probability reaches u (0 <= u < 1)."""
    probs = [p for _, p in pts]
    i = bisect_left(probs, u if u > 0 else 1e-12)
    return pts[min(i, len(pts) - 1)][0]


def write_dir(by_class: dict[str, list[float]], outdir: str) -> list[str]:
    os.makedirs(outdir, exist_ok=True)
    written = []
    for cls, values in sorted(by_class.items()):
        if not values:
            continue
        path = os.path.join(outdir, f"{cls}DelaysCDF.dist")
        with open(path, "w", encoding="ascii") as f:
            f.write(format_dist(values))
        written.append(path)
    return written


def read_dir(indir: str) -> dict[str, list[tuple[float, float]]]:
    out = {}
    for cls in CLASSES:
        path = os.path.join(indir, f"{cls}DelaysCDF.dist")
        if os.path.exists(path):
            with open(path, encoding="ascii") as f:
                out[cls] = parse_dist(f.read())
    return out
