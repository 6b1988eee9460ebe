"""``python -m desktop``: start the window."""

import sys

from desktop.app import main

if __name__ == "__main__":
    sys.exit(main())
