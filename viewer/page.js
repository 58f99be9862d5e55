// The `hedra view` page: draws the data that the CLI computed (docs/VIEWER.md) with three.js.
// Nothing is computed here but drawing: verdicts, certificates, hulls, paths and the motion
// samples all come from hedra. THREE is the classic bundle inlined before this script.
(function () {
  'use strict';

  const data = JSON.parse(document.getElementById('hedra-data').textContent);
  const colors = {
    a: 0x2f6fde, b: 0xe07b24, m: 0x2aa56b, plane: 0x8a4fd6, point: 0x111111,
    witness: 0xc21d8f, current: 0xd62f4b, visited: 0xf2b33d, origin: 0x111111,
    normal: 0x0e8a8a, depth: 0x0e8a8a, manifold: 0x064e4e,
    free: 0x9aa7bd, touching: 0xe0a020, intersecting: 0xd62f4b, ray: 0x5b3fd6, hit: 0xd62f4b,
  };
  // outline colours of the pieces of a compound body, in turn
  const palette = [0x1b9e77, 0xd95f02, 0x7570b3, 0xe7298a, 0x66a61e, 0xe6ab02, 0xa6761d, 0x17becf];
  const $ = (id) => document.getElementById(id);

  // ---- formatting ----
  function num(x) {
    if (x === null || x === undefined) return 'n/a';
    if (x === 0) return '0';
    const a = Math.abs(x);
    return (a >= 1e-4 && a < 1e6) ? String(Number(x.toPrecision(6))) : x.toExponential(4);
  }
  const vec = (v) => '(' + v.map(num).join(', ') + ')';

  // ---- scene ----
  const container = $('view');
  const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  renderer.setSize(container.clientWidth, container.clientHeight);
  renderer.setClearColor(0xf4f5f7, 1);
  container.appendChild(renderer.domElement);
  const scene = new THREE.Scene();
  const camera = new THREE.PerspectiveCamera(40, container.clientWidth / container.clientHeight, 1e-3, 1e3);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x8890a0, 2.2));
  const sun = new THREE.DirectionalLight(0xffffff, 1.6);
  camera.add(sun);
  sun.position.set(0.5, 1, 0.8);
  scene.add(camera);
  const controls = new THREE.OrbitControls(camera, renderer.domElement);
  controls.addEventListener('change', render);

  function render() {
    renderer.render(scene, camera);
  }

  // ---- geometry helpers ----
  function darker(color) {
    return new THREE.Color(color).multiplyScalar(0.55);
  }

  function triangles(vertices, faces) {
    const pos = [];
    for (const loop of faces) {
      for (let k = 1; k + 1 < loop.length; ++k) {
        pos.push(...vertices[loop[0]], ...vertices[loop[k]], ...vertices[loop[k + 1]]);
      }
    }
    return pos;
  }

  function meshOf(positions, color, opacity) {
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.Float32BufferAttribute(positions, 3));
    g.computeVertexNormals();
    const m = new THREE.MeshLambertMaterial({
      color, side: THREE.DoubleSide, transparent: true, opacity, depthWrite: opacity >= 0.99,
      polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1,
    });
    return new THREE.Mesh(g, m);
  }

  function linesOf(positions, color) {
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.Float32BufferAttribute(positions, 3));
    return new THREE.LineSegments(g, new THREE.LineBasicMaterial({ color }));
  }

  function pointsOf(points, color, size) {
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.Float32BufferAttribute(points.flat(), 3));
    const m = new THREE.PointsMaterial({ color, size, sizeAttenuation: false });
    return new THREE.Points(g, m);
  }

  // A polytope as faces, edges and vertices; group.userData.mesh is the face mesh (or null).
  function polytopeObject(p, color) {
    const group = new THREE.Group();
    const tri = triangles(p.vertices, p.faces);
    group.userData.mesh = null;
    if (tri.length > 0) {
      group.userData.mesh = meshOf(tri, color, 0.9);
      group.add(group.userData.mesh);
    }
    const seg = [];
    for (const [i, j] of p.edges) seg.push(...p.vertices[i], ...p.vertices[j]);
    if (seg.length > 0) group.add(linesOf(seg, darker(color)));
    group.add(pointsOf(p.vertices, darker(color), 5));
    return group;
  }

  // The outward unit normal of a face loop (Newell's method; loops are counter-clockwise from
  // outside).
  function loopNormal(vertices, loop) {
    const n = new THREE.Vector3();
    for (let k = 0; k < loop.length; ++k) {
      const u = vertices[loop[k]], v = vertices[loop[(k + 1) % loop.length]];
      n.x += (u[1] - v[1]) * (u[2] + v[2]);
      n.y += (u[2] - v[2]) * (u[0] + v[0]);
      n.z += (u[0] - v[0]) * (u[1] + v[1]);
    }
    return n.normalize();
  }

  // The surface of a rounded polytope (the core plus a ball of radius r, docs/algorithms/
  // rounded.md) as one geometry: every face moved out by r along its normal (both sides of a
  // flat polygon), a cylinder of radius r on every edge and a sphere of radius r on every vertex.
  const roundedCache = new Map();
  function roundedGeometry(p) {
    if (roundedCache.has(p)) return roundedCache.get(p);
    const r = p.radius;
    const pos = [], nor = [];
    const take = (geometry, matrix) => {
      const g = geometry.toNonIndexed().applyMatrix4(matrix);
      const a = g.attributes.position.array, b = g.attributes.normal.array;
      for (let i = 0; i < a.length; ++i) { pos.push(a[i]); nor.push(b[i]); }
    };
    const sides = p.dimension === 2 ? [1, -1] : [1];
    for (const loop of p.faces) {
      const n = loopNormal(p.vertices, loop);
      for (const side of sides) {
        const off = n.clone().multiplyScalar(side * r);
        const at = (i) => new THREE.Vector3(...p.vertices[loop[i]]).add(off).toArray();
        for (let k = 1; k + 1 < loop.length; ++k) {
          pos.push(...at(0), ...(side > 0 ? at(k) : at(k + 1)), ...(side > 0 ? at(k + 1) : at(k)));
          for (let c = 0; c < 3; ++c) nor.push(side * n.x, side * n.y, side * n.z);
        }
      }
    }
    const ball = new THREE.SphereGeometry(r, 24, 16);
    for (const v of p.vertices) take(ball, new THREE.Matrix4().makeTranslation(...v));
    for (const [i, j] of p.edges) {
      const a = new THREE.Vector3(...p.vertices[i]), d = new THREE.Vector3(...p.vertices[j]).sub(a);
      const len = d.length();
      if (!(len > 0)) continue;
      const q = new THREE.Quaternion().setFromUnitVectors(new THREE.Vector3(0, 1, 0), d.clone().normalize());
      const m = new THREE.Matrix4().compose(a.addScaledVector(d, 0.5), q, new THREE.Vector3(1, 1, 1));
      take(new THREE.CylinderGeometry(r, r, len, 24, 1, true), m);
    }
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.Float32BufferAttribute(pos, 3));
    g.setAttribute('normal', new THREE.Float32BufferAttribute(nor, 3));
    roundedCache.set(p, g);
    return g;
  }

  // A rounded polytope: its rounded surface, and the core's edges and vertices inside.
  function roundedObject(p, color) {
    const group = new THREE.Group();
    const m = new THREE.MeshLambertMaterial({
      color, side: THREE.DoubleSide, transparent: true, opacity: 0.9, depthWrite: false,
    });
    group.userData.mesh = new THREE.Mesh(roundedGeometry(p), m);
    group.add(group.userData.mesh);
    const seg = [];
    for (const [i, j] of p.edges) seg.push(...p.vertices[i], ...p.vertices[j]);
    if (seg.length > 0) group.add(linesOf(seg, darker(color)));
    group.add(pointsOf(p.vertices, darker(color), 5));
    return group;
  }

  // A polytope of the data, rounded when it has a radius.
  const drawnPolytope = (p, color) => (p.radius > 0 ? roundedObject(p, color) : polytopeObject(p, color));

  // Expands box by the polytope, its radius included.
  function expandBy(box, p) {
    const r = p.radius || 0;
    for (const v of p.vertices) {
      box.expandByPoint(new THREE.Vector3(v[0] - r, v[1] - r, v[2] - r));
      box.expandByPoint(new THREE.Vector3(v[0] + r, v[1] + r, v[2] + r));
    }
    return box;
  }

  // The 4x4 matrix of a pose of the data: 12 numbers, the row-major rotation then the translation.
  function poseMatrix(p) {
    return new THREE.Matrix4().set(p[0], p[1], p[2], p[9], p[3], p[4], p[5], p[10],
      p[6], p[7], p[8], p[11], 0, 0, 0, 1);
  }

  function setOpacity(group, opacity) {
    const mesh = group.userData.mesh;
    if (mesh) {
      mesh.material.opacity = opacity;
      mesh.material.depthWrite = opacity >= 0.99;
    }
  }

  let size = 1; // the size of the drawing: markers and segments are scaled by it

  // Frames the target; the camera looks at focus from outside when given (the part of A - B
  // where the path ends), else across the direction `across` when given (A and B side by side).
  function frame(target, focus, across) {
    const sphere = new THREE.Box3().setFromObject(target).getBoundingSphere(new THREE.Sphere());
    const r = Math.max(sphere.radius, 1e-9);
    const dist = r / Math.sin((camera.fov * Math.PI) / 360) * 1.25;
    const dir = new THREE.Vector3(0.9, 0.6, 1.3).normalize();
    const toFocus = focus ? focus.clone().sub(sphere.center) : new THREE.Vector3();
    if (toFocus.length() > 1e-6 * r) {
      dir.multiplyScalar(0.6).add(toFocus.normalize()).normalize();
    } else if (across) {
      const s = new THREE.Vector3(...across);
      dir.addScaledVector(s, -0.8 * dir.dot(s)).normalize();
    }
    controls.target.copy(sphere.center);
    camera.position.copy(sphere.center).addScaledVector(dir, dist);
    camera.near = dist * 1e-3;
    camera.far = dist * 100;
    camera.updateProjectionMatrix();
    controls.update();
  }

  function sphereMarker(p, color, radius) {
    const m = new THREE.Mesh(new THREE.SphereGeometry(radius, 20, 14),
      new THREE.MeshLambertMaterial({ color }));
    m.position.set(...p);
    return m;
  }

  // A segment as a thin cylinder (lines are one pixel wide in WebGL).
  function segment(p, q, color, radius) {
    const a = new THREE.Vector3(...p);
    const d = new THREE.Vector3(...q).sub(a);
    const len = d.length();
    if (!(len > 0)) return new THREE.Group();
    const r = radius || size * 0.0025;
    const m = new THREE.Mesh(new THREE.CylinderGeometry(r, r, len, 10),
      new THREE.MeshLambertMaterial({ color }));
    m.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), d.clone().normalize());
    m.position.copy(a).addScaledVector(d, 0.5);
    return m;
  }

  // An arrow from p along the unit d, of length len: a cylinder of the radius and a cone.
  function arrow(p, d, len, color, radius) {
    const group = new THREE.Group();
    const dir = new THREE.Vector3(...d).normalize();
    const head = len * 0.22;
    const end = new THREE.Vector3(...p).addScaledVector(dir, len - head);
    group.add(segment(p, end.toArray(), color, radius));
    const cone = new THREE.Mesh(new THREE.ConeGeometry(radius * 3, head, 16),
      new THREE.MeshLambertMaterial({ color }));
    cone.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), dir);
    cone.position.copy(end).addScaledVector(dir, head * 0.5);
    group.add(cone);
    return group;
  }

  // A contact (hd_signed_distance, hd_contact_manifold) into layer: the normal as an arrow from
  // witness_a, both witnesses, the depth segment of an overlap, the manifold points.
  function drawContact(layer, c, marker) {
    if (!c || c.signed_distance === undefined || c.signed_distance === null) return;
    layer.add(arrow(c.witness_a, c.normal, marker * 18, colors.normal, marker * 0.3),
      sphereMarker(c.witness_a, colors.normal, marker), sphereMarker(c.witness_b, colors.normal, marker));
    if (c.signed_distance < 0) layer.add(segment(c.witness_a, c.witness_b, colors.depth, marker * 0.45));
    for (const m of c.manifold || []) layer.add(sphereMarker(m.point, colors.manifold, marker * 1.3));
  }

  function addRows(dl, rows) {
    for (const [k, v] of rows) {
      const dt = document.createElement('dt');
      const dd = document.createElement('dd');
      dt.textContent = k;
      dd.textContent = v;
      dl.append(dt, dd);
    }
  }

  // ---- the page of a pair ----
  function pairView() {
    // ---- bounds of the scene, for the camera and the size of markers ----
    const box = expandBy(expandBy(new THREE.Box3(), data.a), data.b);
    const shapeCentre = box.getCenter(new THREE.Vector3());
    size = box.getSize(new THREE.Vector3()).length() || 1;
    const diffBox = new THREE.Box3().expandByPoint(new THREE.Vector3(0, 0, 0));
    if (data.difference.vertices) expandBy(diffBox, data.difference);
    size = Math.max(size, diffBox.getSize(new THREE.Vector3()).length() * 0.5);
    camera.near = size * 1e-3;
    camera.far = size * 100;

    // ---- the objects ----
    const shapes = new THREE.Group();
    const objA = drawnPolytope(data.a, colors.a);
    const objB = drawnPolytope(data.b, colors.b);
    shapes.add(objA, objB);
    scene.add(shapes);

    const difference = new THREE.Group();
    const diffBody = new THREE.Group();
    if (data.difference.vertices) {
      diffBody.add(drawnPolytope(data.difference, colors.m));
      setOpacity(diffBody.children[0], 0.35);
    }
    difference.add(diffBody);
    const axes = new THREE.AxesHelper(size * 0.15);
    difference.add(axes, sphereMarker([0, 0, 0], colors.origin, size * 0.008));
    const pathLayer = new THREE.Group();
    difference.add(pathLayer);
    difference.visible = false;
    scene.add(difference);

    const query = data.query;
    const cert = query.certificate || {};
    const certLayer = new THREE.Group();
    if (cert.normal) {
      const n = new THREE.Vector3(...cert.normal).normalize();
      const c = shapeCentre.clone().addScaledVector(n, cert.offset - n.dot(shapeCentre));
      const quad = new THREE.Mesh(new THREE.PlaneGeometry(size * 0.55, size * 0.55),
        new THREE.MeshBasicMaterial({ color: colors.plane, transparent: true, opacity: 0.18,
          side: THREE.DoubleSide, depthWrite: false }));
      quad.quaternion.setFromUnitVectors(new THREE.Vector3(0, 0, 1), n);
      quad.position.copy(c);
      const rim = new THREE.LineSegments(new THREE.EdgesGeometry(quad.geometry),
        new THREE.LineBasicMaterial({ color: colors.plane }));
      rim.quaternion.copy(quad.quaternion);
      rim.position.copy(c);
      certLayer.add(quad, rim);
    }
    if (cert.point) certLayer.add(sphereMarker(cert.point, colors.point, size * 0.012));
    scene.add(certLayer);

    // The witnesses and, on A - B, the nearest point to the origin: witness_a - witness_b.
    const witnessLayer = new THREE.Group();
    const nearestLayer = new THREE.Group();
    function showWitnesses(wa, wb) {
      witnessLayer.clear();
      nearestLayer.clear();
      if (!wa || !wb || (wa[0] === wb[0] && wa[1] === wb[1] && wa[2] === wb[2])) return;
      witnessLayer.add(sphereMarker(wa, colors.witness, size * 0.009),
        sphereMarker(wb, colors.witness, size * 0.009), segment(wa, wb, colors.witness));
      const v = [wa[0] - wb[0], wa[1] - wb[1], wa[2] - wb[2]];
      nearestLayer.add(sphereMarker(v, colors.witness, size * 0.009),
        segment([0, 0, 0], v, colors.witness));
    }
    scene.add(witnessLayer);
    difference.add(nearestLayer);

    // ---- the text panel ----
    const verdictOf = (q) => (q.error ? 'error: ' + q.error : q.verdict);
    $('pair').textContent = 'A = ' + data.names[0] + ', B = ' + data.names[1];
    const verdictEl = $('verdict');
    verdictEl.textContent = verdictOf(query);
    verdictEl.className = query.error ? 'error' : query.verdict;

    function facts() {
      const rows = [['algorithm', query.algo]];
      if (!query.error) {
        rows.push(['stop', query.stop], ['iterations', String(query.iterations)],
          ['support calls', String(query.support_calls)], ['eps', num(query.eps)]);
        if (query.distance !== undefined && query.distance > 0) {
          rows.push(['distance', num(query.distance)], ['witness on A', vec(query.witness_a)],
            ['witness on B', vec(query.witness_b)]);
        }
        if (cert.normal) {
          rows.push(['plane normal', vec(cert.normal)], ['plane offset', num(cert.offset)],
            ['plane gap', num(cert.gap)]);
        }
        if (cert.point) rows.push(['common point', vec(cert.point)], ['depth ≥', num(cert.depth_bound)]);
        if (query.certificate_ok !== undefined) {
          rows.push(['certificate', query.certificate_ok ? 'checked, ok' : 'REJECTED']);
        }
      }
      const rounded = (p) => (p.radius > 0 ? ', rounded by ' + num(p.radius) : '');
      rows.push(['A', data.a.vertices.length + ' vertices, dimension ' + data.a.dimension + rounded(data.a)],
        ['B', data.b.vertices.length + ' vertices, dimension ' + data.b.dimension + rounded(data.b)]);
      rows.push(['A − B', data.difference.vertices
        ? data.difference.vertices.length + ' vertices' : data.difference.omitted]);
      addRows($('facts'), rows);
    }
    facts();

    // ---- the algorithm's path, drawn on A - B ----
    const steps = data.path.steps;
    const stepInput = $('step');

    function polygonObject(polygon, color, opacity) {
      const group = new THREE.Group();
      if (polygon.length >= 3) {
        const faces = [polygon.map((_, i) => i)];
        group.add(meshOf(triangles(polygon, faces), color, opacity));
      }
      const seg = [];
      for (let i = 0; i < polygon.length; ++i) {
        seg.push(...polygon[i], ...polygon[(i + 1) % polygon.length]);
      }
      group.add(linesOf(seg, darker(color)), pointsOf(polygon, darker(color), 7));
      return group;
    }

    // GJK: the simplex's points, all their edges and triangles, and its nearest point to the origin.
    function simplexObject(step) {
      const pts = step.points;
      const group = new THREE.Group();
      const seg = [];
      const tri = [];
      for (let i = 0; i < pts.length; ++i) {
        for (let j = i + 1; j < pts.length; ++j) {
          seg.push(...pts[i], ...pts[j]);
          for (let k = j + 1; k < pts.length; ++k) tri.push(...pts[i], ...pts[j], ...pts[k]);
        }
      }
      if (tri.length) group.add(meshOf(tri, colors.current, 0.4));
      if (seg.length) group.add(linesOf(seg, darker(colors.current)));
      if (pts.length) group.add(pointsOf(pts, colors.current, 9));
      if (pts.length && step.upper > 0) {
        group.add(segment([0, 0, 0], step.closest, colors.point),
          sphereMarker(step.closest, colors.point, size * 0.007));
      }
      group.add(sphereMarker(step.support_point, colors.plane, size * 0.01));
      return group;
    }

    function stepText(k) {
      const s = steps[k];
      const head = 'step ' + (k + 1) + ' of ' + steps.length + ': ';
      if (data.path.algo === 'cddual') {
        const what = { fv: 'face ' + s.a + ' of A, vertex ' + s.b + ' of B',
          vf: 'vertex ' + s.a + ' of A, face ' + s.b + ' of B',
          ee: 'edge ' + s.a + ' of A, edge ' + s.b + ' of B' }[s.kind] || s.kind;
        return head + s.phase + ', ' + s.kind.toUpperCase() + ' face (' + what +
          '), dual distance ' + num(s.dual_distance);
      }
      const simplex = s.points.length === 0 ? 'simplex empty'
        : 'simplex of ' + s.points.length + ' point' + (s.points.length > 1 ? 's' : '') +
          ', |v| = ' + num(s.upper);
      return head + 'support point a' + s.support[0] + ' − b' + s.support[1] + ' (purple); ' +
        simplex + ', lower bound ' + (s.lower === null ? 'none' : num(s.lower));
    }

    // The centroid of the last step's points (the origin when there is no path).
    function pathFocus() {
      const last = steps[steps.length - 1];
      const pts = last ? (last.polygon || last.points) : [[0, 0, 0]];
      const c = new THREE.Vector3();
      for (const p of pts) c.add(new THREE.Vector3(...p));
      return c.multiplyScalar(1 / pts.length);
    }

    function showStep(k) {
      pathLayer.clear();
      if (steps.length === 0) return;
      if (data.path.algo === 'cddual') {
        for (let i = 0; i < k; ++i) pathLayer.add(polygonObject(steps[i].polygon, colors.visited, 0.25));
        pathLayer.add(polygonObject(steps[k].polygon, colors.current, 0.8));
      } else {
        pathLayer.add(simplexObject(steps[k]));
      }
      $('step-info').textContent = stepText(k);
    }

    if (steps.length > 0) {
      stepInput.max = String(steps.length - 1);
      stepInput.value = String(steps.length - 1);
      showStep(steps.length - 1);
    } else {
      stepInput.disabled = true;
      $('step-info').textContent = 'No path.';
    }
    $('path-note').textContent = data.path.note || '';
    stepInput.addEventListener('input', () => {
      if (!$('show-difference').checked) {
        $('show-difference').checked = true;
        applyVisibility(true);
      }
      showStep(Number(stepInput.value));
      render();
    });

    // ---- the contact (--depth, --manifold), and that of each motion sample ----
    const contactLayer = new THREE.Group();
    scene.add(contactLayer);
    function showContact(c) {
      contactLayer.clear();
      drawContact(contactLayer, c, size * 0.008);
    }
    if (data.contact) contactFacts(data.contact);

    // ---- the motion of B along s ----
    const motion = data.motion;
    const samples = motion.samples;
    const motionInput = $('motion');
    let given = 0;
    samples.forEach((s, i) => {
      if (Math.abs(s.offset) < Math.abs(samples[given].offset)) given = i;
    });
    motionInput.max = String(samples.length - 1);
    motionInput.value = String(given);
    let moving = false;

    function overlapOpacity(verdict) {
      const o = verdict === 'separated' ? 1 : 0.45;
      setOpacity(objA, o);
      setOpacity(objB, o);
    }

    function showPose() {
      const s = motion.direction;
      if (!moving) {
        objB.position.set(0, 0, 0);
        diffBody.position.set(0, 0, 0);
        overlapOpacity(query.verdict);
        showWitnesses(query.witness_a, query.witness_b);
        showContact(data.contact);
        $('motion-info').textContent = 's = ' + vec(s) + '; B as given (offset 0).';
        delete $('motion-info').dataset.signedDistance;
        return;
      }
      const sample = samples[Number(motionInput.value)];
      const t = sample.offset;
      objB.position.set(t * s[0], t * s[1], t * s[2]);
      diffBody.position.set(-t * s[0], -t * s[1], -t * s[2]);
      overlapOpacity(sample.verdict);
      showWitnesses(sample.witness_a, sample.witness_b);
      showContact(sample.contact);
      let text = 'B moved by ' + num(t) + ' along s = ' + vec(s) + ': ' + sample.verdict;
      if (sample.distance !== undefined) text += ', distance ' + num(sample.distance);
      const info = $('motion-info');
      if (sample.contact) {
        text += ', signed distance ' + num(sample.contact.signed_distance) +
          ', normal ' + vec(sample.contact.normal);
        info.dataset.signedDistance = String(sample.contact.signed_distance);
      } else {
        if (sample.contact_error) text += ' (signed distance: ' + sample.contact_error + ')';
        delete info.dataset.signedDistance;
      }
      info.textContent = text;
    }

    motionInput.addEventListener('input', () => {
      moving = true;
      applyVisibility(false);
      showPose();
      render();
    });
    $('motion-reset').addEventListener('click', () => {
      moving = false;
      motionInput.value = String(given);
      applyVisibility(false);
      showPose();
      render();
    });

    // ---- the time of impact (B swept over [0, 1]) and the rays ----
    const sweepLayer = new THREE.Group();
    const rayLayer = new THREE.Group();
    scene.add(sweepLayer, rayLayer);
    if (data.toi) sweepView(data.toi, sweepLayer);
    if (data.ray) rayView(data.ray, rayLayer);

    // ---- what is shown ----
    function applyVisibility(reframe) {
      const diff = $('show-difference').checked;
      shapes.visible = $('show-shapes').checked && !diff;
      difference.visible = diff;
      pathLayer.visible = diff && !moving;
      certLayer.visible = $('show-certificate').checked && !diff && !moving;
      witnessLayer.visible = $('show-witnesses').checked && !diff;
      contactLayer.visible = $('show-contact').checked && !diff;
      nearestLayer.visible = $('show-witnesses').checked;
      sweepLayer.visible = rayLayer.visible = !diff;
      if (reframe) frame(diff ? difference : shapes, diff ? pathFocus() : null, data.motion.direction);
    }
    for (const id of ['show-shapes', 'show-certificate', 'show-witnesses', 'show-contact']) {
      $(id).addEventListener('change', () => { applyVisibility(false); render(); });
    }
    $('show-difference').addEventListener('change', () => { applyVisibility(true); render(); });
    applyVisibility(true);
    showPose();
  }

  // The poses of a time of impact (data.toi): faint copies of the moving bodies at every pose of
  // the sweep, and the pose chosen on the slider drawn solid: at first hi of toi_bounds, where
  // the bodies are in contact (red). data.a and data.b are drawn at their poses of t = 0.
  function sweepView(toi, layer) {
    $('toi-section').hidden = false;
    const sweep = toi.sweep;
    const moves = (m) => m.velocity.some((x) => x !== 0) || m.spin.some((x) => x !== 0);
    const bodies = [];
    if (moves(toi.motion_a)) bodies.push({ p: data.a, key: 'pose_a', color: colors.a });
    if (moves(toi.motion_b) || bodies.length === 0) bodies.push({ p: data.b, key: 'pose_b', color: colors.b });
    const placed = (b, k) => poseMatrix(sweep[k][b.key]).multiply(poseMatrix(sweep[0][b.key]).invert());
    const at = (b, k, color, opacity) => {
      const g = drawnPolytope(b.p, color);
      setOpacity(g, opacity);
      g.matrixAutoUpdate = false;
      g.matrix.copy(placed(b, k));
      return g;
    };
    for (const b of bodies) {
      sweep.forEach((s, k) => { if (!s.mark && k > 0) layer.add(at(b, k, b.color, 0.12)); });
    }
    const current = new THREE.Group();
    layer.add(current);
    const lo = sweep.findIndex((s) => s.mark === 'lo');
    const hi = sweep.findIndex((s) => s.mark === 'hi');
    const rows = [];
    if (toi.error) rows.push(['error', toi.error]);
    if (toi.free_until !== undefined) rows.push(['apart (proven) for t <', num(toi.free_until)]);
    if (!toi.error && !toi.hit) rows.push(['time of impact', 'none: apart on [0, 1] (proven)']);
    if (toi.hit) {
      rows.push(['time of impact', num(toi.toi)],
        ['toi_bounds', '[' + num(toi.toi_bounds[0]) + ', ' + num(toi.toi_bounds[1]) + ']'],
        ['signed distance at hi', num(toi.signed_distance)], ['normal at hi', vec(toi.normal)]);
    }
    if (!toi.error) rows.push(['queries', String(toi.iterations)], ['eps', num(toi.eps)]);
    addRows($('toi-facts'), rows);
    const input = $('toi-step');
    input.max = String(sweep.length - 1);
    input.value = String(hi >= 0 ? hi : 0);
    for (const k of [lo, hi].filter((k) => k >= 0)) {
      $('toi-ticks').append(Object.assign(document.createElement('option'), { value: String(k) }));
    }
    $('toi-marks').textContent = hi >= 0 ? 'slider: lo of toi_bounds at step ' + lo + ', hi at step ' +
      hi + ' of ' + (sweep.length - 1) : sweep.length + ' poses over [0, 1]';
    function show(k) {
      current.clear();
      for (const b of bodies) current.add(at(b, k, k === hi ? colors.current : b.color, 0.9));
      const s = sweep[k];
      const info = $('toi-info');
      info.textContent = 't = ' + num(s.t) + (s.mark ? ' (' + s.mark + ' of toi_bounds)' : '') +
        ', signed distance ' + num(s.signed_distance);
      info.dataset.t = String(s.t);
      info.dataset.signedDistance = String(s.signed_distance);
    }
    input.addEventListener('input', () => { show(Number(input.value)); render(); });
    show(Number(input.value));
  }

  // Rays (data.ray): the ray from its origin, and on A and on B the hit point with the normal.
  function rayView(ray, layer) {
    $('ray-section').hidden = false;
    const o = new THREE.Vector3(...ray.origin);
    const d = new THREE.Vector3(...ray.dir).normalize();
    const hits = [ray.a, ray.b].filter((h) => h.hit);
    let far = size;
    for (const h of hits) far = Math.max(far, 1.2 * o.distanceTo(new THREE.Vector3(...h.point)));
    layer.add(segment(ray.origin, o.clone().addScaledVector(d, far).toArray(), colors.ray, size * 0.003),
      sphereMarker(ray.origin, colors.ray, size * 0.008));
    for (const h of hits) {
      layer.add(sphereMarker(h.point, colors.hit, size * 0.012));
      if (h.normal) layer.add(arrow(h.point, h.normal, size * 0.15, colors.normal, size * 0.0025));
    }
    const rows = [['origin', vec(ray.origin)], ['direction', vec(ray.dir)]];
    for (const [name, h] of [['A', ray.a], ['B', ray.b]]) {
      if (h.error) rows.push([name, 'error: ' + h.error]);
      else if (!h.hit) rows.push([name, 'no hit']);
      else if (h.inside) rows.push([name, 'the origin is inside (t = 0)']);
      else rows.push([name, 't = ' + num(h.t) + ' at ' + vec(h.point) + ', normal ' + vec(h.normal) +
        ', ' + h.feature.type + ' ' + h.feature.index]);
    }
    addRows($('ray-facts'), rows);
  }

  // ---- the page of two compound bodies: each piece with its own outline colour, the pieces
  // that decide the verdict opaque in the verdict's colour ----
  function pieceObject(p, fill, outline, opacity) {
    const g = p.radius > 0 ? roundedObject(p, fill) : polytopeObject(p, fill);
    setOpacity(g, opacity);
    const seg = [];
    for (const [i, j] of p.edges) seg.push(...p.vertices[i], ...p.vertices[j]);
    if (seg.length) g.add(linesOf(seg, outline));
    return g;
  }

  function compoundView() {
    for (const id of ['path-section', 'motion-section']) $(id).hidden = true;
    for (const id of ['show-difference', 'show-certificate']) $(id).closest('label').hidden = true;
    const q = data.query;
    const deciding = q.pieces || [-1, -1];
    const world = new THREE.Group();
    const list = $('pieces');
    list.hidden = false;
    [[data.a, colors.a, 'A', 0], [data.b, colors.b, 'B', 1]].forEach(([body, color, name, w]) => {
      body.pieces.forEach((p, i) => {
        const hit = deciding[w] === i;
        // A's pieces take the palette first, B's go on from there: one colour per piece
        const outline = palette[((w ? data.a.pieces.length : 0) + i) % palette.length];
        // the deciding pieces translucent enough to show one inside the other
        world.add(pieceObject(p, hit ? colors[q.verdict] || colors.current : color, outline, hit ? 0.7 : 0.3));
        const li = document.createElement('li');
        Object.assign(li.dataset, { body: name, piece: String(i), deciding: String(hit) });
        li.style.borderLeft = '10px solid #' + new THREE.Color(outline).getHexString();
        li.textContent = name + ' piece ' + i + ': ' + p.vertices.length + ' vertices' +
          (hit ? ' (decides the verdict)' : '');
        list.append(li);
      });
    });
    scene.add(world);
    world.updateMatrixWorld(true);
    size = new THREE.Box3().setFromObject(world).getSize(new THREE.Vector3()).length() || 1;
    const witnesses = new THREE.Group();
    if (q.distance > 0) {
      witnesses.add(sphereMarker(q.witness_a, colors.witness, size * 0.009),
        sphereMarker(q.witness_b, colors.witness, size * 0.009), segment(q.witness_a, q.witness_b, colors.witness));
    }
    // with --depth: the contact of the deepest pair of pieces (the keys of one pair's contact)
    if (q.signed_distance !== undefined) drawContact(witnesses, q, size * 0.008);
    scene.add(witnesses);
    $('pair').textContent = 'A = ' + data.names[0] + ' (' + data.a.pieces.length + ' pieces), B = ' +
      data.names[1] + ' (' + data.b.pieces.length + ' pieces)';
    $('verdict').textContent = q.error ? 'error: ' + q.error : q.verdict;
    $('verdict').className = q.error ? 'error' : q.verdict;
    const rows = [['algorithm', q.algo]];
    if (!q.error) {
      rows.push(['deciding pieces', deciding[0] < 0 ? 'none (separated)' : 'A ' + deciding[0] + ', B ' + deciding[1]]);
      if (q.distance !== undefined) rows.push(['distance', num(q.distance)]);
      if (q.distance_pieces) rows.push(['distance between', 'A ' + q.distance_pieces[0] + ', B ' + q.distance_pieces[1]]);
      if (q.certificate_ok !== undefined) rows.push(['certificate', q.certificate_ok ? 'checked, ok' : 'REJECTED']);
      if (q.signed_distance !== undefined) {
        rows.push(['signed distance', num(q.signed_distance)], ['normal (A to B)', vec(q.normal)],
          ['between', 'A ' + q.contact_pieces[0] + ', B ' + q.contact_pieces[1]]);
      }
      if (q.manifold) rows.push(['manifold points', String(q.manifold.length)]);
      rows.push(['pairs of pieces queried', String(q.piece_pairs)]);
    }
    addRows($('facts'), rows);
    const apply = () => {
      world.visible = $('show-shapes').checked;
      witnesses.visible = $('show-witnesses').checked;
      render();
    };
    for (const id of ['show-shapes', 'show-witnesses']) $(id).addEventListener('change', apply);
    frame(world, null, null);
  }

  // The contact of the pair as given (the keys of `hedra collide --json --depth`).
  function contactFacts(c) {
    $('contact-section').hidden = false;
    $('show-contact-label').hidden = false;
    const rows = [];
    if (c.depth_error) rows.push(['error', c.depth_error]);
    else {
      rows.push(['signed distance', num(c.signed_distance)], ['verdict', c.verdict],
        ['normal (A to B)', vec(c.normal)], ['witness on A', vec(c.witness_a)],
        ['witness on B', vec(c.witness_b)]);
      rows.push(['signed distance proven in', '[' + num(c.bounds[0]) + ', ' + num(c.bounds[1]) + ']']);
      if (c.verdict !== 'separated') rows.push(['depth', num(-c.signed_distance)]);
      rows.push(['features', 'A ' + c.feature_a.type + ' ' + c.feature_a.index + ', B ' +
        c.feature_b.type + ' ' + c.feature_b.index], ['method', c.depth_method]);
    }
    addRows($('contact-facts'), rows);
    const sd = $('contact-facts').querySelector('dd');
    if (sd && !c.depth_error) {
      sd.id = 'signed-distance';
      sd.dataset.value = String(c.signed_distance);
    }
    for (const m of c.manifold || []) {
      const li = document.createElement('li');
      li.textContent = vec(m.point) + ', separation ' + num(m.separation);
      $('manifold').append(li);
    }
    if (c.manifold) {
      $('manifold').before(Object.assign(document.createElement('p'),
        { textContent: 'manifold: ' + c.manifold.length + ' point' + (c.manifold.length === 1 ? '' : 's') }));
    }
  }

  // ---- the page of a scene file: each frame's bodies, the pairs in contact ----
  // A shape's drawing, shared by its bodies: triangles, edges and (flat-less) points.
  function shapeGeometry(p) {
    const geometry = (positions) => {
      const g = new THREE.BufferGeometry();
      g.setAttribute('position', new THREE.Float32BufferAttribute(positions, 3));
      return g;
    };
    const tri = triangles(p.vertices, p.faces);
    const seg = [];
    for (const [i, j] of p.edges) seg.push(...p.vertices[i], ...p.vertices[j]);
    const out = { tri: null, edges: null, points: geometry(p.vertices.flat()) };
    if (p.radius > 0) out.tri = roundedGeometry(p);
    else if (tri.length) {
      out.tri = geometry(tri);
      out.tri.computeVertexNormals();
    }
    if (seg.length) out.edges = geometry(seg);
    return out;
  }

  function bodyMaterial(color, opacity) {
    return new THREE.MeshLambertMaterial({
      color, side: THREE.DoubleSide, transparent: opacity < 1, opacity, depthWrite: opacity >= 1,
      polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1,
    });
  }

  // The largest distance of a shape's vertex from their centroid.
  function shapeRadius(p) {
    const c = new THREE.Vector3();
    for (const v of p.vertices) c.add(new THREE.Vector3(...v));
    c.multiplyScalar(1 / Math.max(p.vertices.length, 1));
    return Math.max(...p.vertices.map((v) => c.distanceTo(new THREE.Vector3(...v))));
  }

  function sceneView() {
    $('pair-panel').hidden = true;
    $('scene-panel').hidden = false;
    $('scene-name').textContent = data.name + ' (' + data.algo + ')';
    const geoms = data.shapes.map((s) => shapeGeometry(s.polytope));
    const radii = data.shapes.map((s) => shapeRadius(s.polytope));
    const marker = 0.06 * radii.reduce((a, r) => a + r, 0) / Math.max(radii.length, 1) || 0.01;
    const mats = { free: bodyMaterial(colors.free, 0.3), touching: bodyMaterial(colors.touching, 1),
      intersecting: bodyMaterial(colors.intersecting, 1) };
    const edgeMats = { free: new THREE.LineBasicMaterial({ color: 0xa3acbb }),
      touching: new THREE.LineBasicMaterial({ color: darker(colors.touching) }),
      intersecting: new THREE.LineBasicMaterial({ color: darker(colors.intersecting) }) };
    const pointMat = new THREE.PointsMaterial({ color: darker(colors.free), size: 5, sizeAttenuation: false });
    const world = new THREE.Group();
    const contactLayer = new THREE.Group();
    scene.add(world, contactLayer);
    const bodies = [];

    // A body's object, made when it first appears: its shape's geometry at its pose (matrix).
    function bodyObject(b) {
      if (!bodies[b]) {
        const g = geoms[data.bodies[b].shape];
        const group = new THREE.Group();
        group.matrixAutoUpdate = false;
        group.userData.mesh = g.tri ? new THREE.Mesh(g.tri, mats.free) : null;
        if (g.tri) group.add(group.userData.mesh);
        group.userData.edges = g.edges ? new THREE.LineSegments(g.edges, edgeMats.free) : null;
        if (g.edges) group.add(group.userData.edges);
        if (!g.tri) group.add(new THREE.Points(g.points, pointMat));
        world.add(group);
        bodies[b] = group;
      }
      return bodies[b];
    }

    function listContacts(f) {
      const list = $('contacts');
      list.replaceChildren();
      const sorted = [...f.contacts].sort((x, y) => x.a - y.a || x.b - y.b);
      for (const c of sorted) {
        const li = document.createElement('li');
        const a = data.bodies[c.a].name, b = data.bodies[c.b].name;
        Object.assign(li.dataset, { a, b, verdict: c.verdict });
        li.className = c.verdict;
        let text = a + ' – ' + b + ': ' + c.verdict;
        if (c.contact) text += ', signed distance ' + num(c.contact.signed_distance);
        const count = c.contact && c.contact.manifold ? c.contact.manifold.length : -1;
        if (count >= 0) text += ', ' + count + ' manifold point' + (count === 1 ? '' : 's');
        if (c.contact_error) text += ' (contact: ' + c.contact_error + ')';
        li.textContent = text;
        list.append(li);
      }
    }

    function showFrame(k) {
      const f = data.frames[k];
      const state = new Map();
      for (const c of f.contacts) {
        for (const b of [c.a, c.b]) if (state.get(b) !== 'intersecting') state.set(b, c.verdict);
      }
      for (const g of bodies) if (g) g.visible = false;
      for (const p of f.poses) {
        const g = bodyObject(p[0]);
        g.matrix.set(p[1], p[2], p[3], p[10], p[4], p[5], p[6], p[11], p[7], p[8], p[9], p[12], 0, 0, 0, 1);
        g.matrixWorldNeedsUpdate = true;
        const v = state.get(p[0]);
        g.visible = v !== undefined || $('show-free').checked;
        if (g.userData.mesh) g.userData.mesh.material = mats[v || 'free'];
        if (g.userData.edges) g.userData.edges.material = edgeMats[v || 'free'];
      }
      contactLayer.clear();
      for (const c of f.contacts) drawContact(contactLayer, c.contact, marker);
      const touching = f.contacts.filter((c) => c.verdict === 'touching').length;
      $('frame-info').textContent = 'frame ' + k + ' of ' + data.frames.length + ' (0 to ' +
        (data.frames.length - 1) + '): ' + f.poses.length + ' bodies, ' + f.contacts.length +
        ' pairs in contact (' + touching + ' touching, ' + (f.contacts.length - touching) +
        ' intersecting)' + (f.failures ? '; ' + f.failures + ' failed queries' : '');
      listContacts(f);
    }

    const input = $('frame');
    input.max = String(data.frames.length - 1);
    input.value = String(data.frame);
    input.addEventListener('input', () => { showFrame(Number(input.value)); render(); });
    $('show-free').addEventListener('change', () => { showFrame(Number(input.value)); render(); });
    if (data.depth) $('show-scene-contact-label').hidden = false;
    $('show-scene-contact').addEventListener('change', () => {
      contactLayer.visible = $('show-scene-contact').checked;
      render();
    });
    addRows($('scene-facts'), [['shapes', String(data.shapes.length)],
      ['bodies', String(data.bodies.length) + ' (over all frames)'],
      ['frames', String(data.frames.length)], ['algorithm', data.algo]]);
    showFrame(data.frame);
    world.updateMatrixWorld(true);
    size = new THREE.Box3().setFromObject(world).getSize(new THREE.Vector3()).length() || 1;
    frame(world, null, null);
  }
  window.addEventListener('resize', () => {
    camera.aspect = container.clientWidth / container.clientHeight;
    camera.updateProjectionMatrix();
    renderer.setSize(container.clientWidth, container.clientHeight);
    render();
  });

  // Where a world point is drawn, in pixels of the view, and the camera's right and up axes in
  // the world (for the browser test's pixel checks).
  window.hedraView = {
    project(p) {
      const v = new THREE.Vector3(...p).project(camera);
      return [(v.x + 1) / 2 * container.clientWidth, (1 - v.y) / 2 * container.clientHeight];
    },
    axes() {
      const e = camera.matrixWorld.elements;
      return { right: [e[0], e[1], e[2]], up: [e[4], e[5], e[6]] };
    },
  };

  if (data.kind === 'scene') sceneView();
  else if (data.kind === 'compound') compoundView();
  else pairView();
  render();
  document.body.dataset.ready = '1';
})();
