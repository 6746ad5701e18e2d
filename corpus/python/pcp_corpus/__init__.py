"""PCP corpora (corpus/README.md).

The Dask drivers of `pcp corpus build --scheduler` and `pcp sweep --scheduler`, the layout's Python side,
and the Parquet tables (tables), statistics (stats) and figures (plots) of pcp corpus stats and publish.
"""
