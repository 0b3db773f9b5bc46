/**
 * CIEDE2000 colour difference (CIE 142-2001), as written out by Sharma, Wu & Dalal, "The CIEDE2000 color-difference
 * formula: implementation notes, supplementary test data, and mathematical observations" (2005), with kL = kC = kH = 1.
 * Inputs are CIELAB (src/vision/colour.ts labOfLinearRgb). Checked against pairs 1, 7, 17, 25 and 34 of that
 * paper's table 1 (2.0425, 2.3669, 27.1492, 1.2644, 2.0373).
 */
import type { Lab } from '../src/vision/colour.js';

const DEG = Math.PI / 180;
const POW25_7 = 25 ** 7;

export function ciede2000(p: Readonly<Lab>, q: Readonly<Lab>): number {
  const L1 = p.lightness;
  const L2 = q.lightness;
  const C1 = Math.hypot(p.a, p.b);
  const C2 = Math.hypot(q.a, q.b);
  const meanC = (C1 + C2) / 2;
  const meanC7 = meanC ** 7;
  const G = 0.5 * (1 - Math.sqrt(meanC7 / (meanC7 + POW25_7)));
  const a1 = (1 + G) * p.a;
  const a2 = (1 + G) * q.a;
  const c1 = Math.hypot(a1, p.b);
  const c2 = Math.hypot(a2, q.b);
  const hue = (b: number, a: number): number => {
    if (a === 0 && b === 0) return 0;
    const h = Math.atan2(b, a) / DEG;
    return h < 0 ? h + 360 : h;
  };
  const h1 = hue(p.b, a1);
  const h2 = hue(q.b, a2);

  const dL = L2 - L1;
  const dC = c2 - c1;
  let dh = 0;
  if (c1 * c2 !== 0) {
    dh = h2 - h1;
    if (dh > 180) dh -= 360;
    else if (dh < -180) dh += 360;
  }
  const dH = 2 * Math.sqrt(c1 * c2) * Math.sin((dh / 2) * DEG);

  const meanL = (L1 + L2) / 2;
  const meanc = (c1 + c2) / 2;
  let meanh = h1 + h2;
  if (c1 * c2 !== 0) {
    if (Math.abs(h1 - h2) <= 180) meanh = (h1 + h2) / 2;
    else meanh = h1 + h2 < 360 ? (h1 + h2 + 360) / 2 : (h1 + h2 - 360) / 2;
  }
  const T =
    1 -
    0.17 * Math.cos((meanh - 30) * DEG) +
    0.24 * Math.cos(2 * meanh * DEG) +
    0.32 * Math.cos((3 * meanh + 6) * DEG) -
    0.2 * Math.cos((4 * meanh - 63) * DEG);
  const dTheta = 30 * Math.exp(-(((meanh - 275) / 25) ** 2));
  const meanc7 = meanc ** 7;
  const RC = 2 * Math.sqrt(meanc7 / (meanc7 + POW25_7));
  const l50 = (meanL - 50) ** 2;
  const SL = 1 + (0.015 * l50) / Math.sqrt(20 + l50);
  const SC = 1 + 0.045 * meanc;
  const SH = 1 + 0.015 * meanc * T;
  const RT = -Math.sin(2 * dTheta * DEG) * RC;
  const tl = dL / SL;
  const tc = dC / SC;
  const th = dH / SH;
  return Math.sqrt(tl * tl + tc * tc + th * th + RT * tc * th);
}
