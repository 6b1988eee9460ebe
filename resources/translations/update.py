"""Refresh the translations: extract strings, fill them from the glossaries, compile the .qm files.

Run from the repository root: ``python resources/translations/update.py``.
Uses Qt's own tools shipped with PySide6-Essentials (``pyside6-lupdate``,
``pyside6-lrelease``). Strings missing from ``es_glossary.json`` stay
unfinished in the .ts (Qt then shows the English text) and are listed.

Plurals go through Qt's ``%n`` mechanism (``self.tr("%n document(s)", "", n)``): a
glossary value for such a string is a list of forms, ``[singular, plural]`` for
Spanish and English alike. English is the source language, but its plural forms need
a translation file too (Qt's documented way, ``lupdate -pluralonly``):
``verbatim_en.ts``/``.qm`` hold only the plural messages, from ``en_plurals.json``.

After a merge conflict in ``verbatim_es.ts``: keep both sides' glossary entries in
``es_glossary.json`` and run this script; the .ts and .qm files are regenerated.
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
TS_EN = HERE / "verbatim_en.ts"
QM_EN = HERE / "verbatim_en.qm"


def _tool(name: str) -> str:
    found = shutil.which(name) or str(Path(sys.executable).with_name(name))
    return found


def _fill(ts: Path, glossary: dict) -> list[str]:
    """Write the glossary's translations into ``ts``; returns the sources it lacks."""
    tree = ET.parse(ts)
    missing = []
    for message in tree.getroot().iter("message"):
        source = message.find("source").text or ""
        translation = message.find("translation")
        value = glossary.get(source)
        if value is None:
            missing.append(source)
            continue
        if message.get("numerus") == "yes":
            forms = value if isinstance(value, list) else [value, value]
            for child in list(translation):
                translation.remove(child)
            translation.text = None
            for form in forms:
                ET.SubElement(translation, "numerusform").text = form
        else:
            translation.text = value
        translation.attrib.pop("type", None)
    tree.write(ts, encoding="utf-8", xml_declaration=True)
    return missing


def main() -> int:
    """Run lupdate, fill translations from the glossaries, run lrelease; returns the exit code."""
    sources = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "desktop").glob("*.py"))
    lupdate, lrelease = _tool("pyside6-lupdate"), _tool("pyside6-lrelease")
    subprocess.run([lupdate, *sources, "-no-obsolete", "-ts", str(TS)], cwd=ROOT, check=True)
    missing = _fill(TS, json.loads((HERE / "es_glossary.json").read_text(encoding="utf-8")))
    subprocess.run([lrelease, str(TS), "-qm", str(QM)], cwd=ROOT, check=True)
    subprocess.run([lupdate, *sources, "-no-obsolete", "-pluralonly", "-target-language", "en",
                    "-ts", str(TS_EN)], cwd=ROOT, check=True)
    missing += [f"(en) {m}" for m in _fill(TS_EN, json.loads((HERE / "en_plurals.json").read_text(encoding="utf-8")))]
    subprocess.run([lrelease, str(TS_EN), "-qm", str(QM_EN)], cwd=ROOT, check=True)
    for source in missing:
        print(f"untranslated: {source!r}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
