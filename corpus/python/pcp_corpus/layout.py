"""The corpus directory (corpus/README.md) through fsspec: any URL fsspec opens (file://, s3://, ...) or a path."""

from __future__ import annotations

import json
import os

import fsspec

PAGES = "pages"
DONE = "DONE"
STATUS = "status.json"
FAILURES = "failures.jsonl"
CORPUS = "corpus.json"


def open_root(url: str) -> tuple[fsspec.AbstractFileSystem, str]:
    """The filesystem and root path of a corpus URL."""
    fs, root = fsspec.core.url_to_fs(url)
    return fs, root.rstrip("/")


def page_path(root: str, page_id: str) -> str:
    return f"{root}/{PAGES}/{page_id}"


def is_done(fs: fsspec.AbstractFileSystem, root: str, page_id: str) -> bool:
    return fs.exists(f"{page_path(root, page_id)}/{DONE}")


def write_text_atomic(fs: fsspec.AbstractFileSystem, path: str, text: str) -> None:
    """Through a temporary name, then moved (a rename on local disks; object stores write whole objects)."""
    tmp = f"{path}.tmp-{os.getpid()}"
    with fs.open(tmp, "w") as f:
        f.write(text)
    fs.mv(tmp, path)


def init_corpus(fs: fsspec.AbstractFileSystem, root: str, manifest: dict, site_list: str) -> None:
    """corpus.json and sites.txt on the first build; a resumed build keeps them."""
    fs.makedirs(f"{root}/{PAGES}", exist_ok=True)
    if fs.exists(f"{root}/{CORPUS}"):
        return
    if site_list and not site_list.endswith("\n"):
        site_list += "\n"
    write_text_atomic(fs, f"{root}/sites.txt", site_list)
    write_text_atomic(fs, f"{root}/{CORPUS}", json.dumps(manifest, indent=2))


def publish_page(local_page: str, fs: fsspec.AbstractFileSystem, target: str) -> None:
    """
    A page built in a local directory copied to its place in the corpus: whatever an earlier, interrupted
    attempt left there is removed first, every file is copied, and DONE is copied last (only when present),
    so a page with DONE is always whole.
    """
    if fs.exists(target):
        fs.rm(target, recursive=True)
    fs.makedirs(target, exist_ok=True)
    for dirpath, _dirs, files in os.walk(local_page):
        rel = os.path.relpath(dirpath, local_page)
        dest = target if rel == "." else f"{target}/{rel.replace(os.sep, '/')}"
        fs.makedirs(dest, exist_ok=True)
        for name in files:
            if rel == "." and name == DONE:
                continue
            fs.put_file(os.path.join(dirpath, name), f"{dest}/{name}")
    if os.path.exists(os.path.join(local_page, DONE)):
        fs.put_file(os.path.join(local_page, DONE), f"{target}/{DONE}")


def read_status(fs: fsspec.AbstractFileSystem, root: str, page_id: str) -> dict | None:
    path = f"{page_path(root, page_id)}/{STATUS}"
    if not fs.exists(path):
        return None
    try:
        with fs.open(path, "r") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def rewrite_failures(fs: fsspec.AbstractFileSystem, root: str, sites: list[dict]) -> list[dict]:
    """failures.jsonl from the pages' statuses: one line per site of the list that is failed now."""
    out = []
    for s in sites:
        if is_done(fs, root, s["id"]):
            continue
        st = read_status(fs, root, s["id"])
        if st and st.get("status") == "failed":
            reason = st.get("reason", "unknown")
            out.append({"url": s["url"], "id": s["id"], "reason": reason, "attempts": st.get("attempts", 1)})
    write_text_atomic(fs, f"{root}/{FAILURES}", "".join(json.dumps(f) + "\n" for f in out))
    return out
