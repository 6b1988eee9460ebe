"""Refresh the Spanish translation: extract strings, fill them from the glossary, compile the .qm.

Run from the repository root: ``python resources/translations/update.py``.
Uses Qt's own tools shipped with PySide6-Essentials (``pyside6-lupdate``,
``pyside6-lrelease``). Strings missing from ``es_glossary.json`` stay
unfinished in the .ts (Qt then shows the English text) and are listed.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
TS = HERE / "verbatim_es.ts"
QM = HERE / "verbatim_es.qm"


def _tool(name: str) -> str:
    found = shutil.which(name) or str(Path(sys.executable).with_name(name))
    return found


def main() -> int:
    """Run lupdate, fill translations from the glossary, run lrelease; returns the exit code."""
    sources = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "desktop").glob("*.py"))
    subprocess.run([_tool("pyside6-lupdate"), *sources, "-no-obsolete", "-ts", str(TS)], cwd=ROOT, check=True)
    glossary = json.loads((HERE / "es_glossary.json").read_text(encoding="utf-8"))
    tree = ET.parse(TS)
    missing = []
    for message in tree.getroot().iter("message"):
        source = message.find("source").text or ""
        translation = message.find("translation")
        if source in glossary:
            translation.text = glossary[source]
            translation.attrib.pop("type", None)
        else:
            missing.append(source)
    tree.write(TS, encoding="utf-8", xml_declaration=True)
    subprocess.run([_tool("pyside6-lrelease"), str(TS), "-qm", str(QM)], cwd=ROOT, check=True)
    for source in missing:
        print(f"untranslated: {source!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
