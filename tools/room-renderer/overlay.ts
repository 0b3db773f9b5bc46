/**
 * Visual checks: the truth drawn over the beauty render (room edges, openings, vanishing-point line fans, horizon,
 * Blender's projection of the check points), and a colour preview of the label maps.
 */
import sharp, { type OverlayOptions } from 'sharp';
import { type Vec2, type Vec3, clipLineToImage } from './geometry.js';
import type { LabelMap } from './labels.js';
import type { Truth } from './truth.js';

const AXIS_COLOURS = { x: '#ff3b30', y: '#34c759', z: '#0a84ff' } as const;

/** Class colours for previews (index = class id). */
export const CLASS_COLOURS: [number, number, number][] = [
  [0, 0, 0],
  [180, 120, 60],
  [240, 240, 120],
  [70, 130, 230],
  [90, 200, 90],
  [230, 90, 90],
  [180, 90, 220],
  [120, 230, 250],
  [250, 160, 40],
  [255, 255, 255],
];

function lineThrough(p: Vec2, direction: Vec2): Vec3 {
  const a = direction[1];
  const b = -direction[0];
  return [a, b, -(a * p[0] + b * p[1])];
}

function svgLine(seg: [Vec2, Vec2] | null, colour: string, width: number, extra = ''): string {
  if (!seg) return '';
  const [p, q] = seg;
  return `<line x1="${p[0].toFixed(2)}" y1="${p[1].toFixed(2)}" x2="${q[0].toFixed(2)}" y2="${q[1].toFixed(2)}" stroke="${colour}" stroke-width="${width}" ${extra}/>`;
}

/** SVG of the truth over an image of the render's size. `blenderPoints`: Blender's projections, drawn as crosses. */
export function overlaySvg(truth: Truth, blenderPoints: { id: string; pixel: Vec2; depth: number }[] = []): string {
  const { width, height } = truth.image;
  const parts: string[] = [];
  // Vanishing-point fans: lines through each vanishing point (or parallel lines for one at infinity).
  for (const axis of ['x', 'y', 'z'] as const) {
    const vp = truth.vanishingPoints[axis];
    const colour = AXIS_COLOURS[axis];
    if (vp.point) {
      for (let k = 0; k < 36; k++) {
        const theta = (k * Math.PI) / 36;
        const seg = clipLineToImage(lineThrough(vp.point, [Math.cos(theta), Math.sin(theta)]), width, height);
        parts.push(svgLine(seg, colour, 0.6, 'stroke-opacity="0.55"'));
      }
      if (vp.inImage) parts.push(`<circle cx="${vp.point[0]}" cy="${vp.point[1]}" r="5" fill="none" stroke="${colour}" stroke-width="2"/>`);
    } else if (vp.imageDirection) {
      const d = vp.imageDirection;
      const normal: Vec2 = [-d[1], d[0]];
      for (let k = -20; k <= 20; k++) {
        const p: Vec2 = [width / 2 + (normal[0] * k * Math.max(width, height)) / 20, height / 2 + (normal[1] * k * Math.max(width, height)) / 20];
        parts.push(svgLine(clipLineToImage(lineThrough(p, d), width, height), colour, 0.6, 'stroke-opacity="0.55" stroke-dasharray="6 3"'));
      }
    }
  }
  if (truth.horizon.segment) parts.push(svgLine(truth.horizon.segment, '#ffffff', 1, 'stroke-dasharray="8 4"'));
  for (const e of truth.edges) parts.push(svgLine(e.segment, '#ffd60a', 1.5));
  for (const o of truth.openings) {
    if (o.polygon.length === 0) continue;
    const pts = o.polygon.map((p) => `${p[0].toFixed(2)},${p[1].toFixed(2)}`).join(' ');
    parts.push(`<polygon points="${pts}" fill="none" stroke="${o.kind === 'window' ? '#64d2ff' : '#ff9f0a'}" stroke-width="1.5"/>`);
  }
  for (const p of blenderPoints) {
    if (p.depth <= 0) continue;
    const [u, v] = p.pixel;
    parts.push(`<path d="M${u - 4},${v} L${u + 4},${v} M${u},${v - 4} L${u},${v + 4}" stroke="#ff2d55" stroke-width="1.2"/>`);
  }
  for (const c of truth.corners) {
    if (c.pixel && c.inImage && !c.occluded) parts.push(`<circle cx="${c.pixel[0]}" cy="${c.pixel[1]}" r="3" fill="none" stroke="#ffd60a" stroke-width="1"/>`);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${parts.join('')}</svg>`;
}

export async function writeOverlay(beautyPath: string, truth: Truth, outPath: string, blenderPoints: { id: string; pixel: Vec2; depth: number }[] = []): Promise<void> {
  await sharp(beautyPath)
    .composite([{ input: Buffer.from(overlaySvg(truth, blenderPoints)), top: 0, left: 0 }])
    .png()
    .toFile(outPath);
}

function colourise(map: LabelMap): Buffer {
  const out = Buffer.alloc(map.width * map.height * 3);
  for (let i = 0; i < map.data.length; i++) {
    const c = CLASS_COLOURS[map.data[i]!] ?? [255, 0, 255];
    out[3 * i] = c[0];
    out[3 * i + 1] = c[1];
    out[3 * i + 2] = c[2];
  }
  return out;
}

/** Panels side by side: rendered labels, rendered layout, and where each differs from the ray-cast maps (red). */
export async function writeLabelPreview(labels: LabelMap, layout: LabelMap, castLabels: LabelMap, castLayout: LabelMap, outPath: string): Promise<void> {
  const { width, height } = labels;
  const diff = Buffer.alloc(width * height * 3, 40);
  for (let i = 0; i < width * height; i++) {
    if (labels.data[i] !== castLabels.data[i]) diff.set([255, 40, 40], 3 * i);
    if (layout.data[i] !== castLayout.data[i]) diff.set([255, 200, 0], 3 * i);
  }
  const panel = (buf: Buffer): OverlayOptions => ({ input: buf, raw: { width, height, channels: 3 }, top: 0, left: 0 });
  const panels = [colourise(labels), colourise(layout), diff];
  await sharp({ create: { width: width * 3 + 8, height, channels: 3, background: { r: 0, g: 0, b: 0 } } })
    .composite(panels.map((buf, i) => ({ ...panel(buf), left: i * (width + 4) })))
    .png()
    .toFile(outPath);
}

export async function readLabelMap(path: string): Promise<LabelMap> {
  const { data, info } = await sharp(path).raw().toBuffer({ resolveWithObject: true });
  const out = new Uint8Array(info.width * info.height);
  for (let i = 0; i < out.length; i++) out[i] = data[i * info.channels]!;
  return { width: info.width, height: info.height, data: out };
}
