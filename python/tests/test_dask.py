"""The Dask example (examples/python/roadmap_collisions.py) on a LocalCluster of 2 worker processes:
its chunked table must equal collide_many's on one machine, entry by entry."""
import numpy as np
import pytest

from conftest import load_example

pytest.importorskip("dask.distributed")
from dask.distributed import Client, LocalCluster  # noqa: E402


@pytest.fixture(scope="module")
def roadmap():
    return load_example("roadmap_collisions")


def test_dask_table_equals_collide_many(roadmap):
    scene = roadmap.make_scene(seed=7, nodes=80, neighbours=4, steps=5, obstacles=12, world=5.0)
    local = roadmap.local_table(scene, threads=1)
    assert local.shape == (len(scene["poses"]), 12)
    counts = np.bincount(local.ravel(), minlength=3)
    assert counts[0] > 0 and counts[2] > 0, f"the scene must mix verdicts: {counts}"
    # worker processes: the polytopes travel pickled (as their vertices) and are rebuilt there
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        table = roadmap.dask_table(client, scene, chunk=100)
        assert len(client.scheduler_info()["workers"]) == 2
    np.testing.assert_array_equal(table, local)
    free = roadmap.free_edges(table, scene["steps"])
    assert free.shape == (len(scene["edges"]),) and 0 < free.sum() < len(free)


def test_command_line_check(roadmap, tmp_path, capsys):
    out = tmp_path / "table.npz"
    rc = roadmap.main(["--workers", "2", "--threads-only", "--nodes", "40", "--neighbours", "3",
                       "--steps", "4", "--obstacles", "6", "--chunk", "50", "--check",
                       "--out", str(out)])
    assert rc == 0
    assert "equal" in capsys.readouterr().out
    saved = np.load(out)
    assert saved["table"].shape == (len(saved["poses"]), 6)


def test_empty_roadmap_table(roadmap):
    scene = roadmap.make_scene(seed=1, nodes=10, neighbours=2, steps=3, obstacles=3)
    scene["poses"] = scene["poses"][:0]
    with LocalCluster(n_workers=1, processes=False, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        assert roadmap.dask_table(client, scene).shape == (0, 3)
