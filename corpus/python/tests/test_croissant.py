"""croissant.json from a release's datapackage.json: valid for mlcroissant, its records read back from the Parquet."""

import hashlib
import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

mlc = pytest.importorskip("mlcroissant")

from pcp_corpus import croissant  # noqa: E402


@pytest.fixture
def release(tmp_path):
    (tmp_path / "data").mkdir()
    pq.write_table(pa.table({"page_id": ["a", "b"], "nodes": [3, 5], "load_ms": [1.5, 2.25], "ok": [True, False]}),
                   tmp_path / "data" / "pages.parquet")
    (tmp_path / "LICENSE").write_text("CC-BY-4.0\n")
    resources = []
    for path, fmt in [("LICENSE", "txt"), ("data/pages.parquet", "parquet")]:
        data = (tmp_path / path).read_bytes()
        resources.append({"name": path.lower().replace("/", "-"), "path": path, "format": fmt, "bytes": len(data),
                          "hash": f"sha256:{hashlib.sha256(data).hexdigest()}"})
    resources[1].update(type="table", schema={"fields": [
        {"name": "page_id", "type": "string", "description": "page id"},
        {"name": "nodes", "type": "integer", "description": "nodes of the graph"},
        {"name": "load_ms", "type": "number", "description": "load event, ms"},
        {"name": "ok", "type": "boolean", "description": "a flag"},
    ]})
    (tmp_path / "datapackage.json").write_text(json.dumps({
        "name": "pcp-test", "title": "PCP test", "description": "two pages", "version": "1.2.3",
        "created": "2026-11-22T20:00:00Z", "keywords": ["page load"],
        "licenses": [{"name": "CC-BY-4.0", "path": "https://creativecommons.org/licenses/by/4.0/"}],
        "resources": resources,
    }))
    return tmp_path


def test_written_valid_and_its_records_read_back(release):
    croissant.write(release)
    doc = json.loads((release / "croissant.json").read_text())
    assert doc["conformsTo"] == "http://mlcommons.org/croissant/1.0"
    assert doc["version"] == "1.2.3"
    package = json.loads((release / "datapackage.json").read_text())
    assert {f["contentUrl"]: f["sha256"] for f in doc["distribution"]} == {
        r["path"]: r["hash"].removeprefix("sha256:") for r in package["resources"]}
    assert [f["dataType"] for f in doc["recordSet"][0]["field"]] == ["sc:Text", "sc:Integer", "sc:Float", "sc:Boolean"]
    assert croissant.check(release) == []
    rows = list(mlc.Dataset(jsonld=str(release / "croissant.json")).records("pages"))
    got = [(r["pages/page_id"], r["pages/nodes"], r["pages/load_ms"], r["pages/ok"]) for r in rows]
    assert got == [(b"a", 3, 1.5, True), (b"b", 5, 2.25, False)]


def test_check_reports_what_mlcroissant_finds_invalid(release):
    assert croissant.check(release) == ["croissant.json: missing"]
    croissant.write(release)
    doc = json.loads((release / "croissant.json").read_text())
    doc["recordSet"][0]["field"][1]["dataType"] = "sc:NotAType"
    (release / "croissant.json").write_text(json.dumps(doc))
    problems = croissant.check(release)
    assert len(problems) == 1 and "Field(nodes)" in problems[0] and "dataType" in problems[0], problems


def test_a_resource_without_sha256_is_refused(release):
    package = json.loads((release / "datapackage.json").read_text())
    del package["resources"][0]["hash"]
    (release / "datapackage.json").write_text(json.dumps(package))
    with pytest.raises(ValueError, match="LICENSE has no sha256"):
        croissant.write(release)
