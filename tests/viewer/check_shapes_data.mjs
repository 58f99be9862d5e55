// Checks the data of `hedra view` pages of rounded shapes, compound bodies, the time of impact and
// rays, written by tests/cli/view.sh (each page there is its data JSON alone), against closed
// forms and against the answers of the other commands for the same input (`hedra collide`,
// `hedra cast`, `hedra ray`, `hedra batch`), which the page must repeat.
// usage: node check_shapes_data.mjs DIR
import { readFileSync } from 'node:fs';

const dir = process.argv[2];
const json = (f) => JSON.parse(readFileSync(`${dir}/${f}`, 'utf8'));
const firstLine = (f) => JSON.parse(readFileSync(`${dir}/${f}`, 'utf8').trim().split('\n')[0]);
let failures = 0, checks = 0;
function check(ok, message) {
  ++checks;
  if (!ok) {
    ++failures;
    console.error(`FAIL: ${message}`);
  }
}
const near = (x, y, tol = 1e-9) => typeof x === 'number' && Math.abs(x - y) <= tol;
const same = (x, y) => JSON.stringify(x) === JSON.stringify(y);
// the keys of another command's answer, all equal in the page's object (timings left out)
function sameKeys(page, other, what) {
  for (const [k, v] of Object.entries(other)) {
    if (k === 'ns' || k === 'name' || k === 'motion' || k === 'distance_ns') continue;
    check(same(page[k], v), `${what}: ${k} is ${JSON.stringify(page[k])}, the command gives ${JSON.stringify(v)}`);
  }
}

// Two unit cubes rounded by 0.25 each, B at x = 1.7 moved by tau along x: with x = 1.7 + tau the
// cores' signed distance is |x| - 1 (faces aligned; the overlap 1 - |x| is the shallower one
// inside), the rounded pair's |x| - 1.5.
function checkRounded() {
  const d = json('rounded.json');
  const c = firstLine('rounded.collide');
  check(d.a.radius === 0.25 && d.b.radius === 0.25, `rounded: radii ${d.a.radius}, ${d.b.radius}`);
  check(d.difference.radius === 0.5, `rounded: A - B rounded by ${d.difference.radius}, expected 0.5`);
  check(d.query.verdict === c.verdict && d.query.distance === c.distance,
    `rounded: ${d.query.verdict} ${d.query.distance} vs collide ${c.verdict} ${c.distance}`);
  check(near(d.query.distance, 0.2, 1e-12), `rounded: distance ${d.query.distance}, expected 0.2`);
  let sides = 0;
  for (const s of d.motion.samples) {
    const x = 1.7 + s.offset;
    const sd = Math.abs(x) - 1.5;
    check(near(s.contact.signed_distance, sd), `rounded: x = ${x}: signed distance ${s.contact.signed_distance}, expected ${sd}`);
    if (Math.abs(sd) > 1e-9) {
      check(s.verdict === (sd > 0 ? 'separated' : 'intersecting'), `rounded: x = ${x}: ${s.verdict}`);
      sides |= sd > 0 ? 1 : 2;
    }
  }
  check(sides === 3, 'rounded: the motion does not pass through contact');
  // the slide range reaches the rounded shapes' contact on both sides: |x| = 1.5
  const xs = d.motion.samples.map((s) => 1.7 + s.offset);
  check(Math.min(...xs) < -1.5 && Math.max(...xs) > 1.5, `rounded: the slide spans ${Math.min(...xs)}..${Math.max(...xs)}`);
}

// A sphere of radius 0.5 (one point rounded) at (2, 0.5, 0.5) moved by (-3, 0, 0) t towards the
// unit cube: it touches the face x = 1 when 2 - 3t - 0.5 = 1, t = 1/6; its signed distance at t is
// 0.5 - 3t until then. The ray from (0.5, 0.5, 3) down hits the cube's top at t = 2 with normal
// (0, 0, 1), and passes beside the sphere (at x = 2).
function checkSweep() {
  const d = json('sweep.json');
  const t = d.toi;
  const core = firstLine('sweep-core.cast'); // the cores alone: the sphere's centre meets x = 1 at 1/3
  check(near(core.toi, 1 / 3), `sweep: cast of the cores gives ${core.toi}, expected 1/3`);
  check(t.hit === true && near(t.toi, 1 / 6), `sweep: toi ${t.toi}, expected 1/6`);
  const [lo, hi] = t.toi_bounds;
  check(lo <= hi && hi - lo <= 1e-9 && lo <= 1 / 6 + 1e-12 && hi >= 1 / 6 - 1e-9, `sweep: bounds ${lo}, ${hi}`);
  check(t.toi === hi, 'sweep: toi is not hi of toi_bounds');
  check(same(t.motion_b.velocity, [-3, 0, 0]) && same(t.motion_b.centre, [2, 0.5, 0.5]), 'sweep: motion of B');
  const marks = t.sweep.filter((s) => s.mark).map((s) => s.mark);
  check(same(marks, ['lo', 'hi']), `sweep: marks ${marks}`);
  check(t.sweep.length === 23, `sweep: ${t.sweep.length} poses, expected 21 and lo, hi`);
  for (let k = 1; k < t.sweep.length; ++k) check(t.sweep[k].t >= t.sweep[k - 1].t, `sweep: pose ${k} out of order`);
  for (const s of t.sweep) {
    const x = 2 - 3 * s.t;
    check(near(s.pose_b[9], x, 1e-8) && s.pose_b[10] === 0.5 && s.pose_b[11] === 0.5, `sweep: pose of B at ${s.t}: ${s.pose_b}`);
    check(same(s.pose_a, [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]), `sweep: A moved at ${s.t}`);
    if (s.t <= 1 / 3) check(near(s.signed_distance, 0.5 - 3 * s.t), `sweep: t = ${s.t}: signed distance ${s.signed_distance}`);
  }
  const hiPose = t.sweep.find((s) => s.mark === 'hi');
  check(Math.abs(hiPose.signed_distance) <= t.eps, `sweep: signed distance ${hiPose.signed_distance} at hi, band ${t.eps}`);
  const a = d.ray.a;
  check(a.hit && !a.inside && a.t === 2 && same(a.point, [0.5, 0.5, 1]) && same(a.normal, [0, 0, 1]), `sweep: ray on A ${JSON.stringify(a)}`);
  check(d.ray.b.error !== undefined || d.ray.b.hit === false, `sweep: ray on the sphere ${JSON.stringify(d.ray.b)}`);
}

// The cube B at (3, 0, 0) turning by 1.2 t about the z axis through (3, 0, 0) and rising by 0.5 t,
// A moving by (t, 0, 0): poses in closed form; at t = 1 B's corner (3, 1) is at
// (3 - sin 1.2, cos 1.2) and A's face at x = 2, so the signed distance there is 1 - sin 1.2 > 0;
// the page's answer is hedra cast's, its rays hedra ray's.
function checkSpin() {
  const d = json('spin.json');
  sameKeys(d.toi, firstLine('spin.cast'), 'spin: toi');
  for (const s of d.toi.sweep) {
    const c = Math.cos(1.2 * s.t), n = Math.sin(1.2 * s.t);
    const want = [c, -n, 0, n, c, 0, 0, 0, 1, 3, 0, 0.5 * s.t];
    check(s.pose_b.every((x, i) => near(x, want[i], 1e-8)), `spin: pose of B at ${s.t}: ${s.pose_b}`);
    check(s.pose_a.every((x, i) => near(x, [1, 0, 0, 0, 1, 0, 0, 0, 1, s.t, 0, 0][i], 1e-8)), `spin: pose of A at ${s.t}`);
  }
  const end = d.toi.sweep[d.toi.sweep.length - 1];
  check(end.t === 1 && near(end.signed_distance, 1 - Math.sin(1.2)), `spin: signed distance ${end.signed_distance} at t = 1`);
  check(d.toi.hit === false && d.toi.toi === null, 'spin: a contact where the bodies stay apart');
  sameKeys(d.ray.a, firstLine('spin-a.ray'), 'spin: ray on A');
  sameKeys(d.ray.b, firstLine('spin-b.ray'), 'spin: ray on B');
  check(d.ray.a.t === 1 && d.ray.b.t === 4, `spin: ray t ${d.ray.a.t}, ${d.ray.b.t}, expected 1 and 4`);
}

// Rays along x at height y (z = 0.5) towards the unit cube rounded by 0.25: at y = 0.5 the first
// point is (-0.25, 0.5, 0.5), t = 0.75; at y = 1.1 the ray grazes the rounding (0.1 < 0.25 above
// the top face), at y = 1.5 it passes 0.5 above: no hit. The page gives that answer or an error,
// never the hull's own hit (t = 1 at y = 0.5, no hit at y = 1.1).
function checkRoundedRays() {
  const hitAt = { 0.5: [0.75, [-0.25, 0.5, 0.5]], 1.1: [1 - Math.sqrt(0.25 ** 2 - 0.1 ** 2), null] };
  for (const y of ['0.5', '1.1', '1.5']) {
    const a = json(`rray-${y}.json`).ray.a;
    if (y === '1.5') {
      check(a.hit === false, `rounded ray at y = ${y}: ${JSON.stringify(a)}`);
    } else if (a.error === undefined) {
      const [t, p] = hitAt[y];
      check(a.hit && near(a.t, t, 1e-9) && (!p || p.every((x, i) => near(a.point[i], x, 1e-9))),
        `rounded ray at y = ${y}: ${JSON.stringify(a)}, expected t = ${t}`);
    } else {
      check(/does not hold for the rounded shape/.test(a.error), `rounded ray at y = ${y}: ${a.error}`);
    }
  }
}

// A pair file with radii and a motion line: the same time of impact as `hedra batch --toi`.
function checkPairFile() {
  const d = json('spun.json');
  check(d.a.radius === 0.1 && d.b.radius === 0.3, `pair file: radii ${d.a.radius}, ${d.b.radius}`);
  check(same(d.names, ['spun:A', 'spun:B']), `pair file: names ${d.names}`);
  sameKeys(d.toi, firstLine('spun.batch'), 'pair file: toi');
  check(same(d.toi.motion_b.spin, [0, 0, 1]) && same(d.toi.motion_b.centre, [2.2, 0.2, 0.2]), 'pair file: motion line');
}

// Two tetrahedra {x, y, z >= 0, x + y + z <= 1} at x = 0 and x = 2, and the unit cube at
// (2.1, 0.1, 0.1): the cube's corner (2.1, 0.1, 0.1) lies in the second tetrahedron, the first
// ends at x = 1. Intersecting, decided by pieces [1, 0], as `hedra collide --compound` says.
function checkCompound(file, other, what) {
  const d = json(file);
  check(d.kind === 'compound', `${what}: kind ${d.kind}`);
  check(d.a.pieces.length === 2 && d.b.pieces.length === 1, `${what}: pieces ${d.a.pieces.length}, ${d.b.pieces.length}`);
  const xs = d.a.pieces.map((p) => Math.min(...p.vertices.map((v) => v[0])));
  check(same(xs, [0, 2]), `${what}: pieces start at x = ${xs}`);
  const bmin = [0, 1, 2].map((i) => Math.min(...d.b.pieces[0].vertices.map((v) => v[i])));
  check(bmin.every((x, i) => near(x, [2.1, 0.1, 0.1][i], 1e-12)), `${what}: B at ${bmin}`);
  check(d.query.verdict === 'intersecting' && same(d.query.pieces, [1, 0]), `${what}: ${d.query.verdict} by ${d.query.pieces}`);
  sameKeys(d.query, firstLine(other), what);
}

// A scene of spheres (one point rounded by 0.5) at centres c: bodies i, j are in contact exactly
// when |c_i - c_j| <= 1, with the signed distance |c_i - c_j| - 1 (closed form).
function checkBalls() {
  const d = json('balls.json');
  check(d.shapes.length === 1 && d.shapes[0].polytope.radius === 0.5, 'balls: the shape is not rounded by 0.5');
  d.frames.forEach((f, k) => {
    const at = new Map(f.poses.map((p) => [p[0], p.slice(10, 13)]));
    const want = [];
    for (const [i, ci] of at) for (const [j, cj] of at) {
      if (i < j && Math.hypot(...ci.map((x, m) => x - cj[m])) < 1 - 1e-9) want.push(`${i}|${j}`);
    }
    const got = f.contacts.map((c) => `${Math.min(c.a, c.b)}|${Math.max(c.a, c.b)}`).sort();
    check(same(got, want.sort()), `balls frame ${k}: pairs ${got}, expected ${want}`);
    for (const c of f.contacts) {
      const dist = Math.hypot(...at.get(c.a).map((x, m) => x - at.get(c.b)[m]));
      check(near(c.contact.signed_distance, dist - 1), `balls frame ${k}: ${c.a}-${c.b} signed distance ${c.contact.signed_distance}, expected ${dist - 1}`);
    }
  });
  check(d.frames.length === 2 && d.frames[1].contacts.length === 2, 'balls: frame 1 should hold two pairs');
}

checkRounded();
checkBalls();
checkSweep();
checkSpin();
checkPairFile();
checkRoundedRays();
checkCompound('compound.json', 'compound.collide', 'compound');
checkCompound('pieces.json', 'pieces.batch', 'compound pair file');
console.log(`${checks - failures} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
