"""CLI commands: see mjfast/cli/__init__.py (filled by its issue)."""
from __future__ import annotations

from ._app import app  # noqa: F401
