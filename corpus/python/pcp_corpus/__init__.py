"""PCP corpora (corpus/README.md): the Dask driver of `pcp corpus build --scheduler` and the layout's Python side."""
