"""The Streamlit app (``streamlit run app.py``): the only package that imports streamlit.

Layout (docs/app.md):

* ``app``: page set-up and navigation, called by the repository's ``app.py``;
* ``pages/``: one small script per page;
* ``components/``: the maps (on bundled world outlines, ``data/``), charts,
  tables, KPI metrics and problem lists; they render Datasets and plain values only;
* ``state``: every session-state key; ``address``: the scenario page's address;
  ``loaders``: the only cached functions;
* ``recipe``, ``knobs``, ``runs``, ``worker``, ``paths``, ``format``,
  ``batch_folders``: plain Python without streamlit (what to solve, the widgets'
  overrides, the background runs and their on-disk cache, where batch folders may
  be read), tested without a browser.
"""
