"""Builds hedra._hedra, the C extension over libhedra.

The static library comes from the CMake build of the repository:
    cmake -S .. -B ../build -DCMAKE_BUILD_TYPE=Release && cmake --build ../build --target hedra_static
HEDRA_BUILD_DIR names another build directory (default: build; a relative path is taken from the
repository root); it must hold libhedra.a and the generated include/hedra/version.h. HEDRA_SOURCE_DIR names the repository
(default: the parent of this directory), whose include/ holds the public headers.
"""
import glob
import os
import re

import numpy
from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_DIR = os.path.abspath(os.environ.get("HEDRA_SOURCE_DIR", os.path.join(HERE, "..")))
# a relative HEDRA_BUILD_DIR is taken from the repository root (pip runs this file in python/)
BUILD_DIR = os.path.join(SOURCE_DIR, os.environ.get("HEDRA_BUILD_DIR", "build"))
C_SOURCES = ["module.c", "errors.c", "args.c", "pose.c", "polytope.c", "result.c", "cache.c",
             "query.c", "batch.c", "pool.c", "scene.c", "contact.c"]


def project_version():
    """The version of CMakeLists.txt's project() call: it lives there only."""
    with open(os.path.join(SOURCE_DIR, "CMakeLists.txt"), encoding="utf-8") as f:
        match = re.search(r"project\(hedra\s+VERSION\s+([0-9.]+)", f.read())
    if match is None:
        raise SystemExit("hedra: no project(hedra VERSION ...) in CMakeLists.txt")
    return match.group(1)


def static_library():
    """libhedra.a in the build directory (in any subdirectory: build/src/ today)."""
    # the newest if there are several (a build directory reused across layouts of the sources)
    found = sorted(glob.glob(os.path.join(BUILD_DIR, "**", "libhedra.a"), recursive=True),
                   key=os.path.getmtime, reverse=True)
    if not found or not os.path.exists(os.path.join(BUILD_DIR, "include", "hedra", "version.h")):
        raise SystemExit(
            f"hedra: no libhedra.a (or include/hedra/version.h) in {BUILD_DIR}; build it with\n"
            f"  cmake -S {SOURCE_DIR} -B {BUILD_DIR} && cmake --build {BUILD_DIR} "
            "--target hedra_static\nor set HEDRA_BUILD_DIR to a build directory that has it")
    return found[0]


LIBRARY = static_library()
HEADERS = glob.glob(os.path.join(SOURCE_DIR, "include", "hedra", "*.h"))

extension = Extension(
    "hedra._hedra",
    sources=[os.path.join("src", name) for name in C_SOURCES],
    # src/ for the library's internal thread pool (scene/pool.h), which the batches share
    include_dirs=[os.path.join(SOURCE_DIR, "include"), os.path.join(BUILD_DIR, "include"),
                  os.path.join(SOURCE_DIR, "src")],
    # numpy's and Python's headers as system headers: the warnings below apply to our code only
    extra_compile_args=["-isystem", numpy.get_include(), "-std=gnu11", "-fvisibility=hidden",
                        "-Wall", "-Wextra", "-Wshadow", "-Wstrict-prototypes",
                        "-Wmissing-prototypes", "-Werror"],
    extra_objects=[LIBRARY],
    # libhedra's symbols stay inside the extension: only PyInit__hedra is exported
    extra_link_args=["-Wl,--exclude-libs,ALL"],
    libraries=["qhull_r", "m", "pthread"],
    # rebuild when the library, a header or this file changes, not only when a source of ours does
    depends=[LIBRARY, os.path.join("src", "hedra_py.h"), os.path.abspath(__file__),
             os.path.join(SOURCE_DIR, "src", "scene", "pool.h")] + HEADERS,
)

# setuptools' own build files go to the CMake build directory too: one per libhedra build, so
# that switching HEDRA_BUILD_DIR never links a stale object against another library
setup(version=project_version(), ext_modules=[extension],
      options={"build": {"build_base": os.path.join(BUILD_DIR, "python")}})
