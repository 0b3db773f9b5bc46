/** Small numeric helpers the furniture generators share. */

/** `value` kept between `min` and `max` (`max` wins if they cross). */
export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

export function clamp01(value: number): number {
  return clamp(value, 0, 1);
}

/** Rounds to a millimetre: sampled dimensions read as a designer would write them. */
export function mm(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** Rounds to a tenth of a millimetre (the decor and fixtures families sample their sizes at this precision). */
export function round4(value: number): number {
  return Math.round(value * 10000) / 10000;
}
