"""PCP corpora (corpus/README.md): the Parquet tables (tables), statistics (stats) and figures (plots) of pcp corpus stats and publish."""
