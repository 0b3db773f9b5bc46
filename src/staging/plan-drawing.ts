import type { RoomPlan } from './plan-room.js';
import { blockOutline, type RoomModel } from './room-model.js';

const PIXELS_PER_M = 60;
const MARGIN_PX = 24;

/**
 * The plan seen from above as SVG: the room's walls (the camera's side open) and blocks (grey), windows in blue
 * and doors in orange with their 0.9 m clearance, each piece's footprint with its front edge drawn thicker and its
 * id, and the camera with its view. The job serves it as a small PNG beside the photo.
 */
export function planSvg(room: RoomModel, plan: RoomPlan): string {
  const { left, right, front } = room.box;
  const nearest = 0;
  const width = Math.round((right - left) * PIXELS_PER_M + 2 * MARGIN_PX);
  const height = Math.round((front - nearest) * PIXELS_PER_M + 2 * MARGIN_PX);
  const px = (x: number) => (MARGIN_PX + (x - left) * PIXELS_PER_M).toFixed(1);
  const py = (y: number) => (MARGIN_PX + (front - y) * PIXELS_PER_M).toFixed(1);
  const parts: string[] = [];
  parts.push(`<rect width="${width}" height="${height}" fill="#fbfaf7"/>`);
  parts.push(`<polyline points="${px(left)},${py(nearest)} ${px(left)},${py(front)} ${px(right)},${py(front)} ${px(right)},${py(nearest)}" fill="none" stroke="#333" stroke-width="4"/>`);
  for (const block of room.blocks) {
    const points = blockOutline(block).map(([x, y]) => `${px(x)},${py(y)}`).join(' ');
    parts.push(`<polygon points="${points}" fill="#777" stroke="#333" stroke-width="2"/>`);
  }
  // Door frames (seen only in the photo's lines) dashed, in the doors' colour.
  for (const opening of [...room.openings, ...room.doorFrames.map((frame) => ({ ...frame, kind: 'door-frame' as const }))]) {
    const colour = opening.kind === 'window' ? '#3c8cff' : '#ff9600';
    const [a, b] = opening.wall === 'wall-front'
      ? [[opening.u0, front], [opening.u1, front]]
      : opening.wall === 'wall-left'
        ? [[left, opening.u0], [left, opening.u1]]
        : [[right, opening.u0], [right, opening.u1]];
    const dash = opening.kind === 'door-frame' ? ' stroke-dasharray="8 5"' : '';
    parts.push(`<line x1="${px(a![0]!)}" y1="${py(a![1]!)}" x2="${px(b![0]!)}" y2="${py(b![1]!)}" stroke="${colour}" stroke-width="6"${dash}/>`);
  }
  for (const piece of plan.pieces) {
    const base = piece.placement.corners.slice(0, 4);
    const points = base.map((c) => `${px(c[0])},${py(c[1])}`).join(' ');
    const flat = piece.piece.footprint.height < 0.05;
    parts.push(`<polygon points="${points}" fill="${flat ? '#e8dcc8' : '#b9c7b0'}" fill-opacity="${flat ? 0.6 : 0.9}" stroke="#44553c" stroke-width="1.5"/>`);
    // Corners 0 and 1 are the footprint's front edge (local −y).
    const f0 = base[0]!;
    const f1 = base[1]!;
    parts.push(`<line x1="${px(f0[0])}" y1="${py(f0[1])}" x2="${px(f1[0])}" y2="${py(f1[1])}" stroke="#1d2a18" stroke-width="3"/>`);
    parts.push(`<text x="${px(piece.placement.x)}" y="${py(piece.placement.y)}" font-family="sans-serif" font-size="9" text-anchor="middle" fill="#111">${piece.furnitureId.replace(/_/g, ' ')}</text>`);
  }
  // The camera at the origin, its view a wedge of the photo's horizontal field.
  const half = Math.atan(room.camera.width / 2 / room.camera.focal);
  const r = room.camera.rotation;
  const heading = Math.atan2(r[6], r[7]);
  const reach = Math.min(1.2, front);
  const ray = (angle: number) => `${px(Math.sin(angle) * reach)},${py(Math.cos(angle) * reach)}`;
  parts.push(`<polygon points="${px(0)},${py(0)} ${ray(heading - half)} ${ray(heading + half)}" fill="#ffd23c" fill-opacity="0.35"/>`);
  parts.push(`<circle cx="${px(0)}" cy="${py(0)}" r="5" fill="#c00"/>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${Math.max(height, MARGIN_PX * 3)}">${parts.join('')}</svg>`;
}
