"""Pieces the pages place: the map and charts (plain functions of Datasets) and the
streamlit renderers of KPIs, problems, knobs and run progress."""
