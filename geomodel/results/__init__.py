"""Results of a solve: the results Dataset, KPIs, and NetCDF storage."""
