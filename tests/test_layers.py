"""The import-linter contracts in pyproject.toml (``[tool.importlinter]``) hold for the whole
package: imports point one way (``layers``), and packages talk through their public face
(``private_modules``: no import of another package's ``_private`` module)."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_lint_imports_keeps_the_contracts():
    exe = shutil.which("lint-imports") or str(Path(sys.executable).with_name("lint-imports"))
    if not Path(exe).exists():
        pytest.fail("lint-imports not found: pip install -e '.[test]' (import-linter)")
    out = subprocess.run([exe, "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "2 kept, 0 broken" in out.stdout
