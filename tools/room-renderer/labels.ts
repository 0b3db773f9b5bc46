/**
 * A ray caster for the label maps, computed from the spec: the independent check of Blender's labels.png and
 * layout.png. One ray per pixel centre (u, v) = (i + 0.5, j + 0.5), like Blender's label pass (one sample, a 0.01-pixel
 * box filter).
 */
import { type Vec3, mulMatVec, pixelRay, transpose } from './geometry.js';
import { CLASS_IDS, type RoomSpec, type SurfaceId, cameraOf, castShell, surfaceClass } from './spec.js';

export interface LabelMap {
  width: number;
  height: number;
  /** Class id per pixel, row-major. */
  data: Uint8Array;
}

/**
 * Label map of the room. `layout`: the room's shell only (floor, ceiling, walls and the blocks' faces, which take the
 * class of the wall they face like; openings and furniture ignored), as in layout.png; otherwise what the camera sees,
 * with openings and furniture, as in labels.png.
 */
export function castLabels(spec: RoomSpec, options: { layout: boolean }): LabelMap {
  const camera = cameraOf(spec);
  const k = camera.intrinsics;
  const Rt = transpose(camera.R);
  const C = camera.C;
  const { width, height } = spec.image;
  const data = new Uint8Array(width * height);
  const classOf = {} as Record<SurfaceId, number>;
  for (const s of ['floor', 'ceiling', 'north', 'east', 'south', 'west'] as const) classOf[s] = surfaceClass(s, spec.camera.yawDeg);
  const boxes = options.layout ? [] : spec.furniture.flatMap((f) => f.boxes);
  const openings = options.layout ? [] : spec.openings;

  for (let j = 0; j < height; j++) {
    for (let i = 0; i < width; i++) {
      const d: Vec3 = mulMatVec(Rt, pixelRay(k, i + 0.5, j + 0.5));
      const shell = castShell(spec.room, C, d);
      let t = shell.t;
      const surface = shell.surface;
      let label = classOf[surface];
      // Openings lie only on the box's walls, never on a block's face.
      if (openings.length > 0 && shell.block < 0 && surface !== 'floor' && surface !== 'ceiling') {
        const u = surface === 'north' || surface === 'south' ? C[0] + t * d[0] : C[1] + t * d[1];
        const z = C[2] + t * d[2];
        for (const o of openings) {
          if (o.wall === surface && u > o.u0 && u < o.u1 && z > o.z0 && z < o.z1) {
            label = o.kind === 'window' ? CLASS_IDS.window : CLASS_IDS.door;
            break;
          }
        }
      }
      for (const b of boxes) {
        let t0 = 0;
        let t1 = t;
        for (let a = 0; a < 3 && t0 <= t1; a++) {
          const da = d[a]!;
          const ca = C[a]!;
          if (da === 0) {
            if (ca < b.min[a]! || ca > b.max[a]!) t1 = -1;
            continue;
          }
          let ta = (b.min[a]! - ca) / da;
          let tb = (b.max[a]! - ca) / da;
          if (ta > tb) [ta, tb] = [tb, ta];
          t0 = Math.max(t0, ta);
          t1 = Math.min(t1, tb);
        }
        if (t0 <= t1 && t0 > 0 && t0 < t) {
          t = t0;
          label = CLASS_IDS.furniture;
        }
      }
      data[j * width + i] = label;
    }
  }
  return { width, height, data };
}

export interface LabelComparison {
  pixels: number;
  mismatched: number;
  fraction: number;
  /** Mismatched pixels whose 3×3 neighbourhood in the reference holds more than one class (label boundaries). */
  mismatchedOnBoundaries: number;
  /** Confusions "expected→found": count. */
  confusions: Record<string, number>;
  /** The first 200 mismatched pixels, [column, row]. */
  mismatchedPixels: [number, number][];
}

/** Compares a rendered label map with the ray-cast one. */
export function compareLabels(expected: LabelMap, found: LabelMap): LabelComparison {
  const { width, height } = expected;
  let mismatched = 0;
  let onBoundary = 0;
  const confusions: Record<string, number> = {};
  const mismatchedPixels: [number, number][] = [];
  for (let j = 0; j < height; j++) {
    for (let i = 0; i < width; i++) {
      const e = expected.data[j * width + i]!;
      const f = found.data[j * width + i]!;
      if (e === f) continue;
      mismatched++;
      if (mismatchedPixels.length < 200) mismatchedPixels.push([i, j]);
      const key = `${e}->${f}`;
      confusions[key] = (confusions[key] ?? 0) + 1;
      let boundary = false;
      for (let dj = -1; dj <= 1 && !boundary; dj++) {
        for (let di = -1; di <= 1; di++) {
          const jj = j + dj;
          const ii = i + di;
          if (jj < 0 || ii < 0 || jj >= height || ii >= width) continue;
          if (expected.data[jj * width + ii] !== e) {
            boundary = true;
            break;
          }
        }
      }
      if (boundary) onBoundary++;
    }
  }
  return { pixels: width * height, mismatched, fraction: mismatched / (width * height), mismatchedOnBoundaries: onBoundary, confusions, mismatchedPixels };
}
