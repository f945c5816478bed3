"""``python -m generator`` runs the panelforge command line."""

import sys

from .cli import main

sys.exit(main())
