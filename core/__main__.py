"""``python -m core`` runs the command line."""

import sys

from core.cli import main

# The guard matters: the engine process (core.engine, multiprocessing "spawn")
# re-imports the main module as ``__mp_main__``; without it, ``python -m core
# selftest`` started the command line again inside the engine, which exited.
if __name__ == "__main__":
    sys.exit(main())
