"""Shared fixtures: where the read-only ``shared/`` data lives, seeded RNGs."""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[1]

# No test asserts a duration: hypothesis' per-example deadline (200 ms by default) and its
# too-slow health check are timing assertions that fail on a busy machine, so both are off
# for every test (speed is measured in benchmarks/).
try:
    from hypothesis import HealthCheck, settings
except ImportError:  # pragma: no cover
    pass
else:
    settings.register_profile("mjfast", deadline=None,
                              suppress_health_check=[HealthCheck.too_slow])
    settings.load_profile("mjfast")


def shared_path() -> Path:
    """``$MJFAST_SHARED``, else ``../shared`` beside the checkout, else ``./shared``."""
    env = os.environ.get("MJFAST_SHARED")
    for cand in ([Path(env)] if env else []) + [REPO.parent / "shared", REPO / "shared"]:
        if (cand / "data" / "mcr").is_dir():
            return cand
    pytest.skip("shared/ data folder not found (set MJFAST_SHARED)")


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    return shared_path()


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20261129)
