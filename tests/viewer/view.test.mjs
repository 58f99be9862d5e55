// Browser test of `hedra view`: pages written by the CLI are opened from disk in Debian's
// chromium (headless, WebGL through SwiftShader) driven by playwright-core. For each page:
// no console error, no network request, the verdict that `hedra collide` prints for the same
// pair, a drawing that is not blank, a step slider that changes the drawing, and motion samples
// whose verdicts `hedra collide` confirms at the same poses, with the signed distance of
// `hedra collide --depth`. Contact pages (--manifold): the signed distance, bounds and manifold
// that `hedra collide --depth --manifold` prints. Scene pages (--scene): per frame, the pairs in
// contact that `hedra scene` prints; the frame slider changes the drawing. Rounded, compound,
// time-of-impact and pair-file pages: the answers of the other commands, and pixels of the
// expected colour where the page's camera puts the shapes, the pose at the time of impact and
// the ray's hit point.
// Environment: HEDRA_CLI (the hedra executable), HEDRA_SOURCE (the source tree); optional
// HEDRA_VIEWER_SCREENSHOT: where to copy the screenshot of the first page (docs/viewer.png);
// HEDRA_VIEWER_CONTACT_SCREENSHOT, HEDRA_VIEWER_SCENE_SCREENSHOT, HEDRA_VIEWER_SWEEP_SCREENSHOT:
// those of the contact page, of the scene page and of the rounded sphere's sweep
// (docs/viewer-contact.png, docs/viewer-scene.png, docs/viewer-sweep.png).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { decodePng, countUnlike, countDifferent, pixelsNear } from './png.mjs';

const cli = process.env.HEDRA_CLI;
const src = process.env.HEDRA_SOURCE;
const chromiumPath = '/usr/bin/chromium';
const background = [0xf4, 0xf5, 0xf7]; // the page's clear colour (page.js)
// examples by relative names: the CLI runs in the source tree, so pages (and the committed
// screenshot) show the names a reader of the repository knows
const ex = (f) => `examples/${f}`;

// Pairs covering the three algorithms, every verdict, a flat polygon and both kinds of path.
const cases = [
  { name: 'cddual-intersecting', screenshot: true, path: true,
    args: ['--algo', 'cddual', ex('ellipsoid.xyz'), ex('cube.off'),
      '--translate-b', '0.9,0.3,0.2', '--rotate-b', '0.9,0.3,0.2,0.1'] },
  { name: 'gjk-intersecting', path: true,
    args: [ex('ellipsoid.xyz'), ex('cube.off'), '--translate-b', '0.9,0.3,0.2',
      '--rotate-b', '0.9,0.3,0.2,0.1'] },
  { name: 'gjk-separated',
    args: [ex('ellipsoid.xyz'), ex('cube.off'), '--translate-b', '2.2,1.2,0.6',
      '--rotate-b', '0.9,0.3,0.2,0.1'] },
  { name: 'lp-touching', args: ['--algo', 'lp', ex('cube.off'), ex('cube.off'), '--translate-b', '1,0,0'] },
  { name: 'cddual-polygon', args: ['--algo', 'cddual', ex('square.obj'), ex('tetrahedron.off')] },
];

let work, context;

before(async () => {
  assert.ok(cli && src, 'HEDRA_CLI and HEDRA_SOURCE must be set (tests/viewer/run.sh does)');
  assert.ok(existsSync(chromiumPath),
    `${chromiumPath} is missing: install Debian's chromium (bash scripts/deps.sh)`);
  work = mkdtempSync(join(tmpdir(), 'hedra-view-test-'));
  context = await chromium.launchPersistentContext(join(work, 'profile'), {
    executablePath: chromiumPath,
    headless: true,
    args: ['--headless', '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--no-first-run', '--disable-quic'],
    viewport: { width: 1200, height: 760 },
  });
});

after(async () => {
  if (context) await context.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

// `hedra collide --json` of the arguments (extra: more options, such as --depth).
function collide(args, extra = []) {
  const out = execFileSync(cli, ['collide', '--json', ...extra, ...args], { encoding: 'utf8', cwd: src });
  const answer = JSON.parse(out.trim().split('\n')[0]);
  assert.ok(answer.verdict, `hedra collide gave no verdict: ${out}`);
  return answer;
}
const collideVerdict = (args) => collide(args).verdict;

// Close to rounding: the page's numbers and the CLI's at the same pose.
function near(x, y, what) {
  assert.ok(Math.abs(x - y) <= 1e-12 * Math.max(1, Math.abs(y)), `${what}: ${x} vs ${y}`);
}

// The case's arguments with B's translation replaced.
function withTranslation(args, t) {
  const out = [];
  for (let i = 0; i < args.length; ++i) {
    if (args[i] === '--translate-b') ++i;
    else out.push(args[i]);
  }
  return [...out, '--translate-b', t.map((x) => x.toPrecision(17)).join(',')];
}

function translationOf(args) {
  const i = args.indexOf('--translate-b');
  return i < 0 ? [0, 0, 0] : args[i + 1].split(',').map(Number);
}

// Opens a page, recording console errors and every request the page makes.
async function open(file) {
  const page = await context.newPage();
  const errors = [];
  const requests = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => requests.push(r.url()));
  await page.route('**/*', (route) => {
    const url = route.request().url();
    return url === pathToFileURL(file).href ? route.continue() : route.abort();
  });
  await page.goto(pathToFileURL(file).href);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 60000 });
  return { page, errors, requests };
}

async function shot(page) {
  return decodePng(await page.locator('#view').screenshot());
}

async function setRange(page, id, value) {
  await page.$eval(id, (e, v) => { e.value = String(v); e.dispatchEvent(new Event('input')); }, value);
}

for (const c of cases) {
  test(`hedra view: ${c.name}`, async () => {
    const file = join(work, `${c.name}.html`);
    const run = spawnSync(cli, ['view', ...c.args, '-o', file], { encoding: 'utf8', cwd: src });
    assert.equal(run.status, 0, `hedra view failed: ${run.stderr}`);

    // one file: nothing to fetch, no address but the XHTML namespace name inside three.js
    const html = readFileSync(file, 'utf8');
    assert.doesNotMatch(html, /<script[^>]*\ssrc\s*=/i);
    assert.doesNotMatch(html, /<link\b/i);
    const urls = new Set(html.match(/[a-z][a-z0-9+.-]*:\/\/[^\s'"`<>)]*/gi) || []);
    assert.deepEqual([...urls].filter((u) => u !== 'http://www.w3.org/1999/xhtml'), []);

    const { page, errors, requests } = await open(file);
    const data = JSON.parse(await page.textContent('#hedra-data'));
    assert.deepEqual(errors, [], 'console errors');

    const expected = collideVerdict(c.args);
    assert.equal((await page.textContent('#verdict')).trim(), expected);

    const first = await shot(page);
    const drawn = countUnlike(first, background);
    console.log(`# ${c.name}: ${drawn} of ${first.width * first.height} pixels drawn`);
    assert.ok(drawn > 0.02 * first.width * first.height, `blank drawing: ${drawn} pixels`);
    if (c.screenshot && process.env.HEDRA_VIEWER_SCREENSHOT) {
      await page.check('#show-difference');
      await page.screenshot({ path: process.env.HEDRA_VIEWER_SCREENSHOT });
      await page.uncheck('#show-difference');
    }

    const steps = data.path.steps.length;
    if (c.path) assert.ok(steps >= 2, `expected a path of 2 steps or more, got ${steps}`);
    if (steps >= 2) {
      await page.check('#show-difference');
      await setRange(page, '#step', 0);
      const a = await shot(page);
      await setRange(page, '#step', steps - 1);
      const b = await shot(page);
      const changed = countDifferent(a, b);
      console.log(`# ${c.name}: ${steps} steps, ${changed} pixels change from the first to the last`);
      assert.ok(changed > 50, `the step slider changed ${changed} pixels`);
      assert.match(await page.textContent('#step-info'), new RegExp(`step ${steps} of ${steps}`));
      await page.uncheck('#show-difference');
    }

    // motion of B: the page's verdict at a few samples is hedra collide's at the same pose
    const samples = data.motion.samples;
    assert.equal(samples.length, 101);
    const change = samples.findIndex((s, i) => i > 0 && s.verdict !== samples[i - 1].verdict);
    const picks = [...new Set([0, samples.length - 1, change, change - 1].filter((i) => i >= 0))];
    const t0 = translationOf(c.args);
    const s = data.motion.direction;
    for (const k of picks) {
      await setRange(page, '#motion', k);
      const info = await page.textContent('#motion-info');
      const tau = samples[k].offset;
      const t = t0.map((x, i) => x + tau * s[i]);
      const verdict = collideVerdict(withTranslation(c.args, t));
      assert.equal(samples[k].verdict, verdict, `sample ${k} (offset ${tau})`);
      assert.match(info, new RegExp(`: ${verdict}.*signed distance`));
      const sd = Number(await page.getAttribute('#motion-info', 'data-signed-distance'));
      near(sd, collide(withTranslation(c.args, t), ['--depth']).signed_distance, `sample ${k}: signed distance`);
    }
    const moved = await shot(page);
    assert.ok(countDifferent(first, moved) > 50, 'moving B changed nothing');

    assert.deepEqual(errors, [], 'console errors');
    assert.deepEqual(requests, [pathToFileURL(file).href], 'the page made network requests');
    await page.close();
  });
}

// Writes a page and opens it: the checks every page passes (one file with no address, no console
// error) are made here and by finish().
async function viewPage(name, args) {
  const file = join(work, `${name}.html`);
  const run = spawnSync(cli, ['view', ...args, '-o', file], { encoding: 'utf8', cwd: src });
  assert.equal(run.status, 0, `hedra view failed: ${run.stderr}`);
  const html = readFileSync(file, 'utf8');
  assert.doesNotMatch(html, /<script[^>]*\ssrc\s*=/i);
  const urls = new Set(html.match(/[a-z][a-z0-9+.-]*:\/\/[^\s'"`<>)]*/gi) || []);
  assert.deepEqual([...urls].filter((u) => u !== 'http://www.w3.org/1999/xhtml'), []);
  const opened = await open(file);
  const data = JSON.parse(await opened.page.textContent('#hedra-data'));
  return { ...opened, file, data };
}

async function finish({ page, errors, requests, file }) {
  assert.deepEqual(errors, [], 'console errors');
  assert.deepEqual(requests, [pathToFileURL(file).href], 'the page made network requests');
  await page.close();
}

test('hedra view --manifold: the contact and the signed distance along the motion', async () => {
  const args = [ex('cube.off'), ex('tetrahedron.off'), '--translate-b', '0.5,0.2,0.1'];
  const v = await viewPage('contact', ['--manifold', ...args]);
  const want = collide(args, ['--manifold']);
  const shown = Number(await v.page.getAttribute('#signed-distance', 'data-value'));
  assert.equal(shown, want.signed_distance);
  const facts = await v.page.textContent('#contact-facts');
  assert.match(facts, /proven in/);
  assert.match(facts, new RegExp(`A ${want.feature_a.type} ${want.feature_a.index}, B ${want.feature_b.type} ${want.feature_b.index}`));
  assert.equal(await v.page.locator('#manifold li').count(), want.manifold.length);
  assert.match(await v.page.textContent('#manifold'), /separation/);
  const withContact = await shot(v.page);
  await v.page.uncheck('#show-contact');
  assert.ok(countDifferent(withContact, await shot(v.page)) > 50, 'the contact is not drawn');
  await v.page.check('#show-contact');
  // the slider at the pose as given (offset 0) shows the same signed distance
  const given = v.data.motion.samples.findIndex((s) => s.offset === 0);
  assert.ok(given >= 0, 'no motion sample at the pose as given');
  await setRange(v.page, '#motion', given);
  assert.equal(Number(await v.page.getAttribute('#motion-info', 'data-signed-distance')), want.signed_distance);
  if (process.env.HEDRA_VIEWER_CONTACT_SCREENSHOT) {
    await v.page.screenshot({ path: process.env.HEDRA_VIEWER_CONTACT_SCREENSHOT });
  }
  const sds = v.data.motion.samples.map((s) => s.contact.signed_distance);
  assert.ok(sds.some((x) => x < 0) && sds.some((x) => x > 0), 'the motion does not pass through contact');
  await finish(v);
});

// Colours of the page's drawing told apart by hue (lighting scales the channels): the red of the
// highlighted pose and of the ray's hit points (0xd62f4b), B's orange (0xe07b24), A's blue.
const isRed = ([r, g, b]) => r > g + 80 && b >= g - 5 && b < g + 60;
const isOrange = ([r, g, b]) => r > g + 30 && g > b + 30;
const isBlue = ([r, g, b]) => b > r + 40;

// The view's pixels around the point p of the world (drawn where the page's camera puts it).
async function around(page, img, p, half = 4) {
  const [x, y] = await page.evaluate((q) => window.hedraView.project(q), p);
  return pixelsNear(img, x, y, half);
}

// World points at distance d from c across the view (the camera's right and up axes).
async function across(page, c, d) {
  const { right, up } = await page.evaluate(() => window.hedraView.axes());
  return [right, up].flatMap((u) => [1, -1].map((k) => c.map((x, i) => x + k * d * u[i])));
}

test('hedra view of a rounded sphere swept into a cube, with a ray', async () => {
  const pair = [ex('cube.off'), ex('point.xyz'), '--radius-b', '0.5', '--translate-b', '2,0.5,0.5'];
  const v = await viewPage('sweep', [...pair, '--velocity-b', '-3,0,0', '--ray', '0.5,0.5,3', '--dir', '0,0,-1']);
  assert.equal((await v.page.textContent('#verdict')).trim(), collide(pair).verdict);
  const toi = v.data.toi;
  assert.ok(toi.hit, 'no time of impact');
  // the slider starts at hi of toi_bounds: the pose in contact
  assert.equal(Number(await v.page.getAttribute('#toi-info', 'data-t')), toi.toi_bounds[1]);
  assert.match(await v.page.textContent('#toi-marks'), /lo of toi_bounds at step \d+, hi at step \d+/);
  assert.match(await v.page.textContent('#toi-facts'), /toi_bounds/);
  // the witnesses (magenta) and the plane join B's place at hi to A: hidden for the colour checks
  await v.page.uncheck('#show-witnesses');
  await v.page.uncheck('#show-certificate');
  const img = await shot(v.page);
  const drawn = countUnlike(img, background);
  assert.ok(drawn > 0.02 * img.width * img.height, `blank drawing: ${drawn} pixels`);
  // B at t = 0 is a sphere of radius 0.5 about (2, 0.5, 0.5), in front of the rest: orange at
  // its centre and 0.35 from it across the view (its core is one point)
  for (const p of [[2, 0.5, 0.5], ...await across(v.page, [2, 0.5, 0.5], 0.35)]) {
    const px = await around(v.page, img, p, 1);
    assert.ok(px.some(isOrange), `no rounded B drawn at ${p}: ${JSON.stringify(px)}`);
  }
  // the pose at hi, a sphere about x = 2 - 3 hi, drawn red (looked at 0.3 from its centre, away
  // from B at t = 0, which is nearer the camera); at t = 0 the current pose is B's own
  const hiCentre = [2 - 3 * toi.toi_bounds[1] - 0.3, 0.5, 0.5];
  const redAt = async (im) => (await around(v.page, im, hiCentre, 6)).filter(isRed).length;
  const redHi = await redAt(img);
  assert.ok(redHi > 10, `the pose at the time of impact is not drawn red (${redHi} pixels)`);
  await setRange(v.page, '#toi-step', 0);
  assert.equal(Number(await v.page.getAttribute('#toi-info', 'data-t')), 0);
  const red0 = await redAt(await shot(v.page));
  console.log(`# sweep: ${redHi} red pixels at the pose of hi, ${red0} once the slider is at t = 0`);
  assert.ok(red0 < redHi / 2, `the red pose did not move (${red0} vs ${redHi} pixels)`);
  // the ray from above hits the cube's top at (0.5, 0.5, 1), t = 2: its marker is drawn red
  const ray = JSON.parse(execFileSync(cli, ['ray', '--json', ex('cube.off'), '--origin', '0.5,0.5,3',
    '--dir', '0,0,-1'], { encoding: 'utf8', cwd: src }));
  assert.deepEqual(v.data.ray.a, ray);
  assert.match(await v.page.textContent('#ray-facts'), /t = 2 at \(0\.5, 0\.5, 1\), normal \(0, 0, 1\)/);
  const hit = await around(v.page, img, ray.point, 2);
  assert.ok(hit.some(isRed), `no hit point drawn at ${ray.point}: ${JSON.stringify(hit)}`);
  if (process.env.HEDRA_VIEWER_SWEEP_SCREENSHOT) {
    await setRange(v.page, '#toi-step', v.data.toi.sweep.findIndex((s) => s.mark === 'hi'));
    await v.page.$eval('#toi-section', (e) => e.scrollIntoView());
    await v.page.screenshot({ path: process.env.HEDRA_VIEWER_SWEEP_SCREENSHOT });
  }
  await finish(v);
});

test('hedra view --compound: the pieces, the deciding pair highlighted', async () => {
  const obj = join(work, 'two.obj');
  writeFileSync(obj, 'o left\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n' +
    'o right\nv 2 0 0\nv 3 0 0\nv 2 1 0\nv 2 0 1\nf 5 7 6\nf 5 6 8\nf 5 8 7\nf 6 7 8\n');
  const args = ['--compound', obj, ex('cube.off'), '--translate-b', '2.1,0.1,0.1'];
  const v = await viewPage('compound', args);
  const want = collide(args);
  assert.equal((await v.page.textContent('#verdict')).trim(), want.verdict);
  const deciding = await v.page.$$eval('#pieces li[data-deciding="true"]', (lis) =>
    lis.map((li) => `${li.dataset.body}${li.dataset.piece}`));
  assert.deepEqual(deciding, [`A${want.pieces[0]}`, `B${want.pieces[1]}`]);
  assert.equal(await v.page.locator('#pieces li').count(), 3);
  const img = await shot(v.page);
  // piece 0 of A (not deciding) translucent blue; piece 1 of A inside B, both highlighted red
  const left = await around(v.page, img, [0.25, 0.25, 0.25], 2);
  assert.ok(left.some(isBlue), `piece 0 of A not drawn blue: ${JSON.stringify(left)}`);
  const right = await around(v.page, img, [2.25, 0.25, 0.25], 2);
  assert.ok(right.some(isRed), `the deciding pieces are not drawn red: ${JSON.stringify(right)}`);
  await finish(v);
});

test('hedra view --pair: radii and the motion line of a pair file', async () => {
  const file = join(work, 'spun.pair');
  writeFileSync(file, 'pair spun\nA 4 radius 0.1\n0 0 0\n1 0 0\n0 1 0\n0 0 1\nB 1 radius 0.3\n2.2 0.2 0.2\n' +
    'motion -2 0 0 0 0 1 2.2 0.2 0.2\n');
  const v = await viewPage('pair-file', ['--pair', file]);
  const batch = JSON.parse(execFileSync(cli, ['batch', '--json', '--distance', file],
    { encoding: 'utf8', cwd: src, stdio: ['ignore', 'pipe', 'ignore'] }).trim().split('\n')[0]);
  assert.equal((await v.page.textContent('#verdict')).trim(), batch.verdict);
  assert.match(await v.page.textContent('#facts'), /rounded by 0\.1/);
  const first = await shot(v.page);
  await setRange(v.page, '#toi-step', v.data.toi.sweep.length - 1);
  assert.ok(countDifferent(first, await shot(v.page)) > 50, 'the time slider changed nothing');
  await finish(v);
});

// `hedra scene`'s pairs of frame k, as sorted "a|b|verdict" strings.
function scenePairs(file, k) {
  const out = execFileSync(cli, ['scene', '--quiet', file], { encoding: 'utf8', cwd: src });
  return out.trim().split('\n').filter(Boolean).map(JSON.parse).filter((l) => l.frame === k)
    .map((l) => `${l.a}|${l.b}|${l.verdict}`).sort();
}

async function shownPairs(page) {
  return (await page.$$eval('#contacts li', (lis) => lis.map((li) =>
    `${li.dataset.a}|${li.dataset.b}|${li.dataset.verdict}`))).sort();
}

for (const sc of [{ name: 'crowd', file: ex('scene/crowd.scene'), frame: 1, screenshot: true },
  { name: 'small', file: 'tests/data/viewer-small.scene', frame: 0 }]) {
  test(`hedra view --scene: ${sc.name}`, async () => {
    const v = await viewPage(`scene-${sc.name}`, ['--scene', sc.file, '--frame', String(sc.frame), '--manifold']);
    const frames = v.data.frames.length;
    assert.ok(frames >= 3, `${frames} frames`);
    assert.equal(await v.page.inputValue('#frame'), String(sc.frame));
    const shots = [];
    for (const k of [sc.frame, ...[...Array(frames).keys()].filter((k) => k !== sc.frame)]) {
      if (k !== sc.frame) await setRange(v.page, '#frame', k);
      assert.deepEqual(await shownPairs(v.page), scenePairs(sc.file, k), `frame ${k}`);
      assert.match(await v.page.textContent('#frame-info'), new RegExp(`^frame ${k} of ${frames}`));
      shots[k] = await shot(v.page);
      const drawn = countUnlike(shots[k], background);
      assert.ok(drawn > 0.01 * shots[k].width * shots[k].height, `frame ${k}: blank drawing (${drawn} pixels)`);
    }
    const changed = countDifferent(shots[0], shots[frames - 1]);
    console.log(`# scene ${sc.name}: ${frames} frames, ${changed} pixels change from the first to the last`);
    assert.ok(changed > 50, `the frame slider changed ${changed} pixels`);
    if (sc.screenshot && process.env.HEDRA_VIEWER_SCENE_SCREENSHOT) {
      await setRange(v.page, '#frame', sc.frame);
      await v.page.screenshot({ path: process.env.HEDRA_VIEWER_SCENE_SCREENSHOT });
    }
    await finish(v);
  });
}

test('hedra view --scene: rounded shapes drawn as spheres', async () => {
  const file = join(work, 'balls.scene');
  writeFileSync(file, 'shape ball radius 0.5\nP 1\n0 0 0\nbody a ball 1 0 0 0 0 0 0\n' +
    'body b ball 1 0 0 0 0.8 0 0\nbody c ball 1 0 0 0 5 0 0\n');
  const v = await viewPage('scene-balls', ['--scene', file]);
  assert.deepEqual(await shownPairs(v.page), scenePairs(file, 0));
  const img = await shot(v.page);
  // each core is one point: a and b, intersecting, are red spheres; c, alone, a grey one
  for (const p of [[-0.3, 0, 0], ...await across(v.page, [-0.2, 0, 0], 0.25)]) {
    const px = await around(v.page, img, p, 1);
    assert.ok(px.some(isRed), `no red sphere drawn at ${p}: ${JSON.stringify(px)}`);
  }
  for (const p of [[5, 0, 0], ...await across(v.page, [5, 0, 0], 0.35)]) {
    const px = await around(v.page, img, p, 1);
    assert.ok(countUnlike({ ...img, pixels: px.flat(), channels: 3 }, background) > 0, `no sphere drawn at ${p}`);
  }
  await finish(v);
});

test('hedra view --scene: a bad scene file is reported with file and line, no page', () => {
  const bad = join(work, 'bad.scene');
  writeFileSync(bad, 'shape s\nP 1\n0 0 0\nbody a t 1 0 0 0 0 0 0\n');
  const file = join(work, 'bad.html');
  const run = spawnSync(cli, ['view', '--scene', bad, '-o', file], { encoding: 'utf8', cwd: src });
  const scene = spawnSync(cli, ['scene', bad], { encoding: 'utf8', cwd: src });
  assert.equal(run.status, 1);
  assert.match(run.stderr, /bad\.scene:4: /);
  assert.equal(run.stderr.replace('hedra view', 'hedra scene'), scene.stderr);
  assert.ok(!existsSync(file));
});

test('hedra view without its assets fails with a message and writes nothing', () => {
  const file = join(work, 'none.html');
  const run = spawnSync(cli, ['view', ex('cube.off'), ex('tetrahedron.off'), '-o', file],
    { encoding: 'utf8', cwd: src, env: { ...process.env, HEDRA_VIEWER_DIR: join(work, 'no-such-dir') } });
  assert.equal(run.status, 1);
  assert.match(run.stderr, /three\.bundle\.js/);
  assert.match(run.stderr, /viewer-deps\.sh/);
  assert.ok(!existsSync(file));
});
