"""
A release's MLCommons Croissant metadata (croissant.json, JSON-LD), made with the `mlcroissant` library
from the release's Frictionless descriptor (datapackage.json): the same files with their sha256 and sizes,
and one record set per Parquet table with its typed, described columns.

  python -m pcp_corpus croissant RELEASE_DIR           write RELEASE_DIR/croissant.json
  python -m pcp_corpus croissant RELEASE_DIR --check   validate it with mlcroissant (`error: ...` when invalid)
"""

from __future__ import annotations

import json
from pathlib import Path

CROISSANT = "croissant.json"
MANIFEST = "datapackage.json"

# Frictionless field types (tables.frictionless_fields) -> Croissant data types.
_DATA_TYPES = {"string": "TEXT", "integer": "INTEGER", "number": "FLOAT", "boolean": "BOOL"}
# File formats of the release (datapackage.json `format`) -> Croissant encodings.
_ENCODINGS = {"parquet": "PARQUET", "json": "JSON", "jsonl": "JSON_LINES", "png": "PNG", "txt": "TEXT", "md": "TEXT"}


def _encoding(resource: dict) -> str:
    import mlcroissant as mlc

    if resource.get("path", "").endswith(".json.gz"):
        return "application/gzip"
    name = _ENCODINGS.get(resource.get("format", ""))
    return getattr(mlc.EncodingFormat, name) if name else resource.get("mediatype", "application/octet-stream")


def metadata_from_package(package: dict):
    """The mlcroissant Metadata of a release described by `package` (its datapackage.json)."""
    import mlcroissant as mlc

    ctx = mlc.Context()
    files, record_sets = [], []
    for r in package["resources"]:
        if not str(r.get("hash", "")).startswith("sha256:"):
            raise ValueError(f"{MANIFEST}: {r.get('path')} has no sha256")
        files.append(mlc.FileObject(
            ctx=ctx, id=r["name"], name=r["name"], content_url=r["path"], content_size=f"{r['bytes']} B",
            encoding_formats=[_encoding(r)], sha256=r["hash"].removeprefix("sha256:"),
        ))
        fields = (r.get("schema") or {}).get("fields")
        if r.get("type") == "table" and fields:
            table = Path(r["path"]).name.removesuffix(".parquet")
            record_sets.append(mlc.RecordSet(ctx=ctx, id=table, name=table, description=f"rows of {r['path']}", fields=[
                mlc.Field(
                    ctx=ctx, id=f"{table}/{f['name']}", name=f["name"], description=f.get("description", ""),
                    data_types=[getattr(mlc.DataType, _DATA_TYPES[f["type"]])],
                    source=mlc.Source(ctx=ctx, file_object=r["name"], extract=mlc.Extract(ctx=ctx, column=f["name"])),
                )
                for f in fields
            ]))
    license_ = package["licenses"][0]
    return mlc.Metadata(
        ctx=ctx, name=package["name"], description=package["description"], version=package["version"],
        date_published=package["created"], license=[license_.get("path") or license_["name"]],
        keywords=package.get("keywords", []),
        cite_as=f"{package['title']}, version {package['version']} ({package['created'][:10]})",
        distribution=files, record_sets=record_sets,
    )


def _errors(metadata) -> list[str]:
    return [str(e).splitlines()[0] for e in metadata.ctx.issues.errors]


def write(release: Path) -> None:
    """croissant.json from the release's datapackage.json; a ValueError when mlcroissant finds it invalid."""
    package = json.loads((release / MANIFEST).read_text())
    metadata = metadata_from_package(package)
    errors = _errors(metadata)
    if errors:
        raise ValueError(f"{CROISSANT}: {'; '.join(errors)}")
    (release / CROISSANT).write_text(json.dumps(metadata.to_json(), indent=1, default=str) + "\n")


def check(release: Path) -> list[str]:
    """mlcroissant's validation errors of RELEASE_DIR/croissant.json (empty when valid)."""
    import mlcroissant as mlc

    path = release / CROISSANT
    if not path.exists():
        return [f"{CROISSANT}: missing"]
    try:
        mlc.Dataset(jsonld=str(path))
    except mlc.ValidationError as e:
        lines = [line.strip().lstrip("- ").strip() for line in str(e).splitlines() if line.strip().startswith("-")]
        return [f"{CROISSANT}: {line}" for line in lines] or [f"{CROISSANT}: {str(e).strip()}"]
    return []
