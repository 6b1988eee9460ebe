"""Desktop tests run headless: the offscreen Qt platform is set before any Qt import."""

import os

os.environ["QT_QPA_PLATFORM"] = "offscreen"
