"""The ``mjfast`` command line. Thin: parses options, calls the library, prints.

The only module that may import every layer. One file per command group, each registering
its commands on the one Typer ``app``; heavy imports stay inside the command functions so
``mjfast --help`` answers at once:

- ``_hands``: parse, shanten, score, score-waits, version (the kernels)
- ``_simulate``: simulate (engine + bots)
- ``_replay``: replay (log readers)
- ``_pipelines``: run (the main job), hands, study
- ``_analytics``: report, query
"""
from __future__ import annotations

import os
import sys

from ._app import app
from . import _hands, _simulate, _replay, _pipelines, _analytics  # noqa: F401,E402  (register)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``mjfast`` console script."""
    # a kernel that compiles (not in the cache yet) is announced once on stderr
    # (mjfast/kernels/_jit.py); library users are not told
    os.environ.setdefault("MJFAST_ANNOUNCE_COMPILE", "1")
    app(args=argv if argv is not None else sys.argv[1:], prog_name="mjfast")


__all__ = ["app", "main"]
