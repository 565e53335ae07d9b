"""Runners for peer codes used in comparisons (optional extras: `pip install tetherdyn[peers]`)."""
