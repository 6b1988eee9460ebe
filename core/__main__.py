"""``python -m core`` runs the command line."""

import sys

from core.cli import main

sys.exit(main())
