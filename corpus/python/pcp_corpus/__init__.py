"""PCP corpora (corpus/README.md): Parquet tables (tables), statistics (stats) and figures (plots) of pcp corpus."""
