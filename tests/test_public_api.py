"""The public names keep their identity: every submodule imported, then every name in
``mjfast.__all__`` called twice, and each is still the same object with the same result.
No module shares a public function's name; ``Waits`` is a NamedTuple."""
from __future__ import annotations

import importlib
import pkgutil
import sys
import types

import numpy as np
import pytest

import mjfast

MCR_COMPLETE = "1112345678999m5m"
MCR_READY = "1112345678999m"

# one valid call per public name: () -> result
RECIPES = {
    "Hand": lambda: mjfast.Hand((0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8), winning_tile=4),
    "HandBatch": lambda: mjfast.HandBatch.empty(2),
    "Meld": lambda: mjfast.Meld(mjfast.MeldKind.PUNG, 27),
    "MeldKind": lambda: mjfast.MeldKind(1),
    "Situation": lambda: mjfast.Situation(seat=1, self_drawn=True),
    "hands_to_counts": lambda: mjfast.hands_to_counts([MCR_COMPLETE, MCR_READY]),
    "MjfastError": lambda: str(mjfast.MjfastError("x")),
    "RULESETS": None,
    "get_rules": lambda: mjfast.get_rules("two-player"),
    "parse_hand": lambda: mjfast.parse_hand(MCR_COMPLETE, self_drawn=True),
    "parse_batch": lambda: mjfast.parse_batch([MCR_COMPLETE, MCR_READY]),
    "format_hand": lambda: mjfast.format_hand(mjfast.parse_hand(MCR_COMPLETE), "botzone"),
    "decompose": lambda: [d.key() for d in mjfast.decompose(mjfast.parse_hand(MCR_COMPLETE))],
    "decompose_batch": lambda: mjfast.decompose_batch(mjfast.hands_to_counts([MCR_COMPLETE])),
    "Division": lambda: mjfast.Division("seven_pairs", pairs=(0, 1, 2, 3, 4, 5, 6)),
    "shanten": lambda: mjfast.shanten([MCR_COMPLETE, MCR_READY]),
    "waits": lambda: mjfast.waits(MCR_READY),
    "Waits": lambda: mjfast.Waits(np.zeros(34, bool), np.zeros(34, np.int8), 1),
    "score": lambda: mjfast.score(MCR_COMPLETE, self_drawn=True).to_dict(),
    "score_batch": lambda: mjfast.score_batch(mjfast.parse_batch([MCR_COMPLETE])),
    "score_table": lambda: mjfast.score_table(__import__("polars").DataFrame({"hand": [MCR_COMPLETE, "x"]})),
    "score_waits": lambda: mjfast.score_waits(MCR_READY),
    "ScoreResult": lambda: mjfast.ScoreResult("mcr", 8, True, 0, (), {"E": 0}),
    "random_hands": lambda: mjfast.random_hands(3, seed=7),
}


def _same(a, b) -> bool:
    """Results of two identical calls are equal (arrays, dataclasses, frames...)."""
    if isinstance(a, np.ndarray):
        return np.array_equal(a, b)
    if hasattr(a, "equals"):                         # polars
        return a.equals(b)
    if hasattr(a, "__dataclass_fields__"):
        return all(_same(getattr(a, f), getattr(b, f)) for f in a.__dataclass_fields__)
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


def _import_everything() -> list[str]:
    names = []
    for mod in pkgutil.walk_packages(mjfast.__path__, "mjfast."):
        importlib.import_module(mod.name)
        names.append(mod.name)
    pipelines = importlib.import_module("mjfast.pipelines")   # the repo's pipelines/
    for mod in pkgutil.walk_packages(pipelines.__path__, "mjfast.pipelines."):
        importlib.import_module(mod.name)
        names.append(mod.name)
    return names


def test_every_public_name_has_a_recipe():
    assert set(RECIPES) == set(mjfast.__all__)


def test_names_keep_identity_after_importing_every_submodule_and_calling_twice():
    before = {name: getattr(mjfast, name) for name in mjfast.__all__}
    imported = _import_everything()
    assert "mjfast._decompose" in imported and "mjfast.cli" in imported
    for name in mjfast.__all__:
        assert getattr(mjfast, name) is before[name], name
        assert not isinstance(getattr(mjfast, name), types.ModuleType), name
    for name, recipe in RECIPES.items():
        if recipe is None:
            continue
        first, second = recipe(), recipe()
        assert _same(first, second), name
        assert getattr(mjfast, name) is before[name], name
    # the functions are plain functions defined in private modules (get_rules: in the
    # rule registry, a module of another name; it moves with the rule profile)
    for name, obj in before.items():
        if isinstance(obj, types.FunctionType) and name != "get_rules":
            assert obj.__module__.split(".")[-1].startswith("_"), (name, obj.__module__)
    # the lazy re-exports (PEP 562) are stored on first use: plain attributes from then on
    for name in mjfast.__all__:
        assert vars(mjfast)[name] is before[name], name


def test_no_module_shares_a_public_name():
    _import_everything()
    for modname, module in list(sys.modules.items()):
        if not (modname == "mjfast" or modname.startswith("mjfast.")) or module is None:
            continue
        for name in getattr(module, "__all__", ()):
            sub = sys.modules.get(f"{modname}.{name}")
            # a public name is never also a submodule, unless it IS that (public) module
            assert sub is None or getattr(module, name) is sub, f"{modname}.{name} is a module"
        assert type(module) is types.ModuleType, f"{modname} is a {type(module)} (callable module?)"


def test_waits_is_a_named_tuple():
    w = mjfast.waits(MCR_READY)
    mask, live = w
    assert isinstance(w, tuple) and w._fields == ("mask", "live")
    assert w[0] is w.mask and w[1] is w.live and w[-1] is live and mask is w.mask
    assert w.shanten == 0 and int(w.ukeire) == int(live.sum())
    with pytest.raises(AttributeError):
        w.shanten = 3
    import pickle
    w2 = pickle.loads(pickle.dumps(w))
    assert np.array_equal(w2.mask, w.mask) and w2.shanten == w.shanten


def test_hand_methods_reach_the_upper_layers():
    h = mjfast.parse_hand(MCR_COMPLETE)
    assert h.shanten() == -1 and h.decompose() and str(h) == h.to_string("mcr")
    assert int(mjfast.parse_hand(MCR_READY).waits().mask.sum()) == 9


def test_hand_methods_work_in_a_fresh_process():
    """The re-exports load lazily: a Hand's methods import the layer they need (a fresh
    interpreter that touched only ``Hand`` and ``parse_hand``)."""
    import subprocess
    code = ("import mjfast; h = mjfast.parse_hand(%r); "
            "print(h.shanten(), len(h.decompose()) > 0, str(h) == h.to_string('mcr'), "
            "int(mjfast.parse_hand(%r).waits().mask.sum()))" % (MCR_COMPLETE, MCR_READY))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["-1", "True", "True", "9"]


def test_one_threads_meaning():
    from mjfast import _threads
    from mjfast.errors import ArgumentError
    assert _threads.resolve(None) == _threads.pool_size()
    assert _threads.resolve(1) == 1 and _threads.resolve(10**6) == _threads.pool_size()
    for bad in (0, -1, 1.5, "2", True):
        with pytest.raises(ArgumentError):
            _threads.resolve(bad)
    b = mjfast.parse_batch([MCR_COMPLETE] * 3)
    for fn, arg in ((mjfast.score_batch, b), (mjfast.shanten, b.counts), (mjfast.waits, MCR_READY)):
        with pytest.raises(ArgumentError):
            fn(arg, threads=0)
    assert np.array_equal(mjfast.score_batch(b, threads=1).totals, mjfast.score_batch(b).totals)


def test_command_line_help_imports_no_kernels():
    """``mjfast --help`` loads Typer and the command modules, not Numba or NumPy (the
    re-exports of ``mjfast/__init__`` load on first use)."""
    import subprocess
    code = ("import sys, mjfast, mjfast.cli; print(sorted(m for m in ('numba', 'numpy', "
            "'polars', 'pyarrow', 'mjfast.kernels') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout
    help_text = subprocess.run([sys.executable, "-m", "mjfast", "--help"], capture_output=True,
                               text=True, check=True).stdout
    assert "simulate" in help_text and "run" in help_text


def test_import_is_cheap():
    """``import mjfast`` loads the API, not the table and CLI stacks."""
    import subprocess
    code = ("import sys, mjfast; print(sorted(m for m in ('polars', 'pyarrow', 'typer', "
            "'mjfast.scoring.mcr', 'mjfast.cli') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout
