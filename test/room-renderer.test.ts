import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type Camera,
  type Vec2,
  type Vec3,
  clipLineToImage,
  clipPolygon3,
  frustumPlanes,
  intrinsicsFromHorizontalFov,
  pointInPolygon,
  polygonArea,
  projectPolygon,
  projectSegment,
  projectWorldPoint,
  rotationWorldToCamera,
  vanishingLine,
  vanishingPoint,
} from '../tools/room-renderer/geometry.js';
import { castLabels } from '../tools/room-renderer/labels.js';
import { INSTALL_COMMAND, findExecutable, parseArgs } from '../tools/room-renderer/render-rooms.js';
import {
  CLASS_IDS,
  RANGES,
  type RoomSpec,
  SURFACE_IDS,
  WALL_IDS,
  cameraOf,
  castShell,
  generateRoomSpec,
  roomOutline,
  surfaceFractions,
  wallLabel,
  wallLength,
} from '../tools/room-renderer/spec.js';
import { computeTruth } from '../tools/room-renderer/truth.js';

const SPECS = Array.from({ length: 120 }, (_, i) => generateRoomSpec(1, i));

/**
 * A pinhole camera written out independently of geometry.ts: a look-at frame from the viewing direction and the
 * world's up, and u = cx + f·x/z with f from the horizontal field of view.
 */
function lookAtProjection(spec: RoomSpec, P: Vec3): { u: number; v: number; z: number } {
  const { yawDeg, pitchDeg, hfovDeg, position: C } = spec.camera;
  const yaw = (yawDeg * Math.PI) / 180;
  const pitch = (pitchDeg * Math.PI) / 180;
  const forward = [Math.sin(yaw) * Math.cos(pitch), Math.cos(yaw) * Math.cos(pitch), Math.sin(pitch)];
  // right = forward × up, normalised; cameraUp = right × forward.
  const rx = forward[1]!;
  const ry = -forward[0]!;
  const rl = Math.hypot(rx, ry);
  const right = [rx / rl, ry / rl, 0];
  const up = [
    right[1]! * forward[2]! - right[2]! * forward[1]!,
    right[2]! * forward[0]! - right[0]! * forward[2]!,
    right[0]! * forward[1]! - right[1]! * forward[0]!,
  ];
  const d = [P[0] - C[0], P[1] - C[1], P[2] - C[2]];
  const x = d[0]! * right[0]! + d[1]! * right[1]!;
  const y = d[0]! * up[0]! + d[1]! * up[1]! + d[2]! * up[2]!;
  const z = d[0]! * forward[0]! + d[1]! * forward[1]! + d[2]! * forward[2]!;
  const f = spec.image.width / 2 / Math.tan((hfovDeg * Math.PI) / 360);
  return { u: spec.image.width / 2 + (f * x) / z, v: spec.image.height / 2 - (f * y) / z, z };
}

function close(actual: number, expected: number, tolerance: number, what = ''): void {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what} ${actual} vs ${expected} (±${tolerance})`);
}

function segmentDistance(p: Vec2, [a, b]: [Vec2, Vec2]): number {
  const d: Vec2 = [b[0] - a[0], b[1] - a[1]];
  const len2 = d[0] * d[0] + d[1] * d[1];
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * d[0] + (p[1] - a[1]) * d[1]) / len2));
  return Math.hypot(p[0] - a[0] - t * d[0], p[1] - a[1] - t * d[1]);
}

function intersectLines(a: [Vec2, Vec2], b: [Vec2, Vec2]): Vec2 {
  const [p, p2] = a;
  const [q, q2] = b;
  const r: Vec2 = [p2[0] - p[0], p2[1] - p[1]];
  const s: Vec2 = [q2[0] - q[0], q2[1] - q[1]];
  const den = r[0] * s[1] - r[1] * s[0];
  const t = ((q[0] - p[0]) * s[1] - (q[1] - p[1]) * s[0]) / den;
  return [p[0] + t * r[0], p[1] + t * r[1]];
}

describe('room spec generator', () => {
  it('is deterministic: room i of seed s does not depend on anything else', () => {
    assert.deepEqual(generateRoomSpec(1, 7), generateRoomSpec(1, 7));
    assert.deepEqual(generateRoomSpec(42, 0), generateRoomSpec(42, 0));
    assert.notDeepEqual(generateRoomSpec(1, 7), generateRoomSpec(2, 7));
    assert.notDeepEqual(generateRoomSpec(1, 7).room, generateRoomSpec(1, 8).room);
    assert.deepEqual(computeTruth(generateRoomSpec(3, 5)), computeTruth(generateRoomSpec(3, 5)));
  });

  it('draws rooms, cameras, openings and furniture in their ranges', () => {
    let onePoint = 0;
    let levelled = 0;
    for (const spec of SPECS) {
      const { room, camera } = spec;
      assert.ok(room.width >= 3 && room.width <= 7 && room.depth >= 3 && room.depth <= 7, spec.id);
      assert.ok(room.height >= 2.4 && room.height <= 3.2, spec.id);
      assert.ok(camera.position[2] >= 1.1 && camera.position[2] <= 1.7, spec.id);
      assert.ok(camera.position[0] >= RANGES.wallClearance - 1e-9 && camera.position[0] <= room.width - RANGES.wallClearance + 1e-9);
      assert.ok(camera.position[1] >= RANGES.wallClearance - 1e-9 && camera.position[1] <= room.depth - RANGES.wallClearance + 1e-9);
      assert.ok(camera.hfovDeg >= 55 && camera.hfovDeg <= 90);
      assert.ok(camera.pitchDeg >= -15 && camera.pitchDeg <= 5);
      assert.equal(camera.rollDeg, 0);
      if (camera.perspective === 'one-point') {
        onePoint++;
        assert.equal(camera.yawDeg % 90, 0, `${spec.id} one-point yaw ${camera.yawDeg}`);
      } else {
        const offAxis = Math.abs((camera.yawDeg % 90) - 45);
        assert.ok(offAxis <= 35, `${spec.id} two-point yaw ${camera.yawDeg}`);
      }
      if (camera.pitchDeg === 0) levelled++;

      const fractions = surfaceFractions(spec);
      const walls = WALL_IDS.filter((w) => fractions[w] >= RANGES.minWallFraction).length;
      assert.ok(walls >= 2 && walls <= 3, `${spec.id}: ${walls} walls visible`);

      const windows = spec.openings.filter((o) => o.kind === 'window').length;
      const doors = spec.openings.filter((o) => o.kind === 'door').length;
      assert.ok(windows >= 1 && windows <= 3, `${spec.id}: ${windows} windows`);
      const firstWindow = computeTruth(spec).openings[0]!;
      assert.equal(firstWindow.id, 'window-0');
      assert.ok(firstWindow.area >= 0.01 * spec.image.width * spec.image.height, `${spec.id}: window-0 hardly in view`);
      assert.ok(doors >= 0 && doors <= 2);
      for (const o of spec.openings) {
        assert.ok(o.u0 >= 0.3 - 1e-9 && o.u1 <= wallLength(room, o.wall) - 0.3 + 1e-9, `${spec.id} ${o.id} along the wall`);
        assert.ok(o.z0 >= 0 && o.z1 <= room.height - 0.15 + 1e-9 && o.z1 > o.z0);
        if (o.kind === 'door') assert.equal(o.z0, 0);
        for (const p of spec.openings) {
          if (p !== o && p.wall === o.wall) assert.ok(p.u1 <= o.u0 || o.u1 <= p.u0, `${spec.id}: ${o.id} overlaps ${p.id}`);
        }
      }
      assert.ok(spec.furniture.length <= 6);
      for (const f of spec.furniture) {
        for (const b of f.boxes) {
          assert.ok(b.min[0] > 0 && b.min[1] > 0 && b.min[2] >= 0, `${spec.id} ${f.id} inside`);
          assert.ok(b.max[0] < room.width && b.max[1] < room.depth && b.max[2] < room.height);
          const [x, y] = camera.position;
          const dx = Math.max(b.min[0] - x, 0, x - b.max[0]);
          const dy = Math.max(b.min[1] - y, 0, y - b.max[1]);
          assert.ok(Math.hypot(dx, dy) >= 1.0 - 1e-6, `${spec.id} ${f.id} too close to the camera`);
        }
      }
      assert.ok(spec.checkPoints.length >= 8);
    }
    assert.ok(onePoint > 20 && onePoint < 100, `one-point views: ${onePoint}`);
    assert.ok(levelled > 10, `levelled cameras: ${levelled}`);
    assert.ok(SPECS.some((s) => s.furniture.length === 0) && SPECS.some((s) => s.furniture.length >= 4));
  });

  it('labels walls by the bearing of their normal relative to the yaw', () => {
    assert.equal(wallLabel('north', 0), 'front');
    assert.equal(wallLabel('east', 0), 'right');
    assert.equal(wallLabel('west', 0), 'left');
    assert.equal(wallLabel('south', 0), 'back');
    assert.equal(wallLabel('north', 90), 'left');
    assert.equal(wallLabel('east', 90), 'front');
    assert.equal(wallLabel('north', 45), 'front'); // −45° is front, +45° is right
    assert.equal(wallLabel('east', 45), 'right');
    assert.equal(wallLabel('west', 350), 'left');
    const truth = computeTruth(SPECS[0]!);
    const classes = new Set(Object.values(truth.wallClasses));
    assert.equal(classes.size, 4, 'each wall has its own class');
  });
});

describe('room renderer projection', () => {
  it('derives the intrinsics from the horizontal field of view (Blender horizontal sensor fit)', () => {
    const k = intrinsicsFromHorizontalFov(640, 480, 90);
    close(k.fx, 320, 1e-9);
    assert.equal(k.fy, k.fx);
    assert.deepEqual([k.cx, k.cy], [320, 240]);
    close(k.vfovDeg, (2 * Math.atan(0.75) * 180) / Math.PI, 1e-9);
    // A point on the edge of the horizontal field of view lands on the image border.
    const spec = { image: { width: 640, height: 480 }, camera: { position: [0, 0, 0] as Vec3, yawDeg: 0, pitchDeg: 0, rollDeg: 0, hfovDeg: 70, perspective: 'one-point' as const } };
    const camera = cameraOf(spec);
    const half = (35 * Math.PI) / 180;
    close(projectWorldPoint(camera, [Math.sin(half), Math.cos(half), 0]).pixel[0], 640, 1e-9);
    close(projectWorldPoint(camera, [-Math.sin(half), Math.cos(half), 0]).pixel[0], 0, 1e-9);
    assert.deepEqual(projectWorldPoint(camera, [0, 5, 0]).pixel, [320, 240]);
    // Up in the world is up in the image (smaller v).
    assert.ok(projectWorldPoint(camera, [0, 5, 1]).pixel[1] < 240);
  });

  it('gives an orthonormal, right-handed rotation with rows right, down, forward', () => {
    for (const [yaw, pitch, roll] of [[0, 0, 0], [37.5, -12, 0], [210, 4, 0], [300, -15, 8]] as const) {
      const R = rotationWorldToCamera(yaw, pitch, roll);
      for (let i = 0; i < 3; i++) {
        for (let j = 0; j < 3; j++) {
          const d = R[i]![0] * R[j]![0] + R[i]![1] * R[j]![1] + R[i]![2] * R[j]![2];
          close(d, i === j ? 1 : 0, 1e-12);
        }
      }
      const [r, dn, f] = R;
      const c = [r[1] * dn[2] - r[2] * dn[1], r[2] * dn[0] - r[0] * dn[2], r[0] * dn[1] - r[1] * dn[0]];
      for (let i = 0; i < 3; i++) close(c[i]!, f[i]!, 1e-12, 'right × down = forward');
      if (roll === 0) close(r[2], 0, 1e-15, 'no roll: the right axis is horizontal');
    }
  });

  it('projects 3-D points of the specs like a direct pinhole camera', () => {
    for (const spec of SPECS.slice(0, 40)) {
      const camera = cameraOf(spec);
      const points = [...spec.checkPoints.map((p) => p.world), ...spec.furniture.flatMap((f) => f.boxes.map((b) => b.min))];
      for (const P of points) {
        const mine = projectWorldPoint(camera, P);
        const direct = lookAtProjection(spec, P);
        close(mine.depth, direct.z, 1e-9, `${spec.id} depth`);
        if (direct.z > 0.05) {
          close(mine.pixel[0], direct.u, 1e-6, `${spec.id} u`);
          close(mine.pixel[1], direct.v, 1e-6, `${spec.id} v`);
        }
      }
    }
  });

  it('puts the vanishing points where parallel room edges meet and where far points converge', () => {
    for (const spec of SPECS.slice(0, 40)) {
      const truth = computeTruth(spec);
      const { width: W, depth: D, height: H } = spec.room;
      const axes: Record<'x' | 'y' | 'z', [Vec3, Vec3][]> = {
        x: [[[0, 0, 0], [W, 0, 0]], [[0, D, 0], [W, D, 0]], [[0, 0, H], [W, 0, H]], [[0, D, H], [W, D, H]]],
        y: [[[0, 0, 0], [0, D, 0]], [[W, 0, 0], [W, D, 0]], [[0, 0, H], [0, D, H]], [[W, 0, H], [W, D, H]]],
        z: [[[0, 0, 0], [0, 0, H]], [[W, 0, 0], [W, 0, H]], [[0, D, 0], [0, D, H]], [[W, D, 0], [W, D, H]]],
      };
      for (const axis of ['x', 'y', 'z'] as const) {
        const vp = truth.vanishingPoints[axis];
        const dir: Vec3 = axis === 'x' ? [1, 0, 0] : axis === 'y' ? [0, 1, 0] : [0, 0, 1];
        if (vp.atInfinity) {
          assert.equal(vp.point, null);
          // Parallel image lines: every projected edge of this axis has the image direction.
          for (const [a, b] of axes[axis]) {
            const pa = lookAtProjection(spec, a);
            const pb = lookAtProjection(spec, b);
            if (pa.z <= 0.05 || pb.z <= 0.05) continue;
            const cr = (pb.u - pa.u) * vp.imageDirection![1] - (pb.v - pa.v) * vp.imageDirection![0];
            close(cr / Math.hypot(pb.u - pa.u, pb.v - pa.v), 0, 1e-9, `${spec.id} ${axis} parallel`);
          }
          continue;
        }
        const point = vp.point!;
        // A far point along the axis projects (by the direct pinhole) onto the vanishing point; the sign of the
        // direction decides which side of the camera it is on.
        const t = 1e7 * Math.sign(vp.directionCamera[2]);
        const far = lookAtProjection(spec, [
          spec.camera.position[0] + t * dir[0],
          spec.camera.position[1] + t * dir[1],
          spec.camera.position[2] + t * dir[2],
        ]);
        const scaleToPoint = Math.max(1, Math.hypot(point[0], point[1]) / 1000);
        close(far.u, point[0], 1e-3 * scaleToPoint, `${spec.id} ${axis} u`);
        close(far.v, point[1], 1e-3 * scaleToPoint, `${spec.id} ${axis} v`);
        // Two room edges of this axis, projected directly, meet at the vanishing point.
        const lines = axes[axis]
          .map(([a, b]) => [lookAtProjection(spec, a), lookAtProjection(spec, b)] as const)
          .filter(([a, b]) => a.z > 0.05 && b.z > 0.05)
          .map(([a, b]) => [[a.u, a.v], [b.u, b.v]] as [Vec2, Vec2]);
        if (lines.length >= 2 && Math.hypot(point[0], point[1]) < 1e5) {
          const meet = intersectLines(lines[0]!, lines[1]!);
          close(meet[0], point[0], 1e-5 * scaleToPoint, `${spec.id} ${axis} edges meet u`);
          close(meet[1], point[1], 1e-5 * scaleToPoint, `${spec.id} ${axis} edges meet v`);
        }
        // K·R·direction, as a homogeneous point.
        const h = truth.vanishingPoints[axis].homogeneous;
        close(h[0] / h[2], point[0], 1e-6 * scaleToPoint);
      }
    }
  });

  it('handles vanishing points at infinity for a levelled one-point view', () => {
    const spec = SPECS.find((s) => s.camera.perspective === 'one-point' && s.camera.pitchDeg === 0)!;
    assert.ok(spec, 'a levelled one-point view in the set');
    const truth = computeTruth(spec);
    const along = spec.camera.yawDeg % 180 === 0 ? 'y' : 'x';
    const across = along === 'y' ? 'x' : 'y';
    assert.equal(truth.vanishingPoints[along].atInfinity, false);
    close(truth.vanishingPoints[along].point![0], spec.image.width / 2, 1e-9);
    close(truth.vanishingPoints[along].point![1], spec.image.height / 2, 1e-9);
    assert.equal(truth.vanishingPoints[across].atInfinity, true);
    assert.deepEqual(truth.vanishingPoints[across].imageDirection!.map(Math.abs), [1, 0]);
    assert.equal(truth.vanishingPoints.z.atInfinity, true);
    assert.deepEqual(truth.vanishingPoints.z.imageDirection!.map(Math.abs), [0, 1]);
    assert.equal(truth.vanishingPoints.z.homogeneous[2], 0);
  });

  it('puts the horizon through the horizontal vanishing points and far horizontal points', () => {
    for (const spec of SPECS.slice(0, 40)) {
      const truth = computeTruth(spec);
      const [a, b, c] = truth.horizon.line;
      close(Math.hypot(a, b), 1, 1e-9);
      for (const axis of ['x', 'y'] as const) {
        const p = truth.vanishingPoints[axis].point;
        if (p && Math.hypot(p[0], p[1]) < 1e6) close(a * p[0] + b * p[1] + c, 0, 1e-5, `${spec.id} ${axis} on horizon`);
      }
      for (const bearing of [-20, 0, 15]) {
        const yaw = ((spec.camera.yawDeg + bearing) * Math.PI) / 180;
        const C = spec.camera.position;
        const far = lookAtProjection(spec, [C[0] + 1e6 * Math.sin(yaw), C[1] + 1e6 * Math.cos(yaw), C[2]]);
        close(a * far.u + b * far.v + c, 0, 1e-3, `${spec.id} far point on horizon`);
      }
      // No roll: the horizon is the row v = cy + fy·tan(pitch).
      const v = spec.image.height / 2 + truth.intrinsics.fy * Math.tan((spec.camera.pitchDeg * Math.PI) / 180);
      close(-c / b, v, 1e-6);
      assert.ok(truth.horizon.segment === null || Math.abs(truth.horizon.segment[0][1] - v) < 1e-6);
    }
  });

  it('gives the floor plane in camera coordinates at the camera height', () => {
    for (const spec of SPECS.slice(0, 40)) {
      const truth = computeTruth(spec);
      const camera = cameraOf(spec);
      const { normal, distance } = truth.floorPlane;
      close(distance, spec.camera.position[2], 1e-9);
      close(Math.hypot(...normal), 1, 1e-9);
      const R = camera.R;
      for (const P of [[0, 0, 0], [spec.room.width, 1.3, 0], [2.2, spec.room.depth, 0]] as Vec3[]) {
        const d = [P[0] - camera.C[0], P[1] - camera.C[1], P[2] - camera.C[2]];
        const X = R.map((row) => row[0] * d[0]! + row[1] * d[1]! + row[2] * d[2]!) as Vec3;
        close(normal[0] * X[0] + normal[1] * X[1] + normal[2] * X[2], distance, 1e-9, `${spec.id} floor point`);
      }
      // Back-projecting a pixel below the horizon onto the floor plane gives a floor point that projects back to it.
      const { fx, fy, cx, cy } = truth.intrinsics;
      const [u, v] = [cx + 37, spec.image.height - 3];
      const ray: Vec3 = [(u - cx) / fx, (v - cy) / fy, 1];
      const t = distance / (normal[0] * ray[0] + normal[1] * ray[1] + normal[2] * ray[2]);
      assert.ok(t > 0);
      const Xc: Vec3 = [ray[0] * t, ray[1] * t, ray[2] * t];
      const world: Vec3 = [0, 1, 2].map((i) => camera.C[i]! + R[0][i]! * Xc[0] + R[1][i]! * Xc[1] + R[2][i]! * Xc[2]) as Vec3;
      close(world[2], 0, 1e-9, 'on the floor');
      const back = lookAtProjection(spec, world);
      close(back.u, u, 1e-6);
      close(back.v, v, 1e-6);
      close(truth.ceilingPlane.distance, spec.room.height - spec.camera.position[2], 1e-9);
    }
  });
});

describe('room renderer polygons', () => {
  const k = intrinsicsFromHorizontalFov(200, 100, 90); // fx = 100
  const camera: Camera = { intrinsics: k, R: rotationWorldToCamera(0, 0, 0), C: [0, 0, 0] };

  it('keeps a polygon inside the view as it is and clips one across the border to the image', () => {
    // A square 10 m ahead, 4 m on a side, centred: |u − 100| ≤ 20, |v − 50| ≤ 20.
    const square: Vec3[] = [[-2, 10, -2], [2, 10, -2], [2, 10, 2], [-2, 10, 2]];
    const inside = projectPolygon(camera, square);
    assert.deepEqual(
      inside.map(([u, v]) => [Math.round(u * 1e9) / 1e9, Math.round(v * 1e9) / 1e9]),
      [[80, 70], [120, 70], [120, 30], [80, 30]],
    );
    close(Math.abs(polygonArea(inside)), 1600, 1e-9);
    // Shifted right by 10 m: u from 180 to 220, cut at 200.
    const shifted = projectPolygon(camera, square.map(([x, y, z]) => [x + 10, y, z] as Vec3));
    close(Math.abs(polygonArea(shifted)), 20 * 40, 1e-9);
    assert.ok(shifted.every(([u, v]) => u >= 180 - 1e-9 && u <= 200 && v >= 30 - 1e-9 && v <= 70 + 1e-9));
    // Behind the camera: nothing.
    assert.deepEqual(projectPolygon(camera, square.map(([x, y, z]) => [x, -y, z] as Vec3)), []);
  });

  it('clips a polygon that reaches behind the camera (a floor under and around it)', () => {
    const floor: Vec3[] = [[-50, -50, -1], [50, -50, -1], [50, 50, -1], [-50, 50, -1]];
    const poly = projectPolygon(camera, floor);
    // Below the horizon (v = 50) and down to the image's bottom edge; the far edge is at y = 50: v = 50 + 100/50 = 52.
    close(Math.min(...poly.map((p) => p[1])), 52, 1e-9);
    close(Math.max(...poly.map((p) => p[1])), 100, 1e-9);
    close(Math.min(...poly.map((p) => p[0])), 0, 1e-9);
    close(Math.max(...poly.map((p) => p[0])), 200, 1e-9);
    close(Math.abs(polygonArea(poly)), 200 * 48, 1e-6);
    // Frustum clipping keeps z > 0 for everything but the camera centre.
    const clipped = clipPolygon3(floor.map(([x, y, z]) => [x, -z, y] as Vec3), frustumPlanes(k));
    assert.ok(clipped.every((p) => p[2] > 0));
  });

  it('clips segments and lines to the image', () => {
    const seg = projectSegment(camera, [-100, 10, 0], [100, 10, 0])!;
    assert.deepEqual(seg.map((p) => p.map((x) => Math.round(x * 1e9) / 1e9)), [[0, 50], [200, 50]]);
    assert.equal(projectSegment(camera, [0, -1, 0], [0, -5, 0]), null);
    // A segment from behind the camera to the front is cut where it enters the view.
    const through = projectSegment(camera, [1, -10, -1], [1, 10, -1])!;
    close(through[1][0], 110, 1e-9);
    close(through[1][1], 60, 1e-9);
    close(through[0][1], 100, 1e-9); // enters at the bottom border
    assert.deepEqual(clipLineToImage([0, 1, -50], 200, 100), [[0, 50], [200, 50]]);
    assert.equal(clipLineToImage([0, 1, 50], 200, 100), null);
    const diagonal = clipLineToImage(vanishingLine(camera, [0, 0, 1]), 200, 100)!;
    assert.deepEqual(diagonal.map((p) => p.map((x) => Math.round(x * 1e9) / 1e9)), [[0, 50], [200, 50]]);
    assert.equal(vanishingPoint(camera, [1, 0, 0]).atInfinity, true);
  });

  it('tiles the image with the six surfaces of the room, and the polygons agree with the ray-cast layout', () => {
    for (const full of SPECS.slice(0, 12)) {
      const spec: RoomSpec = { ...full, image: { width: 160, height: 120 } };
      const truth = computeTruth(spec);
      const total = truth.surfaces.reduce((s, f) => s + f.area, 0);
      close(total, 160 * 120, 1e-6, `${spec.id} areas`);
      const layout = castLabels(spec, { layout: true });
      let disagreements = 0;
      for (let j = 0; j < 120; j++) {
        for (let i = 0; i < 160; i++) {
          const p: Vec2 = [i + 0.5, j + 0.5];
          const owners = truth.surfaces.filter((s) => s.polygon.length > 0 && pointInPolygon(p, s.polygon));
          if (owners.length !== 1 || owners[0]!.classId !== layout.data[j * 160 + i]) disagreements++;
        }
      }
      assert.ok(disagreements <= 2, `${spec.id}: ${disagreements} pixels where polygons and ray cast disagree`);
      for (const s of SURFACE_IDS) assert.ok(truth.surfaces.find((x) => x.id === s));
    }
  });

  it('ray-casts openings and furniture into the label map', () => {
    const full = SPECS.find((s) => s.furniture.length >= 2 && s.openings.length >= 2)!;
    const spec: RoomSpec = { ...full, image: { width: 160, height: 120 } };
    const truth = computeTruth(spec);
    const labels = castLabels(spec, { layout: false });
    const counts = new Map<number, number>();
    for (const v of labels.data) counts.set(v, (counts.get(v) ?? 0) + 1);
    assert.equal(counts.get(CLASS_IDS.none), undefined, 'every pixel hits the room');
    for (const o of truth.openings.filter((x) => x.area > 200)) {
      // Pixels inside an opening's polygon are the opening or furniture in front of it.
      for (let j = 0; j < 120; j++) {
        for (let i = 0; i < 160; i++) {
          if (!pointInPolygon([i + 0.5, j + 0.5], o.polygon)) continue;
          const v = labels.data[j * 160 + i]!;
          assert.ok(v === o.classId || v === CLASS_IDS.furniture, `${spec.id} ${o.id}: ${v}`);
        }
      }
    }
  });
});

describe('render-rooms command line', () => {
  it('parses options and refuses incomplete ones', () => {
    const o = parseArgs(['--seed', '1', '--count', '12', '--out', '/tmp/x']);
    assert.equal(o.seed, 1);
    assert.equal(o.count, 12);
    assert.equal(o.samples, 16);
    assert.equal(o.verify, true);
    assert.throws(() => parseArgs(['--seed', '1']), /required/);
    assert.throws(() => parseArgs(['--seed', '-1', '--count', '1', '--out', 'x']), /integer/);
    assert.throws(() => parseArgs(['--bogus']), /unknown option/);
  });

  it('looks Blender up on PATH and names the install command', () => {
    assert.equal(findExecutable('blender', '/nonexistent-dir'), null);
    assert.equal(findExecutable('sh', '/bin:/usr/bin') !== null, true);
    assert.equal(INSTALL_COMMAND, 'apt-get install -y blender');
  });
});

describe('L-shaped rooms', () => {
  const L_SPECS = Array.from({ length: 40 }, (_, i) => generateRoomSpec(1, i, { width: 640, height: 480, samples: 16, shapes: ['l'] }));

  it('leaves box rooms as they were: the default draws no shape, and an L never moves the main random stream', () => {
    for (const seed of [1, 7, 11]) {
      for (const index of [0, 1, 2, 5, 12, 20]) {
        const byDefault = generateRoomSpec(seed, index);
        assert.equal(JSON.stringify(byDefault), JSON.stringify(generateRoomSpec(seed, index, { width: 640, height: 480, samples: 16, shapes: ['box'] })));
        assert.equal('blocks' in byDefault.room, false, `${seed}/${index}: a box room has no blocks key`);
      }
    }
    // Where the mixed set draws a box, it is the default set's room.
    let shaped = 0;
    for (let index = 0; index < 60; index++) {
      const mixed = generateRoomSpec(1, index, { width: 640, height: 480, samples: 16, shapes: ['box', 'l'] });
      if (mixed.room.blocks) shaped++;
      else assert.deepEqual(mixed, SPECS[index]);
    }
    assert.ok(shaped > 15 && shaped < 45, `${shaped} of 60 rooms L-shaped`);
    assert.ok(L_SPECS.every((s) => s.room.blocks?.length === 1));
  });

  it('stands the block in a corner the camera sees, leaves legs of floor, and keeps openings, furniture and camera clear of it', () => {
    const corners = new Set<string>();
    for (const spec of L_SPECS) {
      const { width: W, depth: D } = spec.room;
      const b = spec.room.blocks![0]!;
      // Inside the box, touching exactly one of the walls x = 0 / x = W and one of y = 0 / y = D.
      assert.ok(b.min[0] >= 0 && b.max[0] <= W && b.min[1] >= 0 && b.max[1] <= D, `${spec.id} inside`);
      assert.ok((b.min[0] === 0) !== (b.max[0] === W) && (b.min[1] === 0) !== (b.max[1] === D), `${spec.id} touches two walls`);
      corners.add(`${b.min[0] === 0 ? 'w' : 'e'}${b.min[1] === 0 ? 's' : 'n'}`);
      const [sx, sy] = [b.max[0] - b.min[0], b.max[1] - b.min[1]];
      assert.ok(sx >= 0.25 * W - 1e-9 && sx <= 0.5 * W + 1e-9 && sy >= 0.25 * D - 1e-9 && sy <= 0.5 * D + 1e-9, `${spec.id} block size`);
      assert.ok(W - sx >= RANGES.minLeg - 1e-9 && D - sy >= RANGES.minLeg - 1e-9, `${spec.id} legs`);
      const [x, y] = spec.camera.position;
      const clear = RANGES.wallClearance - 1e-9;
      assert.ok(x <= b.min[0] - clear || x >= b.max[0] + clear || y <= b.min[1] - clear || y >= b.max[1] + clear, `${spec.id} camera clear of the block`);
      for (const o of spec.openings) {
        // The wall's part the block covers, widened by the 0.3 m kept from corners.
        const touches = { north: b.max[1] === D, south: b.min[1] === 0, east: b.max[0] === W, west: b.min[0] === 0 }[o.wall];
        if (!touches) continue;
        const [c0, c1] = o.wall === 'north' || o.wall === 'south' ? [b.min[0], b.max[0]] : [b.min[1], b.max[1]];
        assert.ok(o.u1 <= c0 - 0.3 + 1e-9 || o.u0 >= c1 + 0.3 - 1e-9, `${spec.id} ${o.id} on the part of ${o.wall} the block covers`);
      }
      for (const f of spec.furniture) {
        for (const box of f.boxes) {
          const apart = box.max[0] <= b.min[0] || box.min[0] >= b.max[0] || box.max[1] <= b.min[1] || box.min[1] >= b.max[1];
          assert.ok(apart, `${spec.id} ${f.id} through the block`);
        }
      }
      const truth = computeTruth(spec);
      assert.equal(truth.floorPolygon!.length, 6);
      close(Math.abs(polygonArea(truth.floorPolygon!)), W * D - sx * sy, 1e-9, `${spec.id} floor area`);
      const covered = truth.blocks![0]!.faces.reduce((sum, f) => sum + f.area, 0) / (spec.image.width * spec.image.height);
      assert.ok(covered >= RANGES.blockFraction[0] && covered <= RANGES.blockFraction[1], `${spec.id}: the block covers ${covered} of the image`);
      assert.equal(truth.corners.length, 12);
      assert.equal(truth.edges.length, 18);
    }
    assert.equal(corners.size, 4, 'blocks in every corner of the box');
  });

  it('ray-casts the block faces as walls of the orientation they face like, drawn over the box surfaces and openings', () => {
    for (const full of L_SPECS.slice(0, 12)) {
      const spec: RoomSpec = { ...full, image: { width: 160, height: 120 } };
      const truth = computeTruth(spec);
      const layout = castLabels(spec, { layout: true });
      const labels = castLabels(spec, { layout: false });
      const faces = truth.blocks![0]!.faces.filter((f) => f.visible);
      assert.ok(faces.length >= 1, `${spec.id}: no block face in view`);
      for (const f of faces) {
        assert.ok(f.classId >= CLASS_IDS['wall-left'] && f.classId <= CLASS_IDS['wall-back']);
        assert.equal(f.classId, truth.wallClasses[f.wall], `${spec.id} ${f.id} takes ${f.wall}'s class`);
      }
      // The layout is the box's surfaces with the block's faces drawn over them; in labels.png only furniture stands in
      // front of a block face (openings never lie on one).
      let disagreements = 0;
      let notTheFace = 0;
      let notTheOpening = 0;
      for (let j = 0; j < 120; j++) {
        for (let i = 0; i < 160; i++) {
          const p: Vec2 = [i + 0.5, j + 0.5];
          const face = faces.find((f) => pointInPolygon(p, f.polygon));
          const surface = truth.surfaces.find((s) => s.polygon.length > 0 && pointInPolygon(p, s.polygon));
          if ((face ?? surface)?.classId !== layout.data[j * 160 + i]) disagreements++;
          const v = labels.data[j * 160 + i];
          if (face && v !== face.classId && v !== CLASS_IDS.furniture) notTheFace++;
          // An opening's polygon is the part no block hides: the opening, or furniture in front of it.
          const opening = truth.openings.find((o) => o.polygon.length > 0 && pointInPolygon(p, o.polygon));
          if (opening && v !== opening.classId && v !== CLASS_IDS.furniture) notTheOpening++;
        }
      }
      assert.ok(disagreements <= 2, `${spec.id}: ${disagreements} pixels where the polygons and the ray cast disagree`);
      assert.ok(notTheFace <= 2, `${spec.id}: ${notTheFace} pixels of a block face labelled neither as the face nor as furniture`);
      assert.ok(notTheOpening <= 2, `${spec.id}: ${notTheOpening} pixels of an opening's polygon labelled neither as it nor as furniture`);
    }
  });

  it('gives each edge of the outline the part that is in view and that no block hides', () => {
    for (const spec of L_SPECS.slice(0, 20)) {
      const truth = computeTruth(spec);
      const camera = cameraOf(spec);
      const C = spec.camera.position;
      const { width, height } = spec.image;
      for (const side of roomOutline(spec.room)) {
        for (const [level, z] of [['floor', 0], ['ceiling', spec.room.height]] as const) {
          const edge = truth.edges.find((e) => e.id === `${level}-${side.id}`)!;
          for (let k = 0; k < 40; k++) {
            const s = (k + 0.5) / 40;
            const P: Vec3 = [side.a[0] + s * (side.b[0] - side.a[0]), side.a[1] + s * (side.b[1] - side.a[1]), z];
            const { pixel, depth } = projectWorldPoint(camera, P);
            const inView = depth > 0 && pixel[0] >= 0 && pixel[0] <= width && pixel[1] >= 0 && pixel[1] <= height;
            const hit = castShell(spec.room, C, [P[0] - C[0], P[1] - C[1], P[2] - C[2]]);
            const hidden = hit.block >= 0 && hit.t < 1 - 1e-6;
            const onSegment = edge.segment !== null && segmentDistance(pixel, edge.segment) < 1e-6;
            assert.equal(onSegment, inView && !hidden, `${spec.id} ${edge.id} at s = ${s}`);
          }
        }
      }
    }
  });

  it('refuses a block that does not stand in a corner, and parses --shapes', () => {
    const room = { width: 5, depth: 4, height: 2.6, wallThickness: 0.15 };
    assert.throws(() => roomOutline({ ...room, blocks: [{ min: [1, 0], max: [2, 1] }] }), /corner/);
    assert.equal(roomOutline({ ...room, blocks: [{ min: [3, 2.5], max: [5, 4] }] }).length, 6);
    assert.deepEqual(parseArgs(['--seed', '1', '--count', '2', '--out', 'x', '--shapes', 'box,l']).shapes, ['box', 'l']);
    assert.deepEqual(parseArgs(['--seed', '1', '--count', '2', '--out', 'x']).shapes, ['box']);
    assert.throws(() => parseArgs(['--seed', '1', '--count', '2', '--out', 'x', '--shapes', 'u']), /--shapes/);
  });
});
