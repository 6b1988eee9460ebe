"""The window's command line accepts every value of the "Answer with" setting (tryout 5, finding 13)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from desktop.app import build_parser


@pytest.mark.parametrize("backend", ["auto", "ollama", "passages", "embedded"])
def test_backend_option_takes_every_value_of_the_setting(backend: str) -> None:
    assert build_parser().parse_args(["--backend", backend]).backend == backend


def test_an_unknown_backend_is_refused_naming_passages() -> None:
    out = subprocess.run([sys.executable, "-m", "desktop", "--backend", "gpt"], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 2
    assert "'passages'" in out.stderr and "'embedded'" in out.stderr
