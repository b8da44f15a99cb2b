"""The placement model (docs/model.md): index sets and the Pyomo build."""
