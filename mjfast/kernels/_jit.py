"""How the package compiles: the ``kernel`` decorator, linked symbols, the compile notice.

``@kernel`` (for ``@njit``): a compiled function cached by :mod:`._cache` with ONE version
per function. Numba compiles a new version for every distinct argument type a call site
passes -- ``Literal[int](3)`` for a constant, ``int32`` from a state array, ``int64``
elsewhere -- so the dispatcher here (:class:`KernelDispatcher`) widens every scalar
argument type before it compiles or looks up a version: integer literals and signed
integers of any width become ``int64``, unsigned ones ``uint64`` (seeds and keys), other
literals their plain type (tuples element-wise). Calls
convert their arguments to that one signature.

``@export(symbol)`` and ``external(...)``: a function compiled ONCE, as a C callable, and
called from other compiled code through a named symbol. A plain call between compiled
functions links the callee's code into the caller and optimises it again there (the
scorers were generated anew inside every engine, bot and replay function that reached
them). A call through a symbol is an ordinary C call that LLVM cannot look into: the
callee's machine code lives in its own cache entry, callers know only its signature
(declared in :mod:`._symbols`). Arguments are flat: pointers to int64 arrays
(:func:`ptr`), read back into arrays by :func:`as_array`. Symbols are registered with
LLVM before any function that may reach them compiles or loads from the cache.

Under ``NUMBA_DISABLE_JIT=1`` everything runs as Python: ``kernel`` returns the function,
``ptr`` returns the array, an external calls the exported Python function.
"""
from __future__ import annotations

import importlib
import os
import sys

import numpy as np

from numba import types
from numba.core import config
from numba.core.registry import CPUDispatcher
from numba.core import sigutils
from numba.core.compiler_lock import global_compiler_lock

from . import _cache

DISABLED = bool(config.DISABLE_JIT)
CACHING = _cache.install_locator() if not DISABLED else False


# ---------------------------------------------------------------------------------------
# one version per function
# ---------------------------------------------------------------------------------------
def _widen(t):
    """The one argument type a compiled function is compiled for, given a call's type."""
    if isinstance(t, types.Literal):
        t = types.unliteral(t)
    if isinstance(t, types.Integer):
        return types.int64 if t.signed else types.uint64
    if isinstance(t, (types.UniTuple, types.Tuple)) and not isinstance(t, types.BaseNamedTuple):
        return types.BaseTuple.from_types([_widen(x) for x in t.types])
    return t


class KernelDispatcher(CPUDispatcher):
    """Numba's CPU dispatcher, compiling one widened signature per function and making
    sure the linked symbols its code may call are registered first."""

    def get_call_template(self, args, kws):
        args = tuple(_widen(a) for a in args)
        kws = {k: _widen(v) for k, v in kws.items()}
        return super().get_call_template(args, kws)

    def compile(self, sig):
        args, return_type = sigutils.normalize_signature(sig)
        args = tuple(_widen(a) for a in args)
        # under Numba's compiler lock, taken before the symbols: a second thread calling
        # the same function at first use would otherwise find the module's symbols
        # marked as registered while the first thread is still compiling them, and
        # compile (or load) code that calls a symbol not yet there
        with global_compiler_lock:
            ensure_symbols_for(self.py_func.__module__)
            return super().compile(args if return_type is None else return_type(*args))


def kernel(func=None, *, parallel: bool = False, inline: str = "never",
           error_model: str = "python", fastmath: bool = False, nrt: bool = True,
           forceinline: bool = False):
    """Compile ``func`` with Numba in nopython mode, nogil, cached (see the module
    docstring); ``parallel`` for ``prange`` kernels, ``inline="always"`` for helpers whose
    code should be part of each caller (small, hot), ``error_model="numpy"`` where every
    division is by a non-zero value. ``nrt=False`` for functions that only read and write
    arrays their caller owns (no allocation, no array returned): Numba then emits no
    reference counting, which otherwise costs two calls (``NRT_incref`` /
    ``NRT_decref``) per array argument and view on every call of the function -- the
    MCR scorer's helpers paid about a tenth of a hand's time for them. ``forceinline``:
    LLVM inlines the function into its callers (Numba's ``forceinline``; unlike
    ``inline="always"``, no retyping in each caller): for the MCR hand function's helpers,
    whose calls (each array argument passed field by field) cost more than their work."""
    def wrap(f):
        if DISABLED:
            return f
        opts = dict(nopython=True, nogil=True, boundscheck=False, error_model=error_model,
                    fastmath=fastmath, inline=inline)
        if parallel:
            opts["parallel"] = True
        if not nrt:
            opts["_nrt"] = False
        if forceinline:
            opts["forceinline"] = True
        disp = KernelDispatcher(py_func=f, locals={}, targetoptions=opts)
        if CACHING and _cache.in_package(f):
            # code outside the package (a test's helper, a user's kernel calling the
            # symbols) is not cached: Numba's own cache would not see the sources it
            # depends on, and could load machine code built against an older symbol
            disp.enable_caching()
        return disp
    return wrap(func) if func is not None else wrap


def python_function(fn):
    """The Python function behind a compiled function (itself when not compiled)."""
    return getattr(fn, "py_func", fn)


# ---------------------------------------------------------------------------------------
# linked symbols
# ---------------------------------------------------------------------------------------
class Symbol:
    """A function compiled once and called through its name: ``symbol`` the C name,
    ``sig`` its Numba signature (int64 pointers and scalars), ``module`` the module whose
    ``@export`` defines it; :attr:`fn` is what compiled code calls (what :func:`external`
    returns)."""

    def __init__(self, symbol: str, sig, module: str):
        self.symbol, self.sig, self.module = symbol, sig, module
        self.fn = _python_external(self) if DISABLED else types.ExternalFunction(symbol, sig)


_DECLARED: dict[str, Symbol] = {}
_REGISTERED: dict[str, object] = {}      # symbol -> the compiled C callable (kept alive)
_PY: dict[str, object] = {}              # NUMBA_DISABLE_JIT: symbol -> Python function


def external(symbol: str, sig, module: str):
    """Declare a linked symbol (in :mod:`._symbols`, the interface callers depend on) and
    return the function compiled code calls it through (a Numba ``ExternalFunction``).
    The C name carries a hash of the signature: a caller compiled against another
    signature cannot link to it by mistake."""
    import hashlib
    symbol = f"{symbol}_{hashlib.sha1(str(sig).encode()).hexdigest()[:8]}"
    s = Symbol(symbol, sig, module)
    _DECLARED[symbol] = s
    return s.fn


def _symbol_of(fn) -> Symbol:
    for s in _DECLARED.values():
        if s.fn is fn:
            return s
    raise KeyError(f"{fn!r} is not a declared symbol")


def _python_external(s: Symbol):
    def call(*args):
        if s.symbol not in _PY:
            importlib.import_module(s.module)
        return _PY[s.symbol](*args)
    call.__name__ = s.symbol
    return call


def ensure(symbol: str) -> None:
    """Compile (or load) and register ``symbol`` if it is not yet."""
    if symbol in _REGISTERED or DISABLED:
        return
    importlib.import_module(_DECLARED[symbol].module)
    if symbol not in _REGISTERED:
        raise RuntimeError(f"{_DECLARED[symbol].module} does not export {symbol}")


# the modules that declare symbols (each package's interface to its compiled units)
SYMBOL_TABLES = ("mjfast.kernels._symbols", "mjfast.engine._symbols")
_ENSURED_MODULES: set[str] = set()


def symbols_reached(module: str) -> list[str]:
    """The symbols compiled code of ``module`` may call: those its closure imports from a
    symbol table (``from ._symbols import score_mcr``; importing a table module itself
    counts as all of its symbols)."""
    wanted: list[tuple[str, str | None]] = []
    for m in _cache.module_closure(module):
        for mod, imported in _cache.imports_of(m):
            if mod in SYMBOL_TABLES:
                wanted.extend((mod, n) for n in imported) if imported else wanted.append((mod, None))
            else:
                for n in imported:
                    if f"{mod}.{n}" in SYMBOL_TABLES:
                        wanted.append((f"{mod}.{n}", None))
    found: dict[str, Symbol] = {}
    for mod, name in wanted:
        table = importlib.import_module(mod)
        objs = [getattr(table, name, None)] if name else list(vars(table).values())
        for obj in objs:
            for s in _DECLARED.values():
                if s.fn is obj:
                    found[s.symbol] = s
    return sorted(found)


def ensure_symbols_for(module: str) -> None:
    """Register the symbols ``module``'s compiled code may call (:func:`symbols_reached`)
    before a function of it compiles or loads from the cache."""
    if module in _ENSURED_MODULES or DISABLED:
        return
    _ENSURED_MODULES.add(module)
    for name in symbols_reached(module):
        if _DECLARED[name].module != module:
            ensure(name)


def export(declared):
    """Compile the decorated function once as the C callable of the symbol ``declared``
    (what :func:`external` returned) and register it with LLVM."""
    sym = _symbol_of(declared)

    def wrap(f):
        if DISABLED:
            _PY[sym.symbol] = f
            return f
        import llvmlite.binding as ll
        from numba import cfunc
        ensure_symbols_for(f.__module__)
        cf = cfunc(sym.sig, cache=CACHING, nopython=True, nogil=True, boundscheck=False,
                   error_model="numpy")(f)
        ll.add_symbol(sym.symbol, cf.address)
        _REGISTERED[sym.symbol] = cf
        return cf
    return wrap


def ptr(a):
    """The data pointer of a contiguous array, for a symbol's argument (the array itself
    when not compiled)."""
    return a


def as_array(p, n):
    """The ``n`` values at pointer ``p`` as a 1-D array (the first ``n`` values of the
    flattened array when not compiled)."""
    return p.reshape(-1)[:n]


def grid(a, dtype, rows, cols):
    """The first ``rows * cols`` values of the contiguous 1-D array ``a``, read as
    ``dtype``, as a C-contiguous (rows, cols) array: a view made in a few instructions
    (``reshape`` and ``view`` call Numba's generic helpers, tens of nanoseconds each, which
    a per-hand view pays every hand). Inputs are trusted (``a`` long enough)."""
    return a.view(dtype)[:rows * cols].reshape((rows, cols))


def recast(a, dtype, n):
    """The first ``n`` values of the contiguous 1-D array ``a`` read as ``dtype`` (a 1-D
    view, see :func:`grid`)."""
    return a.view(dtype)[:n]


def array_at(p, n):
    """The ``n`` values at pointer ``p`` as a 1-D array that owns nothing: what
    :func:`as_array` makes, in code compiled without reference counting (the scorer's
    hand function takes its arrays as pointers: a pointer is one word passed, an array
    seven or nine)."""
    return p.reshape(-1)[:n]


def widen_into(dst, at, src, n):
    """``dst[at:at + n] = src``'s first ``n`` values (flattened), each converted to
    ``dst``'s dtype (zero-extended from an unsigned type, sign-extended from a signed
    one, truncated to a narrower one): in compiled code one vector load, extension and store, where a loop was
    ``n`` scalar moves (LLVM cannot prove the two arrays apart, so it does not vectorise
    the loop). ``n`` must be a constant; inputs are trusted (``src`` has ``n`` values,
    ``dst`` room for them, both C-contiguous, integer dtypes)."""
    dst[at:at + n] = src.reshape(-1)[:n]


def sum_and_max(a, at, n):
    """``(sum, max)`` of ``a[at:at + n]`` (an int64 array), the max taken with the values
    read as unsigned and returned as uint64 (a negative value counts as larger than any
    positive one): in compiled code a few vector instructions (see :func:`widen_into`).
    ``n`` must be a constant; inputs are trusted."""
    v = a[at:at + n]
    return int(v.sum()), v.astype(np.uint64).max()


def lowest_bit(x):
    """The index of the lowest set bit of the non-zero integer ``x`` (one ``tzcnt`` in
    compiled code)."""
    x = int(x)
    return (x & -x).bit_length() - 1


if not DISABLED:
    from numba.core import cgutils  # noqa: F401
    from numba.extending import intrinsic, overload

    @intrinsic
    def _data_ptr(typingctx, arr):
        if not isinstance(arr, types.Array):
            return None
        sig = types.CPointer(arr.dtype)(arr)

        def codegen(context, builder, signature, args):
            ary = context.make_array(arr)(context, builder, args[0])
            return ary.data
        return sig, codegen

    @overload(ptr, inline="always")
    def _ptr_impl(a):
        if isinstance(a, types.Array):
            return lambda a: _data_ptr(a)

    @overload(as_array, inline="always")
    def _as_array_impl(p, n):
        if isinstance(p, types.CPointer):
            from numba import carray
            return lambda p, n: carray(p, n)

    def _dtype_of(d):
        if isinstance(d, types.NumberClass):
            return d.instance_type
        if isinstance(d, types.DType):
            return d.dtype
        return None

    def _view_codegen(src_t, out_t, ndim):
        def codegen(context, builder, signature, args):
            from numba.core.imputils import impl_ret_borrowed
            src = context.make_array(src_t)(context, builder, args[0])
            out = context.make_array(out_t)(context, builder)
            intp = context.get_value_type(types.intp)
            size = context.get_abi_sizeof(context.get_data_type(out_t.dtype))
            itemsize = context.get_constant(types.intp, size)
            dims = [context.cast(builder, v, t, types.intp)
                    for v, t in zip(args[2:], signature.args[2:])]
            strides = [itemsize] if ndim == 1 else [builder.mul(dims[1], itemsize), itemsize]
            data = builder.bitcast(src.data, context.get_data_type(out_t.dtype).as_pointer())
            context.populate_array(out, data=data, shape=cgutils.pack_array(builder, dims, intp),
                                   strides=cgutils.pack_array(builder, strides, intp),
                                   itemsize=itemsize, meminfo=src.meminfo, parent=src.parent)
            # a borrowed view: a reference for callers that count them (none under nrt=False)
            return impl_ret_borrowed(context, builder, out_t, out._getvalue())
        return codegen

    @intrinsic
    def _grid(typingctx, a, dtype, rows, cols):
        dt = _dtype_of(dtype)
        if not isinstance(a, types.Array) or a.ndim != 1 or dt is None:
            return None
        out_t = types.Array(dt, 2, "C")
        return out_t(a, dtype, rows, cols), _view_codegen(a, out_t, 2)

    @intrinsic
    def _recast(typingctx, a, dtype, n):
        dt = _dtype_of(dtype)
        if not isinstance(a, types.Array) or a.ndim != 1 or dt is None:
            return None
        out_t = types.Array(dt, 1, "C")
        return out_t(a, dtype, n), _view_codegen(a, out_t, 1)

    @intrinsic
    def _array_at(typingctx, p, n):
        if not isinstance(p, types.CPointer) or not isinstance(n, types.Integer):
            return None
        out_t = types.Array(p.dtype, 1, "C")

        def codegen(context, builder, signature, args):
            out = context.make_array(out_t)(context, builder)
            intp = context.get_value_type(types.intp)
            size = context.get_abi_sizeof(context.get_data_type(p.dtype))
            itemsize = context.get_constant(types.intp, size)
            count = context.cast(builder, args[1], signature.args[1], types.intp)
            context.populate_array(out, data=args[0], shape=cgutils.pack_array(builder, [count], intp),
                                   strides=cgutils.pack_array(builder, [itemsize], intp),
                                   itemsize=itemsize, meminfo=None, parent=None)
            return out._getvalue()
        return out_t(p, n), codegen

    @intrinsic
    def _widen_into(typingctx, dst, at, src, n):
        if (not isinstance(dst, types.Array) or not isinstance(src, types.Array)
                or not isinstance(dst.dtype, types.Integer)
                or not isinstance(src.dtype, types.Integer)
                or dst.layout != "C" or src.layout != "C"
                or not isinstance(at, types.Integer)
                or not isinstance(n, types.IntegerLiteral)):
            return None
        count = n.literal_value

        def codegen(context, builder, signature, args):
            from llvmlite import ir
            d = context.make_array(dst)(context, builder, args[0])
            s = context.make_array(src)(context, builder, args[2])
            dt = context.get_data_type(dst.dtype)
            st = context.get_data_type(src.dtype)
            offset = context.cast(builder, args[1], signature.args[1], types.intp)
            vs = builder.load(builder.bitcast(s.data, ir.VectorType(st, count).as_pointer()),
                              align=1)
            if dst.dtype.bitwidth > src.dtype.bitwidth:
                ext = builder.sext if src.dtype.signed else builder.zext
                vs = ext(vs, ir.VectorType(dt, count))
            elif dst.dtype.bitwidth < src.dtype.bitwidth:
                vs = builder.trunc(vs, ir.VectorType(dt, count))
            target = builder.gep(d.data, [offset])
            builder.store(vs, builder.bitcast(target, ir.VectorType(dt, count).as_pointer()),
                          align=1)
            return context.get_dummy_value()
        return types.none(dst, at, src, n), codegen

    @intrinsic
    def _sum_and_max(typingctx, a, at, n):
        if (not isinstance(a, types.Array) or a.dtype != types.int64 or a.layout != "C"
                or not isinstance(at, types.Integer)
                or not isinstance(n, types.IntegerLiteral)):
            return None
        count = n.literal_value
        out_t = types.Tuple((types.int64, types.uint64))

        def codegen(context, builder, signature, args):
            from llvmlite import ir
            arr = context.make_array(a)(context, builder, args[0])
            i64 = ir.IntType(64)
            vec_t = ir.VectorType(i64, count)
            offset = context.cast(builder, args[1], signature.args[1], types.intp)
            vec = builder.load(builder.bitcast(builder.gep(arr.data, [offset]),
                                               vec_t.as_pointer()), align=8)
            mod = builder.module

            def reduce(name, v):
                fn = cgutils.get_or_insert_function(
                    mod, ir.FunctionType(i64, [vec_t]), f"llvm.vector.reduce.{name}.v{count}i64")
                return builder.call(fn, [v])
            return context.make_tuple(builder, out_t, [reduce("add", vec), reduce("umax", vec)])
        return out_t(a, at, n), codegen

    # compiled code calls the intrinsics themselves: an overload would be a function
    # returning a new array, which code compiled without reference counting cannot call
    _py_grid, _py_recast, _py_array_at, _py_widen_into, _py_sum_and_max = (
        grid, recast, array_at, widen_into, sum_and_max)
    grid, recast, array_at, widen_into, sum_and_max = (
        _grid, _recast, _array_at, _widen_into, _sum_and_max)

    from numba.cpython.unsafe.numbers import trailing_zeros as _trailing_zeros
    _py_lowest_bit, lowest_bit = lowest_bit, _trailing_zeros


# ---------------------------------------------------------------------------------------
# the compile notice
# ---------------------------------------------------------------------------------------
def _announce_compiles() -> None:
    """Print once on stderr when a kernel starts compiling (the CLI asks for this by
    setting ``MJFAST_ANNOUNCE_COMPILE``; cache hits are silent)."""
    from numba.core import event

    class _Once(event.Listener):
        said = False

        def on_start(self, ev):
            if not self.said:
                self.said = True
                print("mjfast: compiling kernels that are not in the cache (a new CPU or "
                      "Numba version, or edited sources); later runs load them ...",
                      file=sys.stderr, flush=True)

        def on_end(self, ev):
            pass

    event.register("numba:compile", _Once())


if os.environ.get("MJFAST_ANNOUNCE_COMPILE") == "1" and not DISABLED:
    _announce_compiles()
