"""Batch sweeps on Dask: sweep files, the engine, and the combined result store."""
