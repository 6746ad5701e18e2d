"""PCP corpus tools, Python side: the corpus tables as Parquet (tables), their statistics (stats) and plots (plots)."""
