"""What the window screenshots showed wrong, held right: secondary text readable (contrast),
the empty side panel saying what it is for, no blank line inside the removed-sentences list,
the settings dialog showing OCR and what an empty embedding folder means."""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette, QTextDocument
from PySide6.QtWidgets import QApplication, QCheckBox, QLineEdit

from core.paths import EMBEDDING_MODEL_NAME
from core.settings import Settings
from core.types import Answer, Citation, Claim, MatchKind, Rejected, RejectReason

AA = 4.5  # WCAG 2.1 AA minimum contrast for body text (https://www.w3.org/TR/WCAG21/#contrast-minimum)


def _luminance(c: QColor) -> float:
    def ch(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    return 0.2126 * ch(c.red()) + 0.7152 * ch(c.green()) + 0.0722 * ch(c.blue())


def contrast(a: QColor, b: QColor) -> float:
    """WCAG 2.1 contrast ratio of two colours (1–21)."""
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _dark_palette() -> QPalette:
    p = QPalette()
    for role, colour in ((QPalette.ColorRole.Window, "#353535"), (QPalette.ColorRole.WindowText, "#ffffff"),
                         (QPalette.ColorRole.Base, "#2a2a2a"), (QPalette.ColorRole.Text, "#ffffff")):
        p.setColor(role, QColor(colour))
    return p


def test_muted_color_is_readable_in_light_and_dark(qapp):
    from desktop.style import muted_color

    light = qapp.palette()
    for palette in (light, _dark_palette()):
        window = palette.color(QPalette.ColorRole.Window)
        muted = muted_color(palette)
        assert contrast(muted, window) >= AA
        # still secondary: less contrast than the normal text
        assert contrast(muted, window) < contrast(palette.color(QPalette.ColorRole.WindowText), window)
    # the colour it replaced, palette(mid) on the window, was not readable (1.8:1 in Fusion light)
    assert contrast(light.color(QPalette.ColorRole.Mid), light.color(QPalette.ColorRole.Window)) < 3


def test_secondary_labels_readable_and_follow_the_palette(qtbot):
    from desktop.citation_panel import CitationPanel
    from desktop.workspaces_panel import WorkspacesPanel

    panel, workspaces = CitationPanel(), WorkspacesPanel()
    qtbot.addWidget(panel)
    qtbot.addWidget(workspaces)
    for label in (panel.path_label, workspaces.summary_label):
        p = label.palette()
        assert contrast(p.color(QPalette.ColorRole.WindowText), p.color(QPalette.ColorRole.Window)) >= AA
    original = QApplication.palette()
    try:
        QApplication.setPalette(_dark_palette())
        qtbot.waitUntil(lambda: contrast(panel.path_label.palette().color(QPalette.ColorRole.WindowText),
                                         QColor("#353535")) >= AA, timeout=5_000)
    finally:
        QApplication.setPalette(original)


def test_empty_side_panel_says_what_it_shows(qtbot):
    from desktop.citation_panel import CitationPanel

    panel = CitationPanel()
    qtbot.addWidget(panel)
    assert panel.image_label.pixmap().isNull()
    assert "cited page appears here" in panel.image_label.text()


def _cit(quote: str) -> Citation:
    return Citation(chunk_id="d.pdf#p1-c0", doc_id="d.pdf", path="/x/d.pdf", page=1, quote=quote,
                    match=MatchKind.exact, score=100, start=0, end=len(quote))


def test_removed_sentences_list_has_no_blank_line_before_the_last_reasons(qapp):
    from desktop.render import Entry, entry_html

    answer = Answer(
        question="q", workspace="w", status="partial",
        claims=[Claim(text="Kept.", citations=[_cit("a quote that was verified")])],
        rejected=[
            Rejected(claim="First removed.", chunk_id="d.pdf#p1-c0", quote="three objectives",
                     reason=RejectReason.fact_not_in_quote),
            Rejected(claim="Last removed.", chunk_id="d.pdf#p1-c0", quote="signed in 1999",
                     reason=RejectReason.quote_not_found),
        ],
    )
    doc = QTextDocument()
    doc.setHtml(entry_html(0, Entry(answer=answer, expanded=True)))
    block = doc.begin()
    margins = {}
    while block.isValid():
        margins[block.text().split(" (")[0]] = block.blockFormat().bottomMargin()
        block = block.next()
    # Qt gave the outer list's bottom margin (12 px) to its last item, above that item's reasons
    assert margins["First removed."] == 0 and margins["Last removed."] == 0


def test_settings_dialog_shows_ocr_and_the_bundled_model(qtbot):
    from desktop.settings_dialog import SettingsDialog

    dialog = SettingsDialog(Settings(ollama_host="http://127.0.0.1:9", ocr_enabled=True, embedding_model=""))
    qtbot.addWidget(dialog)
    ocr, folder = dialog.widgets["ocr_enabled"], dialog.widgets["embedding_model"]
    assert isinstance(ocr, QCheckBox) and ocr.isChecked() and ocr.accessibleName()
    assert isinstance(folder, QLineEdit) and folder.text() == "" and EMBEDDING_MODEL_NAME in folder.placeholderText()
    ocr.setChecked(False)
    result = dialog.validate()
    assert result is not None and result.ocr_enabled is False
    with qtbot.waitSignal(dialog.models_loaded, timeout=90_000):
        pass
    p = dialog.models_status.palette()
    assert contrast(p.color(QPalette.ColorRole.WindowText), p.color(QPalette.ColorRole.Window)) >= AA
