/**
 * The photo's metric scale: one photo fixes the room only up to scale, so the camera's height above the floor is
 * what turns camera heights into metres. Without a door of known height, two priors give it: the photographer's
 * camera height, and the room's ceiling height, which the layout measures in camera heights when the ceiling line is
 * in view. Each prior alone is uncertain by about a tenth; they are independent, so their product in log space (a
 * Gaussian fusion) is closer than either.
 */

/** Ceiling height of a typical home (US 8–9 ft, 2.44–2.74 m; European flats 2.5–2.8 m; older ones up to 3.2 m). */
export const ROOM_HEIGHT_PRIOR_M = 2.7;
/** Spread of the room height's prior: the standard deviation of its logarithm (about ±9 %). */
export const ROOM_HEIGHT_LOG_SPREAD = 0.09;
/** Spread of the camera height's prior (1.1–1.7 m around 1.5 m: about ±12 %). */
export const CAMERA_HEIGHT_LOG_SPREAD = 0.12;

/**
 * The camera height (metres) that agrees best with both priors, given the room's height measured in camera heights
 * (floor to ceiling over camera to floor).
 */
export function fuseCameraHeight(priorCameraHeight: number, roomHeightInCameraHeights: number): number {
  const fromCeiling = ROOM_HEIGHT_PRIOR_M / roomHeightInCameraHeights;
  const wCamera = 1 / CAMERA_HEIGHT_LOG_SPREAD ** 2;
  const wCeiling = 1 / ROOM_HEIGHT_LOG_SPREAD ** 2;
  return Math.exp((wCamera * Math.log(priorCameraHeight) + wCeiling * Math.log(fromCeiling)) / (wCamera + wCeiling));
}
