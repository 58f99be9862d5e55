"""Shared fixtures. Randomized tests print their seed: hypothesis prints the falsifying example
and the blob that reproduces it (print_blob); numpy tests take the `rng` fixture, whose seed comes
from HEDRA_SEED or is drawn fresh and printed (pytest shows it with a failure)."""
import importlib.util
import os
import pathlib
import secrets

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

REPO = pathlib.Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"


def load_example(name):
    """The module examples/python/<name>.py, imported from its path (examples are no package)."""
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / "python" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def examples(count):
    """Hypothesis examples for a property: count times HEDRA_HYPOTHESIS_SCALE (default 1)."""
    return int(count * float(os.environ.get("HEDRA_HYPOTHESIS_SCALE", "1")))


# No example database: every run is independent of earlier runs (CI starts clean anyway).
settings.register_profile("hedra", deadline=None, print_blob=True, database=None,
                          max_examples=examples(100),
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("hedra")


@pytest.fixture
def rng(request):
    seed = int(os.environ.get("HEDRA_SEED", secrets.randbits(32)))
    print(f"{request.node.name}: seed {seed} (rerun with HEDRA_SEED={seed})")
    return np.random.default_rng(seed)


@pytest.fixture
def examples_dir():
    return EXAMPLES
