"""What the main job (``mjfast run``) can compose in this installation."""
from __future__ import annotations


def available_sources() -> list[str]:
    """The default study's sources whose library pieces are installed: ``replay``
    (:func:`mjfast.replay.replay`), ``simulate`` (the simulator's plan and shard player),
    ``hands`` (always)."""
    out = []
    try:
        from mjfast.replay import replay  # noqa: F401
        out.append("replay")
    except ImportError:
        pass
    try:
        from mjfast.simulation import make_plan  # noqa: F401
        from mjfast.simulation._simulate import play_shard  # noqa: F401
        out.append("simulate")
    except ImportError:
        pass
    out.append("hands")
    return out
