"""The README's two opening commands and CI stay in sync."""
from __future__ import annotations

import re

from conftest import REPO


def _opening_commands() -> list[str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```bash\n(.*?)```", text, re.S).group(1)
    return [line.strip() for line in block.strip().splitlines()]


def test_readme_opens_with_install_and_test_commands():
    first, second = _opening_commands()[:2]
    assert first.startswith("pip install") and "mjfast" in first
    assert second.startswith("pip install") and "pytest" in second


def test_ci_runs_the_readme_test_command():
    test_cmd = _opening_commands()[1].split("&&", 1)[1].strip()
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert ci[-1].strip() == test_cmd
