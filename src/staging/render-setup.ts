import type { PieceGeometry } from '../furniture/generator.js';
import type { RenderScene, RenderSurface } from '../repositories/blender/render-scene.js';
import type { Vec3 } from '../vision/geometry/vec3.js';
import type { LightEstimate } from './light-estimate.js';
import type { Placement } from './place-piece.js';
import { projectWorld, type RoomModel } from './room-model.js';

/**
 * How far past a piece's footprint its shadows may fall on the floor and wall: soft window light behind a piece
 * throws its shadow well forward (measured on the known-answer scenes: 0.6 m cut shadows off along the region's edge).
 * What still reaches past it fades out (compositeRenderedLayer's fadeEdges).
 */
const SHADOW_REACH_M = 1.2;
/** Pixels added around the rendered region for the soft edge of the shadows. */
const REGION_MARGIN_PX = 8;
/** How far the floor reaches behind the camera: light from the camera's side bounces off it. */
const FLOOR_BEHIND_CAMERA_M = 3;

export interface Region {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * The part of the photo that can change: the pieces' boxes and the floor and wall around their footprints where
 * their shadows fall. Only this region is rendered (a border render): the rest of the photo costs nothing.
 */
export function renderRegion(room: RoomModel, placements: readonly Placement[]): Region {
  const boxes = placements.map((p) => pieceRegion(room, p)).filter((b): b is Region => b !== undefined);
  if (boxes.length === 0) return { x0: 0, y0: 0, x1: room.camera.width, y1: room.camera.height };
  return boxes.reduce(union);
}

/**
 * A gap narrower than this share of the photo's longer side between two pieces' regions is rendered with them: a
 * shadow may cross it, and each region's shadow fades out before its inner edges, which would leave a pale seam.
 */
const SEPARATE_REGION_GAP_SHARE = 0.04;
/**
 * Two regions are rendered as one when their bounding box is at most this much larger than the two together: a
 * Blender run of its own costs about two seconds (start, scene, light calibration), a few per cent of a room's render.
 */
const SEPARATE_REGION_MIN_SAVING = 1.15;

/**
 * The changing part of the photo as a few disjoint rectangles, each rendered on its own: a room's pieces stand in
 * groups (a sofa with its table and art, a sideboard across the room), and the floor between groups, which one
 * rectangle would render pixel by pixel as shadow catcher, can change no more than any other untouched floor.
 * Regions closer than SEPARATE_REGION_GAP_SHARE of the longer side, or whose bounding box costs little more than
 * they do, are merged, so the rectangles returned are at least that far apart and never overlap.
 */
export function renderRegions(room: RoomModel, placements: readonly Placement[]): Region[] {
  let regions = placements.map((p) => pieceRegion(room, p)).filter((b): b is Region => b !== undefined);
  if (regions.length === 0) return [{ x0: 0, y0: 0, x1: room.camera.width, y1: room.camera.height }];
  const gap = SEPARATE_REGION_GAP_SHARE * Math.max(room.camera.width, room.camera.height);
  for (let merged = true; merged; ) {
    merged = false;
    search: for (let i = 0; i < regions.length; i++) {
      for (let j = i + 1; j < regions.length; j++) {
        const a = regions[i]!;
        const b = regions[j]!;
        const apart = Math.max(a.x0 - b.x1, b.x0 - a.x1, a.y0 - b.y1, b.y0 - a.y1);
        if (apart < gap || area(union(a, b)) <= SEPARATE_REGION_MIN_SAVING * (area(a) + area(b))) {
          regions = [...regions.filter((_, k) => k !== i && k !== j), union(a, b)];
          merged = true;
          break search;
        }
      }
    }
  }
  return regions.sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
}

/** One piece's region: its box, the floor around its footprint out to SHADOW_REACH_M and the wall above it. */
function pieceRegion(room: RoomModel, placement: Placement): Region | undefined {
  const { width, height } = room.camera;
  const points: [number, number][] = [];
  for (const corner of placement.corners) {
    const p = projectWorld(room.camera, corner);
    if (p) points.push(p);
  }
  const base = placement.corners.slice(0, 4);
  const cx = base.reduce((s, c) => s + c[0], 0) / 4;
  const cy = base.reduce((s, c) => s + c[1], 0) / 4;
  for (const c of base) {
    const dx = c[0] - cx;
    const dy = c[1] - cy;
    const length = Math.hypot(dx, dy) || 1;
    const reach: Vec3 = [
      Math.min(room.box.right, Math.max(room.box.left, c[0] + (dx / length) * SHADOW_REACH_M)),
      Math.min(room.box.front, c[1] + (dy / length) * SHADOW_REACH_M),
      c[2],
    ];
    const p = projectWorld(room.camera, reach);
    if (p) points.push(p);
  }
  // The shadow on the wall behind a piece reaches up to about its height above it.
  for (const c of placement.corners.slice(4)) {
    const p = projectWorld(room.camera, [c[0], c[1], c[2] + SHADOW_REACH_M * 0.5]);
    if (p) points.push(p);
  }
  if (points.length === 0) return undefined;
  const clamp = (v: number, max: number) => Math.min(max, Math.max(0, v));
  const region = {
    x0: clamp(Math.floor(Math.min(...points.map((p) => p[0]))) - REGION_MARGIN_PX, width),
    y0: clamp(Math.floor(Math.min(...points.map((p) => p[1]))) - REGION_MARGIN_PX, height),
    x1: clamp(Math.ceil(Math.max(...points.map((p) => p[0]))) + REGION_MARGIN_PX, width),
    y1: clamp(Math.ceil(Math.max(...points.map((p) => p[1]))) + REGION_MARGIN_PX, height),
  };
  return region.x1 > region.x0 && region.y1 > region.y0 ? region : undefined;
}

function union(a: Region, b: Region): Region {
  return { x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) };
}

function area(r: Region): number {
  return (r.x1 - r.x0) * (r.y1 - r.y0);
}

/** The room's floor and walls as shadow-catching surfaces (the camera's side of the room stays open). */
export function roomSurfaces(room: RoomModel): RenderSurface[] {
  const { left: l, right: r, front: f, floor: z0, ceiling: z1 } = room.box;
  const b = -FLOOR_BEHIND_CAMERA_M;
  return [
    { name: 'floor', role: 'catcher', polygon: [[l, b, z0], [r, b, z0], [r, f, z0], [l, f, z0]] },
    { name: 'wall-front', role: 'catcher', polygon: [[l, f, z0], [r, f, z0], [r, f, z1], [l, f, z1]] },
    { name: 'wall-left', role: 'catcher', polygon: [[l, b, z0], [l, f, z0], [l, f, z1], [l, b, z1]].reverse() as Vec3[] },
    { name: 'wall-right', role: 'catcher', polygon: [[r, f, z0], [r, b, z0], [r, b, z1], [r, f, z1]].reverse() as Vec3[] },
  ];
}

export function renderScene(args: {
  room: RoomModel;
  light: LightEstimate;
  pieces: { name: string; placement: Placement; geometry: PieceGeometry }[];
  region: { x0: number; y0: number; x1: number; y1: number };
  samples: number;
  threads: number;
  seed: number;
}): RenderScene {
  const { room, light } = args;
  return {
    width: room.camera.width,
    height: room.camera.height,
    region: args.region,
    samples: args.samples,
    threads: args.threads,
    seed: args.seed,
    camera: { focal: room.camera.focal, cx: room.camera.cx, cy: room.camera.cy, rotation: [...room.camera.rotation], position: [0, 0, 0] },
    surfaces: roomSurfaces(room),
    photo: { irradiance: light.whiteLevel },
    lights: light.lights.map(({ from: _from, ...l }) => l),
    ambient: light.ambient,
    pieces: args.pieces.map(({ name, placement, geometry }) => ({
      name,
      matrix: placement.matrix,
      parts: geometry.parts.map((part) => ({
        name: part.name,
        vertices: part.mesh.vertices.flat(),
        faces: part.mesh.faces,
        material: part.material,
        ...(part.grain ? { grain: part.grain } : {}),
      })),
      materials: geometry.materials,
    })),
    calibration: { samples: light.calibration },
  };
}

/**
 * Where a scene rendered at a reduced resolution puts a full-image point: render pixel (u', v') = (scale · u,
 * scale · v + offsetY) in continuous coordinates (a pixel's centre at +0.5), the rendered region starting at render
 * pixel (x0, y0). At scale 1 the render's pixels are the photo's and (x0, y0) the region's origin.
 */
export interface RenderGrid {
  scale: number;
  offsetY: number;
  x0: number;
  y0: number;
  width: number;
  height: number;
}

/** Render pixels added around the scaled region so that the resampling kernel has neighbours at its edges. */
const SCALED_REGION_MARGIN = 3;

/**
 * The scene rendered as if the photo had at most `maxPixels` pixels: the same camera (the frame is the same up to a
 * quarter of a render pixel in height, which `offsetY` accounts for), the image, principal point, focal length,
 * region and calibration points scaled, and the grid that maps the photo's pixels onto the render's. A photo that
 * is already small enough is rendered as it is (scale 1).
 *
 * Rendering a 12 MP photo's region at its full resolution costs its pixels × samples; a phone's 12 MP photo is not
 * pixel-sharp (demosaicing, noise reduction, JPEG), and the region resampled up matches its sharpness.
 */
export function scaleRenderScene(scene: RenderScene, maxPixels: number): { scene: RenderScene; grid: RenderGrid } {
  const region = scene.region ?? { x0: 0, y0: 0, x1: scene.width, y1: scene.height };
  if (!(maxPixels > 0) || scene.width * scene.height <= maxPixels) {
    return { scene, grid: { scale: 1, offsetY: 0, x0: region.x0, y0: region.y0, width: region.x1 - region.x0, height: region.y1 - region.y0 } };
  }
  const width = Math.max(1, Math.round(scene.width * Math.sqrt(maxPixels / (scene.width * scene.height))));
  const scale = width / scene.width;
  const height = Math.max(1, Math.round(scene.height * scale));
  // Blender keeps the frame's centre and its horizontal extent: v' − height/2 = scale · (v − H/2).
  const offsetY = (height - scale * scene.height) / 2;
  const m = SCALED_REGION_MARGIN;
  const x0 = Math.max(0, Math.floor(scale * region.x0) - m);
  const x1 = Math.min(width, Math.ceil(scale * region.x1) + m);
  const y0 = Math.max(0, Math.floor(scale * region.y0 + offsetY) - m);
  const y1 = Math.min(height, Math.ceil(scale * region.y1 + offsetY) + m);
  const { camera } = scene;
  return {
    scene: {
      ...scene,
      width,
      height,
      region: { x0, y0, x1, y1 },
      camera: { ...camera, focal: camera.focal * scale, cx: camera.cx * scale, cy: camera.cy * scale + offsetY },
      ...(scene.calibration ? { calibration: { samples: scene.calibration.samples.map((p) => ({ ...p, x: p.x * scale, y: p.y * scale + offsetY })) } } : {}),
    },
    grid: { scale, offsetY, x0, y0, width: x1 - x0, height: y1 - y0 },
  };
}
