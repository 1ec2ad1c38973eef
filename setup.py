"""Build the Cython extensions (every ``mjfast/**/*.pyx``) and warm the Numba kernel cache;
the rest is in pyproject.toml.

Warm-up: after the extensions are built, ``python -m mjfast._warmup`` compiles every
kernel into ``mjfast/kernels/_jitcache/`` (in the source tree for an editable install, in
the wheel otherwise), so that a fresh install's first command loads compiled kernels
instead of compiling them (``mjfast/kernels/_cache.py``). It needs Numba in the
build environment (a build requirement). ``MJFAST_NO_WARMUP=1`` skips it; a failed
warm-up is reported and does not fail the build (the kernels then compile at first use).
"""
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).parent.resolve()
extensions = [
    Extension(
        ".".join(p.with_suffix("").relative_to(HERE).parts),
        [str(p.relative_to(HERE))],
        include_dirs=[np.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=["-O3"],
    )
    for p in sorted((HERE / "mjfast").rglob("*.pyx"))
]


class build_ext_and_warm(build_ext):
    """build_ext, then compile the Numba kernels into the cache that ships."""

    def run(self):
        super().run()
        if os.environ.get("MJFAST_NO_WARMUP"):
            print("mjfast: kernel warm-up skipped (MJFAST_NO_WARMUP)", file=sys.stderr)
            return
        editable = self.inplace or getattr(self, "editable_mode", False)
        root = HERE if editable else Path(self.build_lib).resolve()
        env = dict(os.environ,
                   PYTHONPATH=os.pathsep.join([str(root)] + [x for x in [os.environ.get("PYTHONPATH")] if x]))
        for var in ("NUMBA_DISABLE_JIT", "MJFAST_JIT_DIR"):
            env.pop(var, None)
        code = ("import sys; from mjfast.kernels import _cache as c; "
                "sys.exit(0 if c.CACHE_DIR == str(c.SHIPPED) and c.is_warm() else 1)")
        if subprocess.run([sys.executable, "-c", code], cwd=root, env=env).returncode == 0:
            print("mjfast: kernel cache already warm", file=sys.stderr)
            return
        print("mjfast: compiling the Numba kernels once, for the installed package "
              "(1-3 minutes on 2 cores; MJFAST_NO_WARMUP=1 skips) ...", file=sys.stderr, flush=True)
        res = subprocess.run([sys.executable, "-m", "mjfast._warmup"], cwd=root, env=env)
        if res.returncode != 0:
            print("mjfast: kernel warm-up incomplete; the rest compiles at first use",
                  file=sys.stderr)


# The top-level ``pipelines/`` folder is installed as the subpackage ``mjfast.pipelines``
# (no generic top-level ``pipelines`` package lands in site-packages).
packages = find_packages(include=["mjfast", "mjfast.*"])
packages += ["mjfast.pipelines" + p[len("pipelines"):] for p in find_packages(include=["pipelines", "pipelines.*"])]
package_dir = {"mjfast.pipelines" + p[len("pipelines"):]: p.replace(".", "/")
               for p in find_packages(include=["pipelines", "pipelines.*"])}

setup(
    packages=packages,
    package_dir=package_dir,
    cmdclass={"build_ext": build_ext_and_warm},
    ext_modules=cythonize(extensions, language_level=3,
                          compiler_directives={"boundscheck": False, "wraparound": False,
                                               "cdivision": True}),
)
