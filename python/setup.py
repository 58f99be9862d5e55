"""Builds hedra._hedra, the C extension over libhedra.

The static library comes from a CMake build of the repository, found in this order:
- HEDRA_BUILD_DIR when set (a relative path is taken from the repository root): it must hold
  libhedra.a and the generated include/hedra/version.h, e.g. after
      cmake -S .. -B ../build -DCMAKE_BUILD_TYPE=Release && cmake --build ../build --target hedra_static
- else build/ at the repository root when it holds them (scripts/setup.sh's build);
- else a build of its own: this file runs CMake on the repository into build-python-lib/ (the
  library alone: no tests, no viewer bundle), so that `pip install ./python` works from a bare
  checkout with CMake, a C compiler and Qhull installed.
HEDRA_SOURCE_DIR names the repository (default: the parent of this directory), whose include/
holds the public headers.
"""
import glob
import os
import re

import subprocess

import numpy
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_DIR = os.path.abspath(os.environ.get("HEDRA_SOURCE_DIR", os.path.join(HERE, "..")))
OWN_BUILD_DIR = os.path.join(SOURCE_DIR, "build-python-lib")


def build_dir():
    """The CMake build directory to link against (see the module docstring)."""
    if os.environ.get("HEDRA_BUILD_DIR"):
        # a relative HEDRA_BUILD_DIR is taken from the repository root (pip runs this in python/)
        return os.path.join(SOURCE_DIR, os.environ["HEDRA_BUILD_DIR"])
    default = os.path.join(SOURCE_DIR, "build")
    return default if find_library(default) else OWN_BUILD_DIR


C_SOURCES = ["module.c", "errors.c", "args.c", "pose.c", "polytope.c", "result.c", "cache.c",
             "query.c", "batch.c", "pool.c", "scene.c", "contact.c", "shapes.c", "motion.c",
             "compound.c"]


def project_version():
    """The version of CMakeLists.txt's project() call: it lives there only."""
    with open(os.path.join(SOURCE_DIR, "CMakeLists.txt"), encoding="utf-8") as f:
        match = re.search(r"project\(hedra\s+VERSION\s+([0-9.]+)", f.read())
    if match is None:
        raise SystemExit("hedra: no project(hedra VERSION ...) in CMakeLists.txt")
    return match.group(1)


def find_library(directory):
    """libhedra.a in a build directory (in any subdirectory: build/src/ today), or None."""
    # the newest if there are several (a build directory reused across layouts of the sources)
    found = sorted(glob.glob(os.path.join(directory, "**", "libhedra.a"), recursive=True),
                   key=os.path.getmtime, reverse=True)
    if not found or not os.path.exists(os.path.join(directory, "include", "hedra", "version.h")):
        return None
    return found[0]


def cmake_build(directory):
    """Configures (once) and builds libhedra.a into directory; stops with CMake's error."""
    commands = [["cmake", "--build", directory, "--target", "hedra_static", "-j2"]]
    if not os.path.exists(os.path.join(directory, "CMakeCache.txt")):
        commands.insert(0, ["cmake", "-S", SOURCE_DIR, "-B", directory,
                            "-DCMAKE_BUILD_TYPE=Release", "-DBUILD_TESTING=OFF",
                            "-DHEDRA_VIEWER=OFF"])
    for command in commands:
        try:
            subprocess.run(command, check=True)
        except (OSError, subprocess.CalledProcessError) as exc:
            raise SystemExit(f"hedra: building libhedra failed ({' '.join(command)}): {exc}\n"
                             "it needs cmake, a C compiler and Qhull (libqhull-dev); or set "
                             "HEDRA_BUILD_DIR to a CMake build directory holding libhedra.a")


def static_library():
    """libhedra.a to link: an existing build's, or one built here (see the module docstring)."""
    found = find_library(BUILD_DIR)
    if found is None and BUILD_DIR == OWN_BUILD_DIR:
        cmake_build(BUILD_DIR)
        found = find_library(BUILD_DIR)
    if found is None:
        raise SystemExit(
            f"hedra: no libhedra.a (or include/hedra/version.h) in {BUILD_DIR}; build it with\n"
            f"  cmake -S {SOURCE_DIR} -B {BUILD_DIR} && cmake --build {BUILD_DIR} "
            "--target hedra_static\nor unset HEDRA_BUILD_DIR to let this file build it")
    return found


BUILD_DIR = build_dir()


class BuildWithLibrary(build_ext):
    """Finds or builds libhedra.a when the extension is built, not at every setup.py call."""

    def run(self):
        library = static_library()
        for ext in self.extensions:
            ext.extra_objects = [library]
            ext.depends = ext.depends + [library]
        super().run()


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
    # libhedra's symbols stay inside the extension: only PyInit__hedra is exported
    extra_link_args=["-Wl,--exclude-libs,ALL"],
    libraries=["qhull_r", "m", "pthread"],
    # rebuild when the library, a header or this file changes, not only when a source of ours does
    depends=[os.path.join("src", "hedra_py.h"), os.path.abspath(__file__),
             os.path.join(SOURCE_DIR, "src", "scene", "pool.h")] + HEADERS,
)

# setuptools' own build files go to the CMake build directory too: one per libhedra build, so
# that switching HEDRA_BUILD_DIR never links a stale object against another library
setup(version=project_version(), ext_modules=[extension], cmdclass={"build_ext": BuildWithLibrary},
      options={"build": {"build_base": os.path.join(BUILD_DIR, "python")}})
