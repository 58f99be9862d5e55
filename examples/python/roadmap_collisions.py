"""Offline collision table of a motion-planning roadmap, on a Dask cluster.

A probabilistic roadmap (PRM) for a rigid robot among convex obstacles: random collision-free
candidate configurations (nodes, each a pose of the robot) joined to their nearest neighbours
(edges). Before planning, every edge is checked at `steps` interpolated poses against every
obstacle. That table, poses x obstacles, grows as nodes x neighbours x steps x obstacles and
outgrows one machine quickly; its rows are independent, so it is cut into chunks of consecutive
poses (one edge's poses stay together, which keeps hedra's warm start effective) and each chunk
is checked against every obstacle by hedra.collide_many on a Dask worker.

    python roadmap_collisions.py                          # a LocalCluster on this machine
    python roadmap_collisions.py --scheduler tcp://10.0.0.5:8786 --nodes 200000
    python roadmap_collisions.py --workers 4 --out table.npz

On a real cluster every worker needs the same hedra package installed (docs/PYTHON.md). The
result is the int8 table of verdict codes (0 separated, 1 touching, 2 intersecting) and which
edges are free; --check recomputes the table with collide_many on this machine and compares.
"""
import argparse
import time

import numpy as np

import hedra

# ---------------------------------------------------------------------------------------------
# The scene: a robot, obstacles and a roadmap, all from one seed.


def box_points(half):
    """The 8 corners of a box with half-extents `half`, centred on the origin."""
    signs = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], float)
    return signs * np.asarray(half, float)


def random_quaternions(rng, count):
    """Uniformly random unit quaternions (qw, qx, qy, qz)."""
    q = rng.normal(size=(count, 4))
    return q / np.linalg.norm(q, axis=1, keepdims=True)


def make_obstacles(rng, count, world):
    """count convex obstacles: hulls of 12 random points each, placed in the world box; each with
    its pose (qw, qx, qy, qz, tx, ty, tz)."""
    polytopes, poses = [], np.empty((count, 7))
    for j in range(count):
        size = rng.uniform(0.3, 1.2)
        polytopes.append(hedra.Polytope(rng.normal(scale=size, size=(12, 3))))
        poses[j, :4] = random_quaternions(rng, 1)[0]
        poses[j, 4:] = rng.uniform(0, world, size=3)
    return polytopes, poses


def nearest(xyz, k):
    """(n, k) indices of each point's k nearest other points (a k-d tree when scipy is there)."""
    k = min(k, len(xyz) - 1)
    try:
        from scipy.spatial import cKDTree
        return cKDTree(xyz).query(xyz, k + 1)[1][:, 1:].reshape(len(xyz), k)
    except ImportError:
        return np.array([np.argsort(np.linalg.norm(xyz - p, axis=1))[1:k + 1] for p in xyz],
                        dtype=np.int64).reshape(len(xyz), k)


def make_roadmap(rng, nodes, neighbours, world):
    """Node poses (nodes, 7) and undirected edges (E, 2) to each node's nearest neighbours."""
    node_poses = np.empty((nodes, 7))
    node_poses[:, :4] = random_quaternions(rng, nodes)
    node_poses[:, 4:] = rng.uniform(0, world, size=(nodes, 3))
    near = nearest(node_poses[:, 4:], neighbours)
    edges = {(min(i, int(j)), max(i, int(j))) for i, row in enumerate(near) for j in row}
    return node_poses, np.array(sorted(edges), dtype=np.int64).reshape(-1, 2)


def slerp(q0, q1, s):
    """Spherical interpolation of unit quaternions, rows of q0 and q1, at fractions s."""
    dot = np.sum(q0 * q1, axis=1)
    q1 = np.where(dot[:, None] < 0, -q1, q1)
    dot = np.abs(dot)
    theta = np.arccos(np.clip(dot, -1.0, 1.0))
    sin = np.sin(theta)
    near = sin < 1e-9
    w0 = np.where(near, 1 - s, np.sin((1 - s) * theta) / np.where(near, 1, sin))
    w1 = np.where(near, s, np.sin(s * theta) / np.where(near, 1, sin))
    q = w0[:, None] * q0 + w1[:, None] * q1
    return q / np.linalg.norm(q, axis=1, keepdims=True)


def edge_poses(node_poses, edges, steps):
    """(E * steps, 7): the poses along every edge, edge after edge (consecutive poses are close,
    which hedra's warm start uses). Step k of an edge is at fraction k / (steps - 1)."""
    s = np.tile(np.linspace(0.0, 1.0, steps), len(edges))
    i = np.repeat(edges[:, 0], steps)
    j = np.repeat(edges[:, 1], steps)
    poses = np.empty((len(s), 7))
    poses[:, :4] = slerp(node_poses[i, :4], node_poses[j, :4], s)
    poses[:, 4:] = (1 - s)[:, None] * node_poses[i, 4:] + s[:, None] * node_poses[j, 4:]
    return poses


def make_scene(seed=1, nodes=2000, neighbours=6, steps=8, obstacles=40, world=10.0):
    """Everything the job needs, as a dict."""
    rng = np.random.default_rng(seed)
    robot = hedra.Polytope(box_points((0.6, 0.15, 0.1)))
    obstacle_polytopes, obstacle_poses = make_obstacles(rng, obstacles, world)
    node_poses, edges = make_roadmap(rng, nodes, neighbours, world)
    return {"robot": robot, "obstacles": obstacle_polytopes, "obstacle_poses": obstacle_poses,
            "edges": edges, "steps": steps, "poses": edge_poses(node_poses, edges, steps)}


# ---------------------------------------------------------------------------------------------
# The table: one machine, or chunks over a Dask cluster.


def chunk_table(robot, obstacles, obstacle_poses, poses, threads=1):
    """The (len(poses), len(obstacles)) int8 verdict codes of the robot at poses against each
    obstacle at its pose: one collide_many per obstacle (the obstacle is A, fixed; the robot is
    B, moving)."""
    table = np.empty((len(poses), len(obstacles)), dtype=np.int8)
    for j, (obstacle, pose) in enumerate(zip(obstacles, obstacle_poses)):
        table[:, j] = hedra.collide_many(obstacle, robot, poses, poses_a=pose, threads=threads)
    return table


def local_table(scene, threads=0):
    """The whole table on this machine (all cores by default)."""
    return chunk_table(scene["robot"], scene["obstacles"], scene["obstacle_poses"],
                       scene["poses"], threads=threads)


def dask_table(client, scene, chunk=4096, task_threads=1):
    """The whole table on a dask.distributed cluster: one task per chunk of `chunk` consecutive
    poses. The polytopes travel once to every worker (scatter; a Polytope pickles as its
    vertices); each task receives its slice of the poses and returns its rows."""
    robot, obstacles, obstacle_poses = client.scatter(
        [scene["robot"], scene["obstacles"], scene["obstacle_poses"]], broadcast=True)
    poses = scene["poses"]
    starts = range(0, len(poses), chunk)
    futures = [client.submit(chunk_table, robot, obstacles, obstacle_poses,
                             poses[s:s + chunk], task_threads, pure=False) for s in starts]
    blocks = client.gather(futures)
    if not blocks:
        return np.empty((0, len(scene["obstacles"])), dtype=np.int8)
    return np.concatenate(blocks, axis=0)


def free_edges(table, steps):
    """Per edge: True when every interpolated pose is clear of every obstacle (separated)."""
    blocked = (table != hedra.SEPARATED).any(axis=1)
    return ~blocked.reshape(-1, steps).any(axis=1)


# ---------------------------------------------------------------------------------------------


def connect(args):
    """A client of the given scheduler, or of a new LocalCluster (closed with the client)."""
    from dask.distributed import Client, LocalCluster

    if args.scheduler:
        return Client(args.scheduler), None
    cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1,
                           processes=not args.threads_only, dashboard_address=None)
    return Client(cluster), cluster


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scheduler", help="address of a running scheduler, e.g. "
                        "tcp://10.0.0.5:8786 (default: a LocalCluster on this machine)")
    parser.add_argument("--workers", type=int, default=2, help="LocalCluster workers")
    parser.add_argument("--threads-only", action="store_true",
                        help="LocalCluster workers as threads of this process")
    parser.add_argument("--nodes", type=int, default=2000)
    parser.add_argument("--neighbours", type=int, default=6)
    parser.add_argument("--steps", type=int, default=8, help="poses checked per edge")
    parser.add_argument("--obstacles", type=int, default=40)
    parser.add_argument("--chunk", type=int, default=4096, help="poses per task")
    parser.add_argument("--task-threads", type=int, default=1,
                        help="collide_many threads inside each task (0: every core)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--check", action="store_true",
                        help="recompute with collide_many here and compare")
    parser.add_argument("--out", help="write table, poses and free edges to this .npz")
    args = parser.parse_args(argv)

    scene = make_scene(args.seed, args.nodes, args.neighbours, args.steps, args.obstacles)
    poses = scene["poses"]
    print(f"roadmap: {args.nodes} nodes, {len(scene['edges'])} edges, {len(poses)} poses x "
          f"{args.obstacles} obstacles = {len(poses) * args.obstacles} queries (seed {args.seed})")
    client, cluster = connect(args)
    try:
        t0 = time.perf_counter()
        table = dask_table(client, scene, args.chunk, args.task_threads)
        print(f"dask: {time.perf_counter() - t0:.2f} s on {len(client.scheduler_info()['workers'])}"
              " workers")
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    free = free_edges(table, args.steps)
    counts = np.bincount(table.ravel(), minlength=3)
    print(f"verdicts: {counts[0]} separated, {counts[1]} touching, {counts[2]} intersecting; "
          f"{int(free.sum())} of {len(free)} edges free")
    if args.out:
        np.savez(args.out, table=table, poses=poses, edges=scene["edges"], free=free)
    if args.check:
        same = np.array_equal(table, local_table(scene))
        print("check against collide_many on this machine:", "equal" if same else "DIFFERENT")
        return 0 if same else 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
