"""§3.4.1 estimation, the .dist CDF layout, the TSV layout, and seeded reproducibility (pure functions)."""

from __future__ import annotations

from server_delays import cdf, estimate
from server_delays.records import DelayRecord, ext_type, to_tsv


def r(url: str, delay: float | None, host: str = "h.test", mime: str = "image/png", status: int = 200,
      size: int = 100, method: str = "GET") -> DelayRecord:
    return DelayRecord(method, host, url, size, delay, mime, ext_type(url), False, False, delay is None, status,
                       "ack" if delay is not None else "none")


def sample():
    return [r("http://h.test/1.png", 10.0), r("http://h.test/2.png", 30.0), r("http://h.test/3.png", None),
            r("http://o.test/x.css", 50.0, host="o.test", mime="text/css"),
            r("http://o.test/y.png", None, host="o.test"),  # no image/png pool on o.test -> Image CDF
            r("http://h.test/cached.png", 7.0, status=304),
            r("http://h.test/err.png", 400.0, status=404),
            r("http://h.test/empty.png", None, size=0, host="z.test", mime="text/plain"),
            r("http://h.test/slow.png", 1500.0)]


def test_estimation_rules():
    out = {x.url: x for x in estimate.impute(sample(), seed=5, fallback={"Text": [(0.5, 0.0), (0.5, 1.0)]})}
    # same host + MIME pool: h.test image/png measured = {10, 30, 7 (304), 1500}
    assert out["http://h.test/3.png"].source == "domain"
    assert out["http://h.test/3.png"].delayMs in (10.0, 30.0, 7.0, 1500.0)
    # no pool: this capture's Image CDF (10, 30, 7 ms; 1500 is an outlier, 404 excluded)
    assert out["http://o.test/y.png"].source == "cdf" and out["http://o.test/y.png"].delayMs in (7.0, 10.0, 30.0)
    # 304: measured and cached; 404: not measured, re-estimated from the pool
    assert (out["http://h.test/cached.png"].cached, out["http://h.test/cached.png"].estimated) == (True, False)
    assert out["http://h.test/err.png"].estimated and out["http://h.test/err.png"].source == "domain"
    # zero size, only the fallback Text CDF (500 ms) -> clamped at 10 ms
    assert (out["http://h.test/empty.png"].source, out["http://h.test/empty.png"].delayMs) == ("fallback-cdf", 10.0)
    # the outlier keeps its own measurement
    assert (out["http://h.test/slow.png"].delayMs, out["http://h.test/slow.png"].estimated) == (1500.0, False)


def test_cdf_values_leave_out_outliers_errors_and_estimates():
    vals = estimate.cdf_values(estimate.impute(sample(), seed=1))
    assert sorted(vals["Image"]) == [0.007, 0.01, 0.03] and sorted(vals["CSS"]) == [0.05]


def test_dist_layout():
    # 4 values, 0.2 twice: (min, 0), then P(X <= v) per distinct value; 5 significant digits, no final newline.
    assert cdf.format_dist([0.4, 0.2, 0.1, 0.2]) == "0.1 0\n0.1 0.25\n0.2 0.75\n0.4 1"
    assert cdf.format_dist([0.123456789, 6.1e-05]) == "6.1e-05 0\n6.1e-05 0.5\n0.12346 1"
    pts = cdf.parse_dist("0.1 0\n0.1 0.25\n0.2 0.75\n0.4 1")
    assert [cdf.sample(pts, u) for u in (0.0, 0.2, 0.25, 0.5, 0.75, 0.99)] == [0.1, 0.1, 0.1, 0.2, 0.2, 0.4]


def test_write_and_read_cdf_dir(tmp_path):
    written = cdf.write_dir({"Image": [0.01, 0.03], "Post": [0.2]}, str(tmp_path))
    assert sorted(p.rsplit("/", 1)[1] for p in written) == ["ImageDelaysCDF.dist", "PostDelaysCDF.dist"]
    assert (tmp_path / "ImageDelaysCDF.dist").read_text() == "0.01 0\n0.01 0.5\n0.03 1"
    assert cdf.read_dir(str(tmp_path))["Post"] == [(0.2, 0.0), (0.2, 1.0)]


def test_mime_classes():
    assert [cdf.mime_class(m) for m in ("text/css", "image/webp", "application/x-javascript", "text/html",
                                         "text/plain", "application/json", "font/woff2")] == [
        "CSS", "Image", "Javascript", "Text", "Text", "Other", "Other"]
    assert cdf.mime_class("text/html", "POST") == "Post"


def test_seeded_draws_are_reproducible_and_order_free():
    a = [x.delayMs for x in estimate.impute(sample(), seed=11)]
    b = [x.delayMs for x in estimate.impute(sample(), seed=11)]
    assert a == b
    # a record's draw does not depend on the records before it
    rev = {x.url: x.delayMs for x in estimate.impute(list(reversed(sample())), seed=11)}
    assert rev == {x.url: x.delayMs for x in estimate.impute(sample(), seed=11)}
    draws = {tuple(x.delayMs for x in estimate.impute(sample(), seed=s)) for s in range(20)}
    assert len(draws) > 1, "different seeds draw differently"


def test_tsv_layout():
    rec = r("https://h.test/a b.png?x=1", 12.5)
    assert to_tsv([rec]) == ("method hostname url size time mimetype exttype cached\n"
                             "GET h.test h.test/a%20b.png?x=1 100 0.012500 image/png image 0\n")
    assert [ext_type(u) for u in ("http://a/x.js?v=1", "http://a/f.woff", "http://a/", "http://a/p.php",
                                  "http://a/x.aspx", "http://a/b.html", "http://a/m.swf")] == [
        "javascript", "font", "other", "php", "application", "text", "flash"]
