"""The corpus tables: JSON lines written by the TypeScript side (corpus/src/tables.ts) -> Parquet.

The schemas below are the tables' contract: typed columns with descriptions, read by DuckDB, pandas
and the release manifest (`frictionless_fields`). A column the TypeScript side writes that is not here
is an error, so the two sides cannot drift apart silently.
"""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.json as pj
import pyarrow.parquet as pq

NODE_KINDS = ("resource", "download_chunk", "parse_chunk", "script_eval", "css_eval", "timer", "event", "marker")
NETWORK_KINDS = ("resource", "download_chunk")
COMPUTATION_KINDS = ("parse_chunk", "script_eval", "css_eval", "timer", "event")


def _f(name: str, typ: pa.DataType, description: str) -> pa.Field:
    return pa.field(name, typ, metadata={"description": description})


_S, _I, _F, _B = pa.string(), pa.int64(), pa.float64(), pa.bool_()

SCHEMAS: dict[str, pa.Schema] = {
    "pages": pa.schema(
        [
            _f("page_id", _S, "page id: slug of host and path + 8 hex of sha256(url)"),
            _f("url", _S, "the profiled page"),
            _f("source", _S, "graph provenance: legacy-log, chrome-trace, ..."),
            _f("browser_version", _S, "browser that loaded the page, when known"),
            _f("nodes", _I, "activities in the graph"),
            _f("edges", _I, "dependencies in the graph"),
            _f("resources", _I, "resource downloads"),
            _f("frames", _I, "frames (main frame included)"),
            _f("origins", _I, "distinct origins of the resources"),
            _f("bytes", _I, "sum of resource body sizes (encoded), bytes"),
            _f("load_ms", _F, "main frame load event, ms since navigation start"),
            _f("dcl_ms", _F, "main frame DOMContentLoaded, ms since navigation start"),
            _f("cp_length_ms", _F, "critical path length (sum of its node durations), ms"),
            _f("cp_nodes", _I, "activities on the critical path"),
            _f("cp_network_ms", _F, "critical path time in network activities (resource, download_chunk), ms"),
            _f("cp_computation_ms", _F, "critical path time in computation (parse, script, style, timer, event), ms"),
            _f("cp_resources", _I, "resources on the critical path (the resource or one of its download chunks)"),
            _f("cp_resource_share", _F, "cp_resources / resources"),
        ]
        + [_f(f"cp_{k}_ms", _F, f"critical path time in {k} activities, ms") for k in NODE_KINDS]
    ),
    "nodes": pa.schema(
        [
            _f("page_id", _S, "page id (pages.page_id)"),
            _f("node_id", _S, "node id within the page's graph"),
            _f("kind", _S, "activity kind (graph format v1)"),
            _f("frame", _S, "frame id"),
            _f("start_ms", _F, "start, ms since navigation start"),
            _f("end_ms", _F, "end, ms since navigation start"),
            _f("duration_ms", _F, "end - start, ms"),
            _f("phase", _S, "pre-dom, pre-load or post-load"),
            _f("disabled", _B, "normalisation removed the node from the load"),
            _f("on_critical_path", _B, "the node is on the critical path"),
            _f("label", _S, "url, script, event target.name or marker name"),
        ]
    ),
    "edges": pa.schema(
        [
            _f("page_id", _S, "page id (pages.page_id)"),
            _f("from_node", _S, "the node depended on"),
            _f("to_node", _S, "the dependent node"),
            _f("rule", _S, "Table 3.1 rule number or named rule (docs/graph-format.md)"),
        ]
    ),
    "resources": pa.schema(
        [
            _f("page_id", _S, "page id (pages.page_id)"),
            _f("node_id", _S, "resource node id"),
            _f("url", _S, "resource url"),
            _f("origin", _S, "scheme://host[:port]"),
            _f("mime_type", _S, "MIME type"),
            _f("mime_class", _S, "html, css, javascript, image or other"),
            _f("size", _I, "body bytes received (encoded)"),
            _f("method", _S, "HTTP method"),
            _f("status", _I, "HTTP status (0 unknown or failed)"),
            _f("cached", _B, "served from the browser cache"),
            _f("start_ms", _F, "request start, ms since navigation start"),
            _f("end_ms", _F, "download end, ms since navigation start"),
            _f("response_start_ms", _F, "first response byte, ms since navigation start"),
            _f("server_delay_ms", _F, "server processing delay, ms (thesis 3.4.1), when known"),
            _f("server_delay_estimated", _B, "the server delay was imputed, not measured"),
            _f("priority_mime_type", _F, "MIME-type priority (1 most important)"),
            _f("priority_critical_path", _F, "critical-path priority, Algorithm 2 (1 most important)"),
            _f("request_type", _S, "the browser's request type, when known"),
            _f("browser_priority", _S, "the priority the browser gave the request, when known"),
            _f("on_critical_path", _B, "the resource or one of its download chunks is on the critical path"),
        ]
    ),
}
TABLES = tuple(SCHEMAS)

_FRICTIONLESS_TYPES = {pa.string(): "string", pa.int64(): "integer", pa.float64(): "number", pa.bool_(): "boolean"}


def frictionless_fields(table: str) -> list[dict[str, str]]:
    """The table's columns as Frictionless Table Schema fields."""
    return [
        {"name": f.name, "type": _FRICTIONLESS_TYPES[f.type], "description": f.metadata[b"description"].decode()}
        for f in SCHEMAS[table]
    ]


def read_jsonl(path: Path, schema: pa.Schema) -> pa.Table:
    if not path.exists() or path.stat().st_size == 0:
        return schema.empty_table()
    parse = pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior="error")
    try:
        table = pj.read_json(path, parse_options=parse)
    except pa.ArrowInvalid as e:
        raise ValueError(f"{path}: {str(e).splitlines()[0]}") from e
    return table.select(schema.names).cast(schema)


def write_tables(jsonl_dir: Path, data_dir: Path) -> dict[str, int]:
    """<table>.jsonl -> <table>.parquet for every table; returns the row counts. Also writes schema.json beside."""
    data_dir.mkdir(parents=True, exist_ok=True)
    rows = {}
    for name, schema in SCHEMAS.items():
        table = read_jsonl(jsonl_dir / f"{name}.jsonl", schema)
        pq.write_table(table, data_dir / f"{name}.parquet", compression="zstd")
        rows[name] = table.num_rows
    return rows


def write_schema(path: Path) -> None:
    """Frictionless fields of every table, for the release manifest."""
    path.write_text(json.dumps({t: frictionless_fields(t) for t in TABLES}, indent=1))
