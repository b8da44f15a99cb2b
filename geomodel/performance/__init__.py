"""How many chips a workload needs: performance models of serving and training.

Pure functions of a language model's shape and a hardware system's figures (no
Pyomo, no Streamlit), used by the inputs Dataset and the analytic commands alike:
:mod:`geomodel.performance.serving` (prefill and decode roofline) and
:mod:`geomodel.performance.training` (step time with exposed communication).
"""
