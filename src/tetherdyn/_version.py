"""The package version (one place; the package face, results and the CLI read it)."""

__version__ = "0.1.0"
