"""Statistics of a corpus from its Parquet tables (DuckDB SQL), as pandas frames and a summary."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pandas as pd

from .tables import COMPUTATION_KINDS, NETWORK_KINDS, NODE_KINDS, TABLES

PER_PAGE = {
    "load_ms": "load (ms)",
    "dcl_ms": "DOMContentLoaded (ms)",
    "nodes": "nodes",
    "edges": "edges",
    "resources": "resources",
    "frames": "frames",
    "origins": "origins",
    "bytes": "bytes",
    "cp_length_ms": "critical path (ms)",
    "cp_resource_share": "share of resources on the critical path",
}


def connect(data_dir: Path) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB with one view per table over data_dir/<table>.parquet."""
    con = duckdb.connect()
    for t in TABLES:
        path = data_dir / f"{t}.parquet"
        if not path.exists():
            raise FileNotFoundError(f"{path}: no such table")
        con.execute(f"CREATE VIEW {t} AS SELECT * FROM read_parquet('{str(path).replace(chr(39), chr(39) * 2)}')")
    return con


@dataclass
class CorpusStats:
    pages: int
    per_page: pd.DataFrame  # one row per metric: p10, median, p90, mean
    cp_kinds: pd.DataFrame  # per activity kind: ms over all pages, share of the critical paths' time
    cp_split: pd.DataFrame  # network vs computation: share of the time, median per-page share
    mime: pd.DataFrame  # per MIME class: resources, share, bytes, share
    server_delays: pd.DataFrame  # per MIME class: n, median, p90 (ms)
    page_rows: pd.DataFrame  # the pages table (for plots)
    delay_rows: pd.DataFrame  # mime_class, server_delay_ms


def compute(con: duckdb.DuckDBPyConnection) -> CorpusStats:
    q = con.execute
    pages = int(q("SELECT count(*) FROM pages").fetchone()[0])
    per_page = pd.concat(
        [
            q(
                f"""SELECT '{label}' AS metric, quantile_cont({col}, 0.1) AS p10, median({col}) AS median,
                    quantile_cont({col}, 0.9) AS p90, avg({col}) AS mean FROM pages"""
            ).df()
            for col, label in PER_PAGE.items()
        ],
        ignore_index=True,
    )
    kinds = [k for k in NODE_KINDS if k != "marker"]
    cp_total = " + ".join(f"sum(cp_{k}_ms)" for k in kinds)
    cp_kinds = q(
        " UNION ALL ".join(
            f"SELECT '{k}' AS kind, '{'network' if k in NETWORK_KINDS else 'computation'}' AS class, "
            f"sum(cp_{k}_ms) AS ms, sum(cp_{k}_ms) / nullif({cp_total}, 0) AS share FROM pages"
            for k in kinds
        )
    ).df()
    cp_split = q(
        f"""SELECT 'network' AS class, sum(cp_network_ms) / nullif({cp_total}, 0) AS share,
                median(cp_network_ms / nullif(cp_network_ms + cp_computation_ms, 0)) AS median_page_share FROM pages
            UNION ALL
            SELECT 'computation', sum(cp_computation_ms) / nullif({cp_total}, 0),
                median(cp_computation_ms / nullif(cp_network_ms + cp_computation_ms, 0)) FROM pages"""
    ).df()
    mime = q(
        """SELECT mime_class, count(*) AS resources, count(*) / sum(count(*)) OVER () AS resource_share,
                  sum(size) AS bytes, sum(size) / nullif(sum(sum(size)) OVER (), 0) AS byte_share
           FROM resources GROUP BY mime_class ORDER BY resources DESC"""
    ).df()
    server_delays = q(
        """SELECT mime_class, count(*) AS n, median(server_delay_ms) AS median_ms,
                  quantile_cont(server_delay_ms, 0.9) AS p90_ms
           FROM resources WHERE server_delay_ms IS NOT NULL GROUP BY mime_class ORDER BY n DESC"""
    ).df()
    return CorpusStats(
        pages=pages,
        per_page=per_page,
        cp_kinds=cp_kinds,
        cp_split=cp_split,
        mime=mime,
        server_delays=server_delays,
        page_rows=q("SELECT * FROM pages ORDER BY page_id").df(),
        delay_rows=q("SELECT mime_class, server_delay_ms FROM resources WHERE server_delay_ms IS NOT NULL").df(),
    )


SECTIONS = (
    ("Per page", "per_page"),
    ("Critical path by activity kind", "cp_kinds"),
    ("Critical path: network vs computation", "cp_split"),
    ("MIME mix", "mime"),
    ("Server delays by MIME class (ms)", "server_delays"),
)


def _round(df: pd.DataFrame) -> pd.DataFrame:
    return df.round(3)


def as_text(s: CorpusStats) -> str:
    parts = [f"pages: {s.pages}"]
    for title, attr in SECTIONS:
        df = getattr(s, attr)
        parts.append(f"\n{title}\n" + (_round(df).to_string(index=False) if len(df) else "(none)"))
    return "\n".join(parts)


def as_markdown(s: CorpusStats) -> str:
    parts = [f"Pages: **{s.pages}**"]
    for title, attr in SECTIONS:
        df = getattr(s, attr)
        parts.append(f"\n### {title}\n\n" + (_round(df).to_markdown(index=False) if len(df) else "(none)"))
    return "\n".join(parts) + "\n"


def as_json(s: CorpusStats) -> dict:
    out: dict = {"pages": s.pages}
    for _, attr in SECTIONS:
        out[attr] = json.loads(getattr(s, attr).to_json(orient="records"))
    out["network_kinds"] = list(NETWORK_KINDS)
    out["computation_kinds"] = list(COMPUTATION_KINDS)
    return out
