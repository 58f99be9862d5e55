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
    free: 0x9aa7bd, touching: 0xe0a020, intersecting: 0xd62f4b,
  };
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
    const box = new THREE.Box3();
    for (const v of data.a.vertices.concat(data.b.vertices)) box.expandByPoint(new THREE.Vector3(...v));
    const shapeCentre = box.getCenter(new THREE.Vector3());
    size = box.getSize(new THREE.Vector3()).length() || 1;
    const diffBox = new THREE.Box3().expandByPoint(new THREE.Vector3(0, 0, 0));
    if (data.difference.vertices) {
      for (const v of data.difference.vertices) diffBox.expandByPoint(new THREE.Vector3(...v));
    }
    size = Math.max(size, diffBox.getSize(new THREE.Vector3()).length() * 0.5);
    camera.near = size * 1e-3;
    camera.far = size * 100;

    // ---- the objects ----
    const shapes = new THREE.Group();
    const objA = polytopeObject(data.a, colors.a);
    const objB = polytopeObject(data.b, colors.b);
    shapes.add(objA, objB);
    scene.add(shapes);

    const difference = new THREE.Group();
    const diffBody = new THREE.Group();
    if (data.difference.vertices) {
      diffBody.add(polytopeObject(data.difference, colors.m));
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
      rows.push(['A', data.a.vertices.length + ' vertices, dimension ' + data.a.dimension],
        ['B', data.b.vertices.length + ' vertices, dimension ' + data.b.dimension]);
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
      if (reframe) frame(diff ? difference : shapes, diff ? pathFocus() : null, data.motion.direction);
    }
    for (const id of ['show-shapes', 'show-certificate', 'show-witnesses', 'show-contact']) {
      $(id).addEventListener('change', () => { applyVisibility(false); render(); });
    }
    $('show-difference').addEventListener('change', () => { applyVisibility(true); render(); });
    applyVisibility(true);
    showPose();
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
    if (tri.length) {
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

  if (data.kind === 'scene') sceneView();
  else pairView();
  render();
  document.body.dataset.ready = '1';
})();
