"""
The corpus layout through fsspec: a page copied whole with DONE last, resumable markers, failures from statuses;
on local files, fsspec's in-process memory filesystem, and s3:// (s3fs against moto's S3 server on 127.0.0.1,
started by the test; skipped, saying so, when s3fs or moto is not installed).
"""

import json
import os

import fsspec
import pytest

from pcp_corpus.layout import init_corpus, is_done, open_root, publish_page, rewrite_failures


@pytest.fixture(scope="module")
def s3_endpoint():
    """moto's S3 server on a free loopback port for this module; the AWS variables point s3fs at it."""
    pytest.importorskip("s3fs", reason="s3:// needs s3fs (pip install -e 'corpus/python[dev]')")
    reason = "s3:// needs moto[server]: pip install -e 'corpus/python[dev]'"
    moto_server = pytest.importorskip("moto.server", reason=reason)
    server = moto_server.ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    mp = pytest.MonkeyPatch()
    mp.setenv("AWS_ENDPOINT_URL", f"http://{host}:{port}")
    for k in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
        mp.setenv(k, "test")
    mp.setenv("AWS_DEFAULT_REGION", "us-east-1")
    try:
        yield f"http://{host}:{port}"
    finally:
        mp.undo()
        server.stop()


def corpus_root(proto, tmp_path, request):
    """(filesystem, root) of a fresh corpus, resolved from its --out URL as the Dask driver does."""
    if proto == "file":
        return open_root(f"file://{tmp_path}/corpus")
    if proto == "memory":
        return open_root(f"memory:///corpus-{os.getpid()}-{tmp_path.name}")
    request.getfixturevalue("s3_endpoint")
    fs, root = open_root(f"s3://pcp-{tmp_path.name.lower().replace('_', '-')[-40:]}/corpus")
    fs.mkdir(root.split("/", 1)[0])
    return fs, root


@pytest.fixture
def local_page(tmp_path):
    page = tmp_path / "page"
    (page / "bundle").mkdir(parents=True)
    (page / "bundle" / "meta.json").write_text('{"status": "complete"}')
    (page / "graph.json").write_text('{"nodes": []}')
    (page / "status.json").write_text(json.dumps({"url": "http://a.test/", "id": "a", "status": "ok", "attempts": 1}))
    (page / "DONE").write_text("now\n")
    return page


@pytest.mark.parametrize("proto", ["file", "memory", "s3"])
def test_publish_replaces_an_unfinished_page_and_writes_done_last(tmp_path, local_page, proto, request):
    fs, root = corpus_root(proto, tmp_path, request)
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
