"""Batch sweeps on Dask: sweep files, the engine, and the combined result store.

``from geomodel.batch import run_batch, open_batch, load_sweep``; the names are
loaded on first use, so importing one part does not import the others.
"""

from geomodel.lazy import lazy_getattr

_LAZY = {
    "run_batch": "geomodel.batch.engine",
    "BatchProgress": "geomodel.batch.engine",
    "BatchSummary": "geomodel.batch.engine",
    "open_batch": "geomodel.batch.store",
    "load_sweep": "geomodel.batch.sweep",
    "Sweep": "geomodel.batch.sweep",
}


__getattr__ = lazy_getattr(__name__, _LAZY)


__all__ = sorted(_LAZY)
