import type { Random } from '../../random.js';
import { capped, defineGenerator, type Footprint, type PieceGeometry, type PiecePart, type SizeLimits } from '../generator.js';
import { fabric, mixHex, type Material } from '../materials.js';
import { prism, standUp } from '../mesh.js';
import { sweepOutline } from '../mesh-sweep.js';
import { round4 } from '../numbers.js';
import { roundedRect, superellipse, type Pt } from '../outline.js';
import { finish, part, woodGrain } from '../piece.js';
import { styleFamily } from '../style-picks.js';
import type { StyleProfile } from '../styles.js';
import { frameProfile } from './decor.js';

/**
 * Wall art: an abstract painting on canvas in a frame, hung with its centre near eye height (about 1.5 m). The
 * composition is geometry, not an image: a few flat shapes of the style's accent colours a little proud of the
 * canvas (colour bands, a sun and a hill, thin lines), so the renderer lights them like everything else and no image
 * asset is needed. Canvas and paint are woven fabric: paint on canvas shows its weave.
 */

type Composition = 'bands' | 'sun' | 'lines';

/** One painted shape on the canvas: its outline in the canvas's plane (x across from its centre, y up from its foot). */
interface Stroke {
  outline: Pt[];
  color: string;
}

export interface WallArtParams {
  id: string;
  styleId: string;
  /** Overall, frame included. */
  width: number;
  height: number;
  /** 0 for a canvas on a stretcher, unframed. */
  frameWidth: number;
  depth: number;
  composition: Composition;
  strokes: Stroke[];
  elevation: number;
  materials: { frame: Material; canvas: Material };
}

/** How far the paint stands proud of the canvas: enough to be its own surface, too little to cast a shadow. */
const PAINT_THICKNESS_M = 0.0015;
/** A framed canvas's face, as a share of the piece's depth from its back. */
const CANVAS_FACE = 0.6;

export const wallArtGenerator = defineGenerator<WallArtParams>({
  ids: ['wall_art'],
  sample(id: string, style: StyleProfile, random: Random, limits?: SizeLimits): WallArtParams {
    const fam = styleFamily(style);
    const landscape = random.chance(0.75);
    let width = landscape ? random.uniform(0.8, 1.3) : random.uniform(0.5, 0.75);
    let height = landscape ? width * random.uniform(0.55, 0.75) : width * random.uniform(1.25, 1.45);
    width = capped(width, limits?.maxWidth, 0.4);
    height = capped(Math.min(height, landscape ? width * 0.8 : width * 1.5), limits?.maxHeight, 0.35);
    const framed = fam === 'casual' ? random.chance(0.5) : random.chance(0.85);
    const frameWidth = framed ? (fam === 'classic' ? random.uniform(0.04, 0.06) : random.uniform(0.015, 0.03)) : 0;
    const depth = framed ? random.uniform(0.03, 0.04) : random.uniform(0.025, 0.035);
    const frame: Material =
      fam === 'industrial' || fam === 'sleek'
        ? random.chance(0.6)
          ? { kind: 'painted-wood', color: '#1E1E1E', roughness: 0.5 }
          : random.pick(style.metals)
        : fam === 'classic'
          ? random.pick(style.metals)
          : random.chance(0.6)
            ? random.pick(style.woods)
            : { kind: 'painted-wood', color: '#F2F0EB', roughness: 0.5 };
    // The palette: the style's accents, softened toward the canvas so that nothing shouts from the wall.
    const canvasColor = random.pick(['#F4F1EA', '#EEEAE2', '#F7F6F2', mixHex(style.accents[0]!.color, '#F4F1EA', 0.85)]);
    const paints = style.accents.map((a) => mixHex(a.color, canvasColor, random.uniform(0.05, 0.35)));
    paints.push(mixHex(random.pick(style.woods).color, canvasColor, 0.2));
    const composition = random.weighted<Composition>([
      ['bands', fam === 'sleek' || fam === 'industrial' ? 0.45 : 0.35],
      ['sun', fam === 'natural' || fam === 'casual' ? 0.45 : 0.3],
      ['lines', 0.25],
    ]);
    const innerWidth = width - 2 * frameWidth;
    const innerHeight = height - 2 * frameWidth;
    const strokes = compose(composition, innerWidth, innerHeight, paints, random).map((s) => ({
      color: s.color,
      outline: s.outline.map(([x, y]) => [round4(x), round4(y + frameWidth)] as Pt),
    }));
    const elevation = random.uniform(1.45, 1.55) - height / 2;
    return {
      id,
      styleId: style.id,
      width: round4(width),
      height: round4(height),
      frameWidth: round4(frameWidth),
      depth: round4(depth),
      composition,
      strokes,
      elevation: round4(elevation),
      materials: { frame, canvas: fabric('fabric', canvasColor, 0.95) },
    };
  },
  footprint(p: WallArtParams): Footprint {
    return { width: p.width, depth: p.depth, height: p.height, placement: 'on-wall', elevation: p.elevation, frontClearance: 0 };
  },
  build(p: WallArtParams): PieceGeometry {
    // A framed canvas sits back in its frame; an unframed one is the whole depth (its stretcher).
    const face = p.frameWidth > 0 ? p.depth * CANVAS_FACE : p.depth - 0.003;
    const innerWidth = p.width - 2 * p.frameWidth;
    const innerHeight = p.height - 2 * p.frameWidth;
    const canvasOutline = roundedRect(innerWidth, innerHeight, 0.003, 2, 0, p.frameWidth + innerHeight / 2);
    const parts: PiecePart[] = [part('canvas', standUp(prism(canvasOutline, 0, face)), 'canvas')];
    const materials: Record<string, Material> = { canvas: p.materials.canvas };
    p.strokes.forEach((stroke, k) => {
      const key = `paint-${k}`;
      materials[key] = fabric('fabric', stroke.color, 0.92);
      // Each stroke a little prouder than the one under it, so overlapping shapes never share a surface.
      const z0 = face + k * 0.0002;
      parts.push(part(key, standUp(prism(stroke.outline, z0, z0 + PAINT_THICKNESS_M)), key));
    });
    if (p.frameWidth > 0) {
      const opening = roundedRect(innerWidth, innerHeight, 0.001, 1, 0, p.frameWidth + innerHeight / 2);
      parts.push(part('frame', standUp(sweepOutline(opening, frameProfile('flat', p.frameWidth, p.depth))), 'frame', woodGrain(p.materials.frame, 'x').grain));
      materials.frame = p.materials.frame;
    }
    return finish(parts, materials, p.elevation);
  },
});

/**
 * The shapes of a composition on a canvas `w` × `h` (x from −w/2, y from 0), each inside a margin of the canvas:
 * - bands: two or three colour fields stacked, with soft gaps (a colour-field painting);
 * - sun: a disc over a low hill or horizon band (a mid-century landscape);
 * - lines: a few thin vertical or horizontal strokes at uneven spacing (a minimal drawing).
 */
function compose(composition: Composition, w: number, h: number, paints: string[], random: Random): Stroke[] {
  const margin = Math.min(w, h) * random.uniform(0.08, 0.14);
  const left = -w / 2 + margin;
  const right = w / 2 - margin;
  const bottom = margin;
  const top = h - margin;
  const start = random.int(0, paints.length - 1);
  const colours = paints.map((_, k) => paints[(start + k) % paints.length]!);
  const rect = (x0: number, y0: number, x1: number, y1: number): Pt[] => roundedRect(x1 - x0, y1 - y0, 0.004, 2, (x0 + x1) / 2, (y0 + y1) / 2);
  switch (composition) {
    case 'bands': {
      const count = random.chance(0.5) ? 2 : 3;
      const gap = (top - bottom) * 0.04;
      const shares = Array.from({ length: count }, () => random.uniform(0.6, 1.4));
      const total = shares.reduce((a, b) => a + b, 0);
      const out: Stroke[] = [];
      let y = bottom;
      shares.forEach((share, k) => {
        const height = ((top - bottom - gap * (count - 1)) * share) / total;
        out.push({ outline: rect(left, y, right, y + height), color: colours[k % colours.length]! });
        y += height + gap;
      });
      return out;
    }
    case 'sun': {
      const horizon = bottom + (top - bottom) * random.uniform(0.25, 0.4);
      const radius = Math.min(right - left, top - bottom) * random.uniform(0.16, 0.24);
      const cx = random.uniform(left + radius * 1.2, right - radius * 1.2);
      const cy = Math.min(top - radius, horizon + radius * random.uniform(0.9, 1.6));
      return [
        { outline: rect(left, bottom, right, horizon), color: colours[0]! },
        { outline: superellipse(radius, radius, 2, 48, cx, cy), color: colours[1 % colours.length]! },
      ];
    }
    case 'lines': {
      const vertical = random.chance(0.6);
      const count = random.int(3, 5);
      const thickness = Math.min(w, h) * random.uniform(0.012, 0.025);
      const out: Stroke[] = [];
      for (let k = 0; k < count; k++) {
        const t = (k + 0.5 + random.uniform(-0.3, 0.3)) / count;
        const colour = colours[k % 2]!;
        if (vertical) {
          const x = left + (right - left) * t;
          const y0 = bottom + (top - bottom) * random.uniform(0, 0.35);
          const y1 = top - (top - bottom) * random.uniform(0, 0.35);
          out.push({ outline: rect(x - thickness / 2, y0, x + thickness / 2, y1), color: colour });
        } else {
          const y = bottom + (top - bottom) * t;
          const x0 = left + (right - left) * random.uniform(0, 0.35);
          const x1 = right - (right - left) * random.uniform(0, 0.35);
          out.push({ outline: rect(x0, y - thickness / 2, x1, y + thickness / 2), color: colour });
        }
      }
      return out;
    }
  }
}
