"""Hand-over to HiGHS, solver outcomes, and infeasibility explained in scenario words."""
