"""``verbatim-desktop --backend`` accepts every value the README lists under "Answer with" (tryout 5 #13f: it
refused ``passages``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from desktop.app import build_parser

README = Path(__file__).resolve().parents[2] / "README.md"


def _readme_backends() -> set[str]:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## What answers:"):]
    section = section[:section.index("\n## ", 1)]
    return set(re.findall(r"^- `(\w+)`", section, flags=re.M))


def test_backend_values_are_the_readmes():
    assert _readme_backends() == {"auto", "ollama", "passages", "embedded"}
    parser = build_parser()
    for value in sorted(_readme_backends()):
        assert parser.parse_args(["--backend", value]).backend == value
    assert parser.parse_args([]).backend is None
    with pytest.raises(SystemExit):
        parser.parse_args(["--backend", "gpt"])
