"""Batch sweeps on Dask: sweep files, the engine, and the combined result store.

``from geomodel.batch import run_batch, open_batch, load_sweep``; the names are
loaded on first use, so importing one part does not import the others.
"""

_LAZY = {
    "run_batch": "geomodel.batch.engine",
    "BatchProgress": "geomodel.batch.engine",
    "BatchSummary": "geomodel.batch.engine",
    "open_batch": "geomodel.batch.store",
    "load_sweep": "geomodel.batch.sweep",
    "Sweep": "geomodel.batch.sweep",
}


def __getattr__(name: str):
    if name in _LAZY:
        from importlib import import_module

        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'geomodel.batch' has no attribute {name!r}")


__all__ = sorted(_LAZY)
