"""The corpus layout through fsspec: a page copied whole with DONE last, resumable markers, failures from statuses."""

import json
import os

import fsspec
import pytest

from pcp_corpus.layout import init_corpus, is_done, publish_page, rewrite_failures


@pytest.fixture
def local_page(tmp_path):
    page = tmp_path / "page"
    (page / "bundle").mkdir(parents=True)
    (page / "bundle" / "meta.json").write_text('{"status": "complete"}')
    (page / "graph.json").write_text('{"nodes": []}')
    (page / "status.json").write_text(json.dumps({"url": "http://a.test/", "id": "a", "status": "ok", "attempts": 1}))
    (page / "DONE").write_text("now\n")
    return page


@pytest.mark.parametrize("proto", ["file", "memory"])
def test_publish_replaces_an_unfinished_page_and_writes_done_last(tmp_path, local_page, proto):
    root = str(tmp_path / "corpus") if proto == "file" else f"/corpus-{os.getpid()}"
    fs = fsspec.filesystem(proto)
    init_corpus(fs, root, {"format": "pcp-corpus/1"}, "http://a.test/")
    target = f"{root}/pages/a"
    fs.makedirs(f"{target}/bundle", exist_ok=True)
    fs.pipe_file(f"{target}/leftover.tmp", b"half")
    order = []
    put = fs.put_file

    def recording_put(lpath, rpath, **kw):
        order.append(rpath.rsplit("/", 1)[-1])
        return put(lpath, rpath, **kw)

    fs.put_file = recording_put
    publish_page(str(local_page), fs, target)
    assert order[-1] == "DONE"
    assert sorted(p.rsplit("/", 1)[-1] for p in fs.find(target)) == ["DONE", "graph.json", "meta.json", "status.json"]
    assert is_done(fs, root, "a")
    assert fs.cat_file(f"{root}/sites.txt") == b"http://a.test/\n"
    assert rewrite_failures(fs, root, [{"url": "http://a.test/", "id": "a"}]) == []


def test_failures_list_the_failed_pages(tmp_path, local_page):
    fs = fsspec.filesystem("file")
    root = str(tmp_path / "corpus")
    init_corpus(fs, root, {"format": "pcp-corpus/1"}, "")
    (local_page / "DONE").unlink()
    status = {"url": "http://b.test/", "id": "b", "status": "failed", "reason": "unreachable: x", "attempts": 2}
    (local_page / "status.json").write_text(json.dumps(status))
    publish_page(str(local_page), fs, f"{root}/pages/b")
    assert not is_done(fs, root, "b")
    failures = rewrite_failures(fs, root, [{"url": "http://b.test/", "id": "b"}])
    assert failures == [{"url": "http://b.test/", "id": "b", "reason": "unreachable: x", "attempts": 2}]
    assert (tmp_path / "corpus" / "failures.jsonl").read_text() == json.dumps(failures[0]) + "\n"
