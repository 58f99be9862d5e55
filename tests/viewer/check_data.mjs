// Checks the data of `hedra view` pages written by tests/cli_view.sh (the page there is the data
// JSON alone) against answers that do not come from the code under test: closed forms for two
// unit cubes, and the face planes of the hull of A - B for the points of the algorithms' paths.
// usage: node check_data.mjs DIR
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

const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

// Face planes n.x = d of a polytope given by vertices and face loops (Newell's normal).
function planes(p) {
  return p.faces.map((loop) => {
    const n = [0, 0, 0];
    const c = [0, 0, 0];
    for (let k = 0; k < loop.length; ++k) {
      const u = p.vertices[loop[k]], v = p.vertices[loop[(k + 1) % loop.length]];
      n[0] += (u[1] - v[1]) * (u[2] + v[2]);
      n[1] += (u[2] - v[2]) * (u[0] + v[0]);
      n[2] += (u[0] - v[0]) * (u[1] + v[1]);
      for (let i = 0; i < 3; ++i) c[i] += u[i] / loop.length;
    }
    const len = Math.hypot(...n);
    const unit = n.map((x) => x / len);
    return { n: unit, d: dot(unit, c) };
  });
}

// max over the faces of n.p - d: 0 on the boundary, negative inside.
const excess = (pl, p) => Math.max(...pl.map((f) => dot(f.n, p) - f.d));

function checkCubes(algo) {
  const data = json(`cubes-${algo}.json`);
  const collide = firstLine(`cubes-${algo}.collide`);
  check(data.query.verdict === collide.verdict, `${algo} cubes: verdict ${data.query.verdict} vs collide ${collide.verdict}`);
  check(data.query.certificate_ok === true, `${algo} cubes: certificate not checked ok`);
  // A = [0,1]^3, B = A + (0, 0.5, 0): A - B = [-1,1] x [-1.5,0.5] x [-1,1]
  const got = data.difference.vertices.map((v) => v.join(',')).sort();
  const want = [];
  for (const x of [-1, 1]) for (const y of [-1.5, 0.5]) for (const z of [-1, 1]) want.push([x, y, z].join(','));
  check(JSON.stringify(got) === JSON.stringify(want.sort()), `${algo} cubes: hull of A - B is ${got}`);
  // B moved by tau along x: separated by |tau| - 1 beyond 1, intersecting within
  const m = data.motion;
  check(m.samples.length === 101 && m.direction.join() === '1,0,0', `${algo} cubes: motion ${m.direction}`);
  for (const s of m.samples) {
    const gap = Math.abs(s.offset) - 1;
    if (Math.abs(gap) < 1e-9) continue;
    const verdict = gap > 0 ? 'separated' : 'intersecting';
    check(s.verdict === verdict, `${algo} cubes: offset ${s.offset} gave ${s.verdict}, expected ${verdict}`);
    if (gap > 0) check(Math.abs(s.distance - gap) <= 1e-12, `${algo} cubes: offset ${s.offset} distance ${s.distance}, expected ${gap}`);
    // signed distance: |tau| - 1 apart; overlapping by 1 - |tau| along x and 0.5 along y, the
    // depth is the smaller overlap
    const sd = gap >= 0 ? gap : -Math.min(-gap, 0.5);
    check(s.contact && Math.abs(s.contact.signed_distance - sd) <= 1e-9,
      `${algo} cubes: offset ${s.offset} signed distance ${s.contact && s.contact.signed_distance}, expected ${sd}`);
  }
  check(m.samples.some((s) => s.offset === 0), `${algo} cubes: no sample at the pose as given`);
  const seen = new Set(m.samples.map((s) => s.verdict));
  check(seen.has('separated') && seen.has('intersecting'), `${algo} cubes: the motion does not pass through contact`);
}

function checkEllipsoid(algo) {
  const data = json(`ell-${algo}.json`);
  const collide = firstLine(`ell-${algo}.collide`);
  check(data.query.verdict === collide.verdict, `${algo} ellipsoid: verdict ${data.query.verdict} vs collide ${collide.verdict}`);
  const pl = planes(data.difference);
  const scale = Math.max(...data.difference.vertices.flat().map(Math.abs));
  const tol = 1e-7 * scale;
  const steps = data.path.steps;
  if (algo === 'cddual') {
    check(steps.length >= 2, `cddual ellipsoid: ${steps.length} path steps`);
    for (const [k, s] of steps.entries()) {
      check(s.polygon.length >= 3, `cddual step ${k}: polygon of ${s.polygon.length} points`);
      for (const p of s.polygon) {
        const e = excess(pl, p);
        check(Math.abs(e) <= tol, `cddual step ${k}: point ${p} is ${e} off the boundary of A - B`);
      }
    }
  } else if (algo === 'gjk') {
    check(steps.length >= 1, `gjk ellipsoid: ${steps.length} path steps`);
    for (const [k, s] of steps.entries()) {
      check(s.points.length >= 1 && s.points.length <= 4, `gjk step ${k}: ${s.points.length} points`);
      for (const p of s.points) {
        check(excess(pl, p) <= tol, `gjk step ${k}: point ${p} outside A - B`);
      }
    }
  } else {
    check(steps.length === 0 && data.path.note.length > 0, 'lp: no path and a note saying why');
  }
}

// --depth --manifold on two unit cubes, B moved by (0.5, 0.5, 0): depth 0.5 along x or y (both
// attain it), the normal one of the axes; the manifold's points lie in the overlap box
// [0.5, 1] x [0.5, 1] x [0, 1] with separation -0.5.
function checkContact() {
  const data = json('contact.json');
  const collide = firstLine('contact.collide');
  const c = data.contact;
  check(c && c.signed_distance === collide.signed_distance, `contact: ${c && c.signed_distance} vs collide ${collide.signed_distance}`);
  check(Math.abs(c.signed_distance + 0.5) <= 1e-12, `contact: signed distance ${c.signed_distance}, expected -0.5`);
  check(c.bounds[0] <= -0.5 && -0.5 <= c.bounds[1], `contact: bounds ${c.bounds} miss -0.5`);
  const n = c.normal.map(Math.abs).sort();
  check(n.join() === '0,0,1', `contact: normal ${c.normal} is not an axis`);
  check(c.manifold.length === collide.manifold.length && c.manifold.length >= 1, `contact: ${c.manifold.length} manifold points`);
  for (const p of c.manifold) {
    const [x, y, z] = p.point;
    const inside = x >= 0.5 - 1e-9 && x <= 1 + 1e-9 && y >= 0.5 - 1e-9 && y <= 1 + 1e-9 && z >= -1e-9 && z <= 1 + 1e-9;
    check(inside && Math.abs(p.separation + 0.5) <= 1e-9, `contact: manifold point ${p.point} separation ${p.separation}`);
  }
  const given = data.motion.samples.find((s) => s.offset === 0);
  check(given && given.contact.signed_distance === collide.signed_distance, 'contact: the sample at the pose as given');
  check(data.motion.samples.every((s) => Array.isArray(s.contact.manifold)), 'contact: samples without a manifold');
}

// A scene page against `hedra scene` (the pairs of every frame) and the scene file itself read
// here (the bodies present in each frame, the translation of each pose).
function checkScene(name) {
  const data = json(`${name}.json`);
  const lines = readFileSync(`${dir}/${name}.scene-out`, 'utf8').trim().split('\n').filter(Boolean).map(JSON.parse);
  const text = readFileSync(`${dir}/${name}.scene`, 'utf8').split('\n');
  const present = new Map();
  const frames = [];
  const snapshot = () => frames.push(new Map(present));
  for (const raw of text) {
    const f = raw.replace(/#.*/, '').trim().split(/\s+/);
    if (f[0] === 'frame') snapshot();
    else if (f[0] === 'body') present.set(f[1], f.slice(7, 10).map(Number));
    else if (f[0] === 'move') present.set(f[1], f.slice(6, 9).map(Number));
    else if (f[0] === 'remove') present.delete(f[1]);
  }
  snapshot();
  check(data.frames.length === frames.length, `${name}: ${data.frames.length} frames, the file has ${frames.length}`);
  for (const [k, frame] of data.frames.entries()) {
    const want = lines.filter((l) => l.frame === k).map((l) => `${l.a}|${l.b}|${l.verdict}`).sort();
    const got = frame.contacts.map((c) => `${data.bodies[c.a].name}|${data.bodies[c.b].name}|${c.verdict}`).sort();
    check(JSON.stringify(got) === JSON.stringify(want), `${name} frame ${k}: contacts ${got.length} vs hedra scene ${want.length}`);
    const file = frames[k] || new Map();
    check(frame.poses.length === file.size, `${name} frame ${k}: ${frame.poses.length} bodies, the file has ${file.size}`);
    for (const p of frame.poses) {
      const t = file.get(data.bodies[p[0]].name);
      const ok = t && t.every((x, i) => Math.abs(x - p[10 + i]) <= 1e-8 * Math.max(1, Math.abs(x)));
      check(ok, `${name} frame ${k}: body ${data.bodies[p[0]].name} at ${p.slice(10)}, the file says ${t}`);
    }
    for (const c of frame.contacts) {
      if (!data.depth) continue;
      const sd = c.contact.signed_distance;
      check(c.verdict === 'touching' ? Math.abs(sd) <= 1e-9 : sd < 0, `${name} frame ${k}: ${c.verdict} pair with signed distance ${sd}`);
    }
  }
}

for (const algo of ['gjk', 'cddual', 'lp']) {
  checkCubes(algo);
  checkEllipsoid(algo);
}
checkContact();
checkScene('crowd');
checkScene('small');
console.log(`${checks - failures} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
