import type { RoomAnalysis } from './analyze-room.js';

export const FACE_COLOURS: Record<string, string> = {
  floor: '#c0702a',
  ceiling: '#8fd3ff',
  'wall-left': '#ff9f1c',
  'wall-front': '#2ecc71',
  'wall-right': '#3b82f6',
  'wall-back': '#b05cff',
};
const AXIS_COLOURS = { x: '#ff3b30', y: '#34c759', z: '#0a84ff' } as const;
const OPENING_COLOURS = { window: '#00e5ff', door: '#ffcc00', 'french-door': '#ff2dd4' } as const;

/**
 * An SVG the size of the photo that shows the analysis for a person to check at a glance: layout faces tinted by
 * label with their boundaries, segments coloured by vanishing direction (x red, y green, z blue, none grey), rays
 * toward each vanishing point, the horizon, openings outlined, and a caption.
 */
export function overlaySvg(analysis: RoomAnalysis): string {
  const { width, height } = analysis.image;
  const unit = Math.max(1, Math.max(width, height) / 800);
  const parts: string[] = [];
  const f = (v: number) => (Math.round(v * 10) / 10).toString();
  const points = (polygon: readonly (readonly [number, number])[]) => polygon.map(([x, y]) => `${f(x)},${f(y)}`).join(' ');

  for (const face of analysis.layout.faces) {
    parts.push(`<polygon points="${points(face.polygon)}" fill="${FACE_COLOURS[face.label] ?? '#fff'}" fill-opacity="0.3" stroke="none"/>`);
  }
  // Rays toward the vanishing points: a fan through the image for each direction.
  const rays: string[] = [];
  analysis.vanishingPoints.forEach((vp) => {
    const colour = AXIS_COLOURS[vp.axis];
    const { cx, cy } = analysis.camera;
    const d = vp.direction;
    const count = 9;
    for (let k = 0; k < count; k++) {
      // Anchors spread along the image's border, each joined to the point (or drawn parallel to it at infinity).
      const t = (k + 0.5) / count;
      const anchor: [number, number] = vp.axis === 'z' ? [t * width, d[1] * (d[2] >= 0 ? 1 : -1) > 0 ? height : 0] : [d[0] * (d[2] >= 0 ? 1 : -1) > 0 ? width : 0, t * height];
      let end: [number, number];
      if (vp.point && Math.hypot(vp.point[0] - cx, vp.point[1] - cy) < 20 * Math.max(width, height)) {
        end = vp.point;
      } else {
        const n = Math.hypot(d[0], d[1]) || 1;
        const sign = anchor[0] === 0 || anchor[1] === 0 ? 1 : -1;
        end = [anchor[0] + (sign * d[0] * 4 * width) / n, anchor[1] + (sign * d[1] * 4 * width) / n];
      }
      rays.push(`<line x1="${f(anchor[0])}" y1="${f(anchor[1])}" x2="${f(end[0])}" y2="${f(end[1])}" stroke="${colour}" stroke-opacity="0.35" stroke-width="${f(unit)}" stroke-dasharray="${f(6 * unit)} ${f(6 * unit)}"/>`);
    }
  });
  parts.push(`<g>${rays.join('')}</g>`);
  for (const b of analysis.layout.boundaries) {
    parts.push(`<line x1="${f(b.from[0])}" y1="${f(b.from[1])}" x2="${f(b.to[0])}" y2="${f(b.to[1])}" stroke="#000" stroke-opacity="0.6" stroke-width="${f(5 * unit)}"/>`);
    parts.push(`<line x1="${f(b.from[0])}" y1="${f(b.from[1])}" x2="${f(b.to[0])}" y2="${f(b.to[1])}" stroke="#fff" stroke-width="${f(2.5 * unit)}"/>`);
  }
  for (const line of analysis.lines) {
    const colour = line.axis ? AXIS_COLOURS[line.axis] : '#bbbbbb';
    parts.push(`<line x1="${f(line.x0)}" y1="${f(line.y0)}" x2="${f(line.x1)}" y2="${f(line.y1)}" stroke="${colour}" stroke-width="${f((line.axis ? 2 : 1) * unit)}" stroke-opacity="${line.axis ? 0.95 : 0.6}"/>`);
  }
  if (analysis.horizon.from && analysis.horizon.to) {
    const { from, to } = analysis.horizon;
    parts.push(`<line x1="${f(from[0])}" y1="${f(from[1])}" x2="${f(to[0])}" y2="${f(to[1])}" stroke="#ffff00" stroke-width="${f(1.5 * unit)}" stroke-dasharray="${f(12 * unit)} ${f(6 * unit)}"/>`);
  }
  for (const opening of analysis.openings) {
    const colour = OPENING_COLOURS[opening.kind];
    parts.push(`<polygon points="${points(opening.polygon)}" fill="${colour}" fill-opacity="0.12" stroke="${colour}" stroke-width="${f(3 * unit)}"/>`);
    const [x, y] = opening.polygon[3] ?? [0, 0];
    parts.push(label(`${opening.kind} ${opening.width.toFixed(2)}×${opening.height.toFixed(2)} m`, x, y - 4 * unit, 12 * unit, colour));
  }
  // The camera's axes from the principal point, as arrows toward each vanishing point.
  const { cx, cy } = analysis.camera;
  const arrow = 60 * unit;
  for (const vp of analysis.vanishingPoints) {
    const d = vp.direction;
    let dx: number;
    let dy: number;
    if (vp.point) {
      dx = vp.point[0] - cx;
      dy = vp.point[1] - cy;
    } else {
      dx = d[0];
      dy = d[1];
    }
    // Show the direction the axis points in front of the camera (toward a point behind it, reversed).
    if (vp.point && d[2] < 0) {
      dx = -dx;
      dy = -dy;
    }
    const n = Math.hypot(dx, dy) || 1;
    const ex = cx + (dx / n) * arrow;
    const ey = cy + (dy / n) * arrow;
    const colour = AXIS_COLOURS[vp.axis];
    parts.push(`<line x1="${f(cx)}" y1="${f(cy)}" x2="${f(ex)}" y2="${f(ey)}" stroke="${colour}" stroke-width="${f(4 * unit)}"/>`);
    parts.push(`<circle cx="${f(ex)}" cy="${f(ey)}" r="${f(5 * unit)}" fill="${colour}"/>`);
  }
  const c = analysis.camera;
  const caption = [
    `lines: ${analysis.lineSource} (${analysis.lines.length})`,
    `focal ${c.focal.toFixed(0)} px, FOV ${c.fovHorizontal.toFixed(1)}°×${c.fovVertical.toFixed(1)}° (${c.focalSource})`,
    `pitch ${c.pitch.toFixed(1)}°  roll ${c.roll.toFixed(1)}°  yaw ${c.yaw.toFixed(1)}°`,
    `confidence: VPs ${analysis.confidence.vanishingPoints.toFixed(2)}, layout ${analysis.confidence.layout.toFixed(2)}`,
    `camera height ${analysis.floorPlane.cameraHeight.toFixed(2)} m (${analysis.floorPlane.cameraHeightSource}); room ${(analysis.layout.box.ceiling - analysis.layout.box.floor).toFixed(2)} m high`,
  ];
  const size = 14 * unit;
  parts.push(`<rect x="0" y="0" width="${f(31 * size)}" height="${f((caption.length + 0.6) * size * 1.3)}" fill="#000" fill-opacity="0.55"/>`);
  caption.forEach((text, i) => parts.push(label(text, 0.5 * size, (i + 1.1) * size * 1.3, size, '#fff')));
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${parts.join('')}</svg>`;
}

function label(text: string, x: number, y: number, size: number, colour: string): string {
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return `<text x="${x.toFixed(1)}" y="${y.toFixed(1)}" font-family="DejaVu Sans, Arial, sans-serif" font-size="${size.toFixed(1)}" fill="${colour}" stroke="#000" stroke-width="${(size / 10).toFixed(2)}" paint-order="stroke">${escaped}</text>`;
}
