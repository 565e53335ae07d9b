"""python -m tetherdyn.validation [--quick] [--only KEY ...]: regenerate docs/validation.md."""

from __future__ import annotations

import sys

from ..cli import main

if __name__ == "__main__":
    sys.exit(main(["validate", *sys.argv[1:]]))
