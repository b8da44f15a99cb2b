"""The inputs Dataset: a validated scenario resolved against the catalogue, ready for the model."""
