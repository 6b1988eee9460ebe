"""Settings dialog generated from the pydantic :class:`core.settings.Settings` model.

Each field listed in :data:`FIELDS` that the model has gets a widget chosen from
its JSON schema (integer → spin box with the field's bounds, number → double
spin box, enum → combo box, string → line edit), its description as tooltip.
Values are validated by building a new ``Settings``; pydantic's messages are
shown next to the field names. The Ollama model list is fetched in a pool
thread (:meth:`core.generate.OllamaBackend.list_models`).
"""

from __future__ import annotations

from pydantic import ValidationError
from PySide6.QtCore import QThreadPool, Signal, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from core.paths import EMBEDDING_MODEL_NAME
from core.settings import Settings
from desktop.style import mute
from desktop.workers import Jobs

# Fields shown, in order. Names a branch does not have (yet) are skipped.
FIELDS = (
    "backend", "ollama_host", "ollama_model", "embedding_model", "top_k", "fuzzy_threshold",
    "ocr_enabled", "ocr_languages", "ocr_language", "watch_folders", "ui_language",
)


# Seconds to wait for Ollama's model list: a host that does not answer fast is reported, not waited for.
_LIST_TIMEOUT_S = 5.0


def _list_models(settings: Settings):
    """Worker: what the host's ``/api/tags`` says (:class:`core.ollama_check.OllamaDiagnosis`)."""
    from core.ollama_check import diagnose

    return diagnose(settings.ollama_host, "", timeout_s=_LIST_TIMEOUT_S)


class SettingsDialog(QDialog):
    """Edit and validate settings; :attr:`result_settings` holds the accepted value.

    Signals:
        models_loaded(list): the Ollama model names arrived (possibly empty).
    """

    models_loaded = Signal(list)

    def __init__(self, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Settings"))
        self.settings = settings
        self.result_settings: Settings | None = None
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._jobs = Jobs(self, pool=self._pool)
        self.widgets: dict[str, QWidget] = {}
        schema = Settings.model_json_schema()["properties"]
        form = QFormLayout()
        labels = {
            "backend": self.tr("Answer with"),
            "ollama_host": self.tr("Ollama host"),
            "ollama_model": self.tr("Ollama model"),
            "embedding_model": self.tr("Embedding model folder"),
            "top_k": self.tr("Passages given to the model (top-k)"),
            "fuzzy_threshold": self.tr("Fuzzy match threshold (0–100)"),
            "ocr_languages": self.tr("OCR languages"),
            "ocr_language": self.tr("OCR languages"),
            "ocr_enabled": self.tr("Read scanned pages with OCR"),
            "ui_language": self.tr("Window language"),
            "watch_folders": self.tr("Re-index when files in the folders change"),
        }
        for name in FIELDS:
            if name not in Settings.model_fields:
                continue
            prop = schema.get(name, {})
            widget = self._make_widget(name, prop, getattr(settings, name))
            widget.setToolTip(prop.get("description", ""))
            widget.setAccessibleName(labels.get(name, name))
            self.widgets[name] = widget
            field_widget = widget
            if name == "ollama_model":
                self.refresh_models_button = QPushButton(self.tr("Refresh"))
                self.refresh_models_button.clicked.connect(self.fetch_models)
                field_widget = _with_button(widget, self.refresh_models_button)
            elif name == "embedding_model":
                if isinstance(widget, QLineEdit):  # empty means the bundled model: say so, not a blank box
                    widget.setPlaceholderText(self.tr("Bundled model: {name} (English)").format(name=EMBEDDING_MODEL_NAME))
                browse = QPushButton(self.tr("Browse…"))
                browse.clicked.connect(self._browse_model)
                field_widget = _with_button(widget, browse)
            form.addRow(labels.get(name, name), field_widget)
        self.models_status = QLabel("")
        self.models_status.setWordWrap(True)  # a long Ollama error must not widen the dialog past the screen
        mute(self.models_status)
        self.error_label = QLabel("")
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet("color:#b00020;")
        self.error_label.setAccessibleName(self.tr("Validation errors"))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.models_status)
        layout.addWidget(self.error_label)
        layout.addWidget(buttons)
        if "ollama_model" in self.widgets:
            self.fetch_models()

    def _enum_labels(self) -> dict[str, str]:
        """Readable labels for the settings' fixed choices (the stored values stay codes)."""
        return {
            "system": self.tr("System language"), "en": "English", "es": "Español",
            "auto": self.tr("Automatic (the Ollama model when it answers, else passages)"),
            "ollama": self.tr("Ollama model"), "passages": self.tr("Passages only (no model)"),
            "embedded": self.tr("Embedded demo model"),
            "off": self.tr("Off"), "judge": self.tr("The Ollama model as a judge"),
        }

    def _make_widget(self, name: str, prop: dict, value) -> QWidget:
        kind = prop.get("type")
        if "enum" in prop:
            w = QComboBox()
            labels = self._enum_labels()
            for v in prop["enum"]:
                w.addItem(labels.get(str(v), str(v)), str(v))  # shown label, stored value
            w.setCurrentIndex(max(0, w.findData(str(value))))
            return w
        if name == "ollama_model":
            w = QComboBox()
            w.setEditable(True)
            w.setCurrentText(str(value))
            return w
        if kind == "boolean":
            w = QCheckBox()
            w.setChecked(bool(value))
            return w
        if kind == "integer":
            w = QSpinBox()
            w.setRange(int(prop.get("minimum", prop.get("exclusiveMinimum", -1) + 1)), int(prop.get("maximum", 10**9)))
            w.setValue(int(value))
            return w
        if kind == "number":
            w = QDoubleSpinBox()
            w.setDecimals(1)
            w.setRange(float(prop.get("minimum", prop.get("exclusiveMinimum", 0.0))), float(prop.get("maximum", 1e9)))
            w.setValue(float(value))
            return w
        w = QLineEdit(str(value))
        return w

    def values(self) -> dict:
        """The widgets' current values by field name."""
        out = {}
        for name, w in self.widgets.items():
            if isinstance(w, QCheckBox):
                out[name] = w.isChecked()
            elif isinstance(w, QComboBox):
                data = w.currentData()
                out[name] = data if isinstance(data, str) else w.currentText().strip()
            elif isinstance(w, (QSpinBox, QDoubleSpinBox)):
                out[name] = w.value()
            else:
                out[name] = w.text().strip()
        return out

    def validate(self) -> Settings | None:
        """A new ``Settings`` with the edited values, or ``None`` with the errors shown."""
        try:
            result = self.settings.model_copy(update={}, deep=True)
            for name, value in self.values().items():
                setattr(result, name, value)  # validate_assignment: each field checked
        except ValidationError as exc:
            lines = []
            for err in exc.errors():
                field = ".".join(str(p) for p in err["loc"]) or "value"
                lines.append(f"{field}: {err['msg']}")
            self.error_label.setText("\n".join(lines))
            return None
        host = str(getattr(result, "ollama_host", ""))
        if host and not host.startswith(("http://", "https://")):
            self.error_label.setText(self.tr("Ollama host must start with http:// or https://"))
            return None
        self.error_label.setText("")
        return result

    def accept(self) -> None:
        """Close only if the values are valid."""
        result = self.validate()
        if result is None:
            return
        self.result_settings = result
        super().accept()

    def fetch_models(self) -> None:
        """Ask Ollama (in a pool thread) for its installed models, using the host typed in."""
        host_widget = self.widgets.get("ollama_host")
        probe = self.settings.model_copy()
        if isinstance(host_widget, QLineEdit) and host_widget.text().startswith(("http://", "https://")):
            probe.ollama_host = host_widget.text().strip()
        self.models_status.setText(self.tr("Asking Ollama for its models…"))
        self._jobs.call(lambda: _list_models(probe), self._on_models, self._on_models_error)

    @Slot(object)
    def _on_models(self, diagnosis) -> None:
        """Fill the model list, or say what is wrong with the host: its address, the HTTP status or
        network error, and the fix that fits a local or a remote host (issue #24)."""
        from desktop.ollama_texts import models_text

        models = list(diagnosis.models)
        self.diagnosis = diagnosis
        if diagnosis.kind in ("ok", "no_model"):
            combo = self.widgets["ollama_model"]
            assert isinstance(combo, QComboBox)
            current = combo.currentText()
            combo.clear()
            combo.addItems(models)
            combo.setCurrentText(current)
        text = models_text(diagnosis)
        self.models_status.setText(text)
        self.models_status.setToolTip(text)
        self.models_loaded.emit(models)

    @Slot(object)
    def _on_models_error(self, exc: Exception) -> None:
        self.models_status.setText(self.tr("Ollama not reachable; type a model name."))
        self.models_status.setToolTip(str(exc))  # the full error, without widening the dialog
        self.models_loaded.emit([])

    def _browse_model(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Embedding model folder"))
        if folder:
            w = self.widgets["embedding_model"]
            assert isinstance(w, QLineEdit)
            w.setText(folder)

    def done(self, result: int) -> None:
        self._jobs.cancel_all()
        super().done(result)


def _with_button(field: QWidget, button: QPushButton) -> QWidget:
    """``field`` stretched, with ``button`` at its right, in one form row."""
    row = QWidget()
    hl = QHBoxLayout(row)
    hl.setContentsMargins(0, 0, 0, 0)
    hl.addWidget(field, 1)
    hl.addWidget(button)
    return row
