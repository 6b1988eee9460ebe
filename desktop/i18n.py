"""UI language: Qt translators for Verbatim's strings (``resources/translations/verbatim_<lang>.qm``).

English is the source language (no file). The language comes from the
``ui_language`` setting, or from the system locale when it is ``"system"``.
``pyside6-lupdate`` extracts the strings into ``verbatim_<lang>.ts`` and
``pyside6-lrelease`` compiles the ``.qm`` (``resources/translations/update.py``).
English plural forms come from ``verbatim_en.qm``, installed for English too.
Installing another language at run time makes Qt send ``LanguageChange`` to every
widget; each re-translates itself (``retranslate``), so no restart is needed.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from core.paths import resource_path

LANGUAGES = ("en", "es")

_installed: list[QTranslator] = []


def resolve_language(setting: str) -> str:
    """``"en"`` or ``"es"`` for a ``ui_language`` setting (``"system"`` reads the system locale)."""
    if setting in LANGUAGES:
        return setting
    name = QLocale.system().name().split("_")[0]
    return name if name in LANGUAGES else "en"


def install_translator(app: QCoreApplication, setting: str = "system") -> str:
    """Install the translators for ``setting`` on ``app`` (replacing earlier ones); returns the language used.

    Also loads Qt's own translations (standard dialog buttons) when Qt ships them.
    """
    for t in _installed:
        app.removeTranslator(t)
    _installed.clear()
    lang = resolve_language(setting)
    if lang == "en":
        # English is the source language; its file holds only the plural forms of "%n" strings.
        plurals = QTranslator(app)
        if plurals.load(str(resource_path("translations", "verbatim_en.qm"))):
            app.installTranslator(plurals)
            _installed.append(plurals)
        return lang
    ours = QTranslator(app)
    if ours.load(str(resource_path("translations", f"verbatim_{lang}.qm"))):
        app.installTranslator(ours)
        _installed.append(ours)
    qt = QTranslator(app)
    if qt.load(f"qtbase_{lang}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(qt)
        _installed.append(qt)
    return lang


def ensure_translator(app: QCoreApplication) -> None:
    """Install the English plural forms when no language was installed yet (a window created
    without :func:`install_translator`: tests, scripts), so "%n document(s)" reads "1 document"."""
    if not _installed:
        install_translator(app, "en")
