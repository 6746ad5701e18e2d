"""The corpus figures (matplotlib), each written as PNG and SVG: what a paper's characterisation shows."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from .stats import CorpusStats  # noqa: E402

# Reproducible SVGs: fixed ids, no date in the metadata.
matplotlib.rcParams["svg.hashsalt"] = "pcp-corpus"


def _empty(ax, what: str) -> None:
    ax.text(0.5, 0.5, f"no {what} in this corpus", ha="center", va="center", transform=ax.transAxes)
    ax.set_axis_off()


def _ecdf(ax, values, label: str | None = None) -> bool:
    v = [x for x in values if x == x]  # drop NaN
    if not v:
        return False
    ax.ecdf(v, label=label)
    ax.set_ylabel("fraction of pages")
    ax.grid(alpha=0.3)
    return True


def load_cdf(s: CorpusStats, fig) -> None:
    ax = fig.subplots()
    shown = _ecdf(ax, s.page_rows["dcl_ms"] / 1000, "DOMContentLoaded")
    shown = _ecdf(ax, s.page_rows["load_ms"] / 1000, "load") or shown
    if not shown:
        return _empty(ax, "load times")
    ax.set_xlabel("seconds since navigation start")
    ax.set_title("Page load and DOMContentLoaded")
    ax.legend()


def page_sizes(s: CorpusStats, fig) -> None:
    cols = ["nodes", "edges", "resources", "frames", "origins"]
    axes = fig.subplots(1, len(cols), sharey=True)
    for ax, col in zip(axes, cols, strict=True):
        if not _ecdf(ax, s.page_rows[col]):
            _empty(ax, col)
            continue
        ax.set_xlabel(f"{col} per page")
        if col in ("nodes", "edges", "resources"):
            ax.set_xscale("log")
    fig.suptitle("Graph size per page")


def cp_composition(s: CorpusStats, fig) -> None:
    left, right = fig.subplots(1, 2, width_ratios=[1, 1.4])
    kinds = s.cp_kinds.dropna(subset=["share"])
    if kinds.empty or kinds["ms"].sum() == 0:
        _empty(left, "critical paths")
        _empty(right, "critical paths")
        return
    bottom = {"network": 0.0, "computation": 0.0}
    for _, row in kinds.iterrows():
        left.bar(row["class"], row["share"], bottom=bottom[row["class"]], label=row["kind"])
        bottom[row["class"]] += row["share"]
    left.set_ylabel("share of all critical-path time")
    left.set_title("By activity kind")
    left.legend(fontsize="small")
    total = s.page_rows["cp_network_ms"] + s.page_rows["cp_computation_ms"]
    _ecdf(right, (s.page_rows["cp_network_ms"] / total.where(total > 0)).dropna(), "network")
    _ecdf(right, (s.page_rows["cp_computation_ms"] / total.where(total > 0)).dropna(), "computation")
    right.set_xlabel("share of the page's critical-path time")
    right.set_title("Per page")
    right.legend()
    fig.suptitle("Critical-path composition")


def mime_mix(s: CorpusStats, fig) -> None:
    by_count, by_bytes = fig.subplots(1, 2)
    if s.mime.empty:
        _empty(by_count, "resources")
        _empty(by_bytes, "resources")
        return
    by_count.bar(s.mime["mime_class"], s.mime["resource_share"])
    by_count.set_title("by count")
    by_count.set_ylabel("share of resources")
    by_bytes.bar(s.mime["mime_class"], s.mime["byte_share"])
    by_bytes.set_title("by bytes")
    by_bytes.set_ylabel("share of bytes")
    fig.suptitle("MIME mix")


def server_delay_cdf(s: CorpusStats, fig) -> None:
    ax = fig.subplots()
    if s.delay_rows.empty:
        return _empty(ax, "server delays")
    for cls, group in s.delay_rows.groupby("mime_class"):
        _ecdf(ax, group["server_delay_ms"], f"{cls} (n={len(group)})")
    ax.set_ylabel("fraction of resources")
    ax.set_xscale("symlog", linthresh=1)
    ax.set_xlabel("server delay (ms)")
    ax.set_title("Server delays by MIME class")
    ax.legend()


def cp_resource_share(s: CorpusStats, fig) -> None:
    ax = fig.subplots()
    if not _ecdf(ax, s.page_rows["cp_resource_share"].dropna()):
        return _empty(ax, "resources")
    ax.set_xlabel("share of the page's resources on its critical path")
    ax.set_title("Resources on the critical path")


FIGURES = {
    "load-dcl-cdf": (load_cdf, (6, 4)),
    "page-sizes": (page_sizes, (14, 3.5)),
    "critical-path-composition": (cp_composition, (11, 4.5)),
    "mime-mix": (mime_mix, (10, 4)),
    "server-delay-cdf": (server_delay_cdf, (6, 4)),
    "critical-path-resource-share": (cp_resource_share, (6, 4)),
}


def write_all(s: CorpusStats, out: Path) -> list[str]:
    """Every figure as <name>.png and <name>.svg in out; returns the file names written."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, (draw, size) in FIGURES.items():
        fig = plt.figure(figsize=size, layout="constrained")
        try:
            draw(s, fig)
            fig.savefig(out / f"{name}.png", dpi=120, metadata={"Software": None})
            fig.savefig(out / f"{name}.svg", metadata={"Date": None})
        finally:
            plt.close(fig)
        written += [f"{name}.png", f"{name}.svg"]
    return written
