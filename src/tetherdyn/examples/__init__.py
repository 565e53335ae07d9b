"""Bundled example cases (YAML, CSV, MoorDyn decks) and example scripts (``cosim_rov``)."""
