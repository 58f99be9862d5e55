// The part of three.js that page.js uses, bundled by `npm run build` into dist/three.bundle.js:
// one classic script defining the global THREE, which `hedra view` inlines into its pages.
// A name page.js needs must be listed here (the browser test fails on a missing one).
export {
  AxesHelper, Box3, BufferGeometry, Color, ConeGeometry, CylinderGeometry, DirectionalLight, DoubleSide,
  EdgesGeometry, Float32BufferAttribute, Group, HemisphereLight, LineBasicMaterial, LineSegments,
  Matrix4, Mesh, MeshBasicMaterial, MeshLambertMaterial, PerspectiveCamera, PlaneGeometry, Points,
  PointsMaterial, Quaternion, Scene, Sphere, SphereGeometry, Vector3, WebGLRenderer,
} from 'three';
export { OrbitControls } from 'three/addons/controls/OrbitControls.js';
