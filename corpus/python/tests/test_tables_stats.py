"""pcp_corpus on small tables written here: JSON lines -> Parquet that pandas and DuckDB read with the
declared types, statistics computed by hand for comparison, figures written as PNG and SVG."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import duckdb
import pandas as pd
import pytest

from pcp_corpus import plots, stats, tables

KINDS = tables.NODE_KINDS


def page(pid: str, load: float, dcl: float, network: float, compute: float, resources: int, on_cp: int) -> dict:
    row = {
        "page_id": pid,
        "url": f"https://{pid}.test/",
        "source": "synthetic",
        "browser_version": None,
        "nodes": 10 * resources,
        "edges": 15 * resources,
        "resources": resources,
        "frames": 1,
        "origins": 2,
        "bytes": 1000 * resources,
        "load_ms": load,
        "dcl_ms": dcl,
        "cp_length_ms": network + compute,
        "cp_nodes": 5,
        "cp_network_ms": network,
        "cp_computation_ms": compute,
        "cp_resources": on_cp,
        "cp_resource_share": on_cp / resources,
    }
    row.update({f"cp_{k}_ms": 0 for k in KINDS})
    row["cp_resource_ms"] = network
    row["cp_script_eval_ms"] = compute
    return row


def resource(pid: str, nid: str, mime_class: str, size: int, delay: float | None) -> dict:
    return {
        "page_id": pid,
        "node_id": nid,
        "url": f"https://{pid}.test/{nid}",
        "origin": f"https://{pid}.test",
        "mime_type": {"image": "image/png", "javascript": "text/javascript"}[mime_class],
        "mime_class": mime_class,
        "size": size,
        "method": "GET",
        "status": 200,
        "cached": False,
        "start_ms": 0,
        "end_ms": 10,
        "response_start_ms": None,
        "server_delay_ms": delay,
        "server_delay_estimated": None if delay is None else False,
        "priority_mime_type": 1.5,
        "priority_critical_path": 2,
        "request_type": None,
        "browser_priority": None,
        "on_critical_path": nid == "r0",
    }


def write_jsonl(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))


@pytest.fixture()
def corpus(tmp_path: Path) -> Path:
    src = tmp_path / "jsonl"
    src.mkdir()
    write_jsonl(src / "pages.jsonl", [page("a", 1000, 500, 300, 100, 4, 1), page("b", 3000, 2000, 900, 100, 2, 2)])
    write_jsonl(
        src / "resources.jsonl",
        [
            resource("a", "r0", "image", 100, 10),
            resource("a", "r1", "image", 300, 30),
            resource("a", "r2", "javascript", 600, None),
            resource("b", "r0", "javascript", 1000, 50),
        ],
    )
    write_jsonl(
        src / "nodes.jsonl",
        [
            {
                "page_id": "a",
                "node_id": "n",
                "kind": "timer",
                "frame": "0",
                "start_ms": 1,
                "end_ms": 2,
                "duration_ms": 1,
                "phase": None,
                "disabled": False,
                "on_critical_path": False,
                "label": "timer 1",
            }
        ],
    )
    (src / "edges.jsonl").write_text("")  # an empty table is still a table
    tables.write_tables(src, tmp_path / "data")
    return tmp_path


def test_parquet_tables_read_by_pandas_and_duckdb_with_declared_types(corpus: Path) -> None:
    data = corpus / "data"
    for name, schema in tables.SCHEMAS.items():
        df = pd.read_parquet(data / f"{name}.parquet")
        assert list(df.columns) == schema.names
    res = pd.read_parquet(data / "resources.parquet")
    assert res["size"].dtype == "int64" and res["priority_mime_type"].tolist() == [1.5] * 4
    assert res["server_delay_ms"].isna().tolist() == [False, False, True, False]
    got = duckdb.sql(f"SELECT page_id, sum(size) FROM '{data / 'resources.parquet'}' GROUP BY 1 ORDER BY 1").fetchall()
    assert got == [("a", 1000), ("b", 1000)]
    assert duckdb.sql(f"SELECT count(*) FROM '{data / 'edges.parquet'}'").fetchall() == [(0,)]
    fields = tables.frictionless_fields("pages")
    assert fields[0] == {"name": "page_id", "type": "string", "description": fields[0]["description"]}
    assert {f["type"] for f in fields} == {"string", "integer", "number"}


def test_an_unknown_column_is_an_error_naming_the_file(tmp_path: Path) -> None:
    bad = page("a", 1, 1, 1, 1, 1, 1) | {"surprise": 1}
    write_jsonl(tmp_path / "pages.jsonl", [bad])
    with pytest.raises(ValueError, match="pages.jsonl"):
        tables.read_jsonl(tmp_path / "pages.jsonl", tables.SCHEMAS["pages"])


def test_statistics_match_the_rows(corpus: Path) -> None:
    s = stats.compute(stats.connect(corpus / "data"))
    assert s.pages == 2
    per = s.per_page.set_index("metric")
    assert per.loc["load (ms)", "median"] == 2000 and per.loc["resources", "mean"] == 3
    kinds = s.cp_kinds.set_index("kind")
    assert kinds.loc["resource", "ms"] == 1200 and kinds.loc["resource", "share"] == pytest.approx(1200 / 1400)
    split = s.cp_split.set_index("class")
    assert split.loc["computation", "share"] == pytest.approx(200 / 1400)
    assert split.loc["network", "median_page_share"] == pytest.approx((0.75 + 0.9) / 2)
    mime = s.mime.set_index("mime_class")
    assert mime.loc["image", "resources"] == 2 and mime.loc["javascript", "bytes"] == 1600
    assert mime.loc["javascript", "byte_share"] == pytest.approx(0.8)
    delays = s.server_delays.set_index("mime_class")
    assert delays.loc["image", "n"] == 2 and delays.loc["image", "median_ms"] == 20
    assert delays.loc["javascript", "n"] == 1 and delays.loc["javascript", "median_ms"] == 50
    text = stats.as_text(s)
    assert "pages: 2" in text and "Critical path by activity kind" in text
    assert "| metric" in stats.as_markdown(s)


def test_figures_as_png_and_svg(corpus: Path) -> None:
    s = stats.compute(stats.connect(corpus / "data"))
    written = plots.write_all(s, corpus / "report")
    assert len(written) == 2 * len(plots.FIGURES)
    for name in written:
        body = (corpus / "report" / name).read_bytes()
        if name.endswith(".png"):
            assert body.startswith(b"\x89PNG")
        else:
            assert ET.fromstring(body).tag.endswith("svg")


def test_cli_describe_then_stats_on_parquet(corpus: Path) -> None:
    run = [sys.executable, "-m", "pcp_corpus"]
    out = subprocess.run(
        [*run, "describe", str(corpus / "jsonl"), "--data", str(corpus / "d2"), "--report", str(corpus / "r2")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "pages: 2" in out.stdout
    assert json.loads((corpus / "r2" / "summary.json").read_text())["pages"] == 2
    assert set(json.loads((corpus / "jsonl" / "schema.json").read_text())) == set(tables.TABLES)
    bad = subprocess.run(
        [*run, "stats", str(corpus / "missing"), "--report", str(corpus / "r3")], capture_output=True, text=True
    )
    assert bad.returncode == 1
    assert bad.stderr.strip().count("\n") == 0 and bad.stderr.startswith("error: ") and "no such table" in bad.stderr
