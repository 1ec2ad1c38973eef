"""Build the Cython extensions (every ``mjfast/**/*.pyx``); the rest is in pyproject.toml."""
from pathlib import Path

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, find_packages, setup

HERE = Path(__file__).parent
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

# The top-level ``pipelines/`` folder is installed as the subpackage ``mjfast.pipelines``
# (no generic top-level ``pipelines`` package lands in site-packages).
packages = find_packages(include=["mjfast", "mjfast.*"])
packages += ["mjfast.pipelines" + p[len("pipelines"):] for p in find_packages(include=["pipelines", "pipelines.*"])]
package_dir = {"mjfast.pipelines" + p[len("pipelines"):]: p.replace(".", "/")
               for p in find_packages(include=["pipelines", "pipelines.*"])}

setup(
    packages=packages,
    package_dir=package_dir,
    ext_modules=cythonize(extensions, language_level=3,
                          compiler_directives={"boundscheck": False, "wraparound": False,
                                               "cdivision": True}),
)
