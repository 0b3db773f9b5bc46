import type { Material } from '../../furniture/materials.js';
import type { Vec3 } from '../../furniture/mesh.js';

/**
 * What the staging service hands the Blender repository: the photo's camera, the room's surfaces that catch shadows
 * and bounce light, the lights, and the pieces as meshes. World frame of the room geometry (metres, X right, Y
 * forward, Z up, camera usually at the origin). Nothing here names Blender's API: the repository turns it into a
 * scene and hands back the passes.
 */
export interface RenderScene {
  /** Full image size in pixels: the photo's. */
  width: number;
  height: number;
  /**
   * The part of the image to render, in pixels ([x0, x1) × [y0, y1), y down). Passes come back at this size; the
   * rest of the photo is never touched. Default: the whole image.
   */
  region?: { x0: number; y0: number; x1: number; y1: number };
  /** Cycles samples per pixel. */
  samples: number;
  /**
   * Cycles' adaptive sampling: a pixel stops once its estimated noise is under this threshold. Default 0.01; 0 turns
   * adaptive sampling off (every pixel gets every sample: a reference render).
   */
  adaptiveThreshold?: number;
  /** Render threads; 0 lets Blender use every core. */
  threads: number;
  /** Noise seed of the sampler: with the same scene and seed the same pixels. */
  seed: number;
  camera: {
    /** Focal length in pixels. */
    focal: number;
    /** Principal point in pixels. */
    cx: number;
    cy: number;
    /** World-to-camera rotation, row-major, OpenCV axes (x right, y down, z forward). */
    rotation: number[];
    /** Centre of projection, world metres. */
    position: Vec3;
  };
  /** Floor and walls: shadow catchers with the photo's colours as albedo, so the pieces get shadows and coloured bounce. */
  surfaces: RenderSurface[];
  /**
   * The photo, projected from the camera as the surfaces' albedo, divided by `irradiance` (the photo's brightness of a
   * white surface) so that a surface reflects what the photo shows it reflecting. The caller hands the pixels to
   * render(); the repository writes them and fills `path` (a caller may give a PNG's path instead).
   */
  photo?: { irradiance: number; path?: string };
  lights: RenderLight[];
  /** A uniform world light for what no window reaches (linear RGB, strength as Blender's background). */
  ambient: { color: Vec3; strength: number };
  pieces: RenderPiece[];
  /**
   * Light calibration: before the final render, the empty room is rendered small with white surfaces, and every
   * light is scaled so that the median ratio of `target` (linear luminance of a white surface at that pixel, from the
   * photo) to the rendered value is 1. Pixels are full-image coordinates.
   */
  calibration?: { samples: { x: number; y: number; target: number }[] };
}

export interface RenderSurface {
  name: string;
  /** Planar polygon, world metres, counter-clockwise seen from inside the room (its normal points into the room). */
  polygon: Vec3[];
  /** Whether it only catches shadows and light (floor, walls) or also hides the pieces behind it (a wall in front). */
  role: 'catcher' | 'holdout';
}

export type RenderLight =
  | {
      kind: 'area';
      /** Centre of the rectangle, world metres. */
      center: Vec3;
      /** Direction the light shines (into the room). */
      direction: Vec3;
      /** The rectangle's up direction (its height runs along it). */
      up: Vec3;
      width: number;
      height: number;
      /** Linear RGB, Watts as Blender counts them. */
      color: Vec3;
      power: number;
      /**
       * Whether glossy surfaces mirror it (default true): a window does; a light that stands for diffuse light from a
       * whole side of the room does not (its reflection would be a bright panel that no real room has).
       */
      glossy?: boolean;
    }
  | {
      kind: 'sun';
      /** Direction towards the sun. */
      toward: Vec3;
      /** Apparent diameter, degrees (0.53 for the real sun; wider for softer shadows). */
      angle: number;
      color: Vec3;
      /** Irradiance, W/m² as Blender counts it. */
      strength: number;
    };

export interface RenderPiece {
  name: string;
  /** Piece frame to world, row-major 4×4. */
  matrix: number[];
  parts: { name: string; vertices: number[]; faces: number[][]; material: string; grain?: 'x' | 'y' | 'z' }[];
  materials: Record<string, Material>;
}

/** The passes, region-sized, rows top to bottom, linear light. */
export interface RenderPasses {
  width: number;
  height: number;
  /** The pieces, premultiplied RGBA. */
  pieces: Float32Array;
  /** Shadow-catcher ratio, RGB: what the photo's light becomes where the pieces shadow or light the room (1 = unchanged). */
  shadow: Float32Array;
  /**
   * What each pixel sees first, nearly free of noise at any sample count (Cycles' denoising feature passes): albedo
   * (RGB), normal (world XYZ) and depth (metres, one value). They guide the denoising of the pieces; a renderer that
   * has none leaves them out and the pieces are composited as rendered.
   */
  guides?: { albedo: Float32Array; normal: Float32Array; depth: Float32Array };
  /** Scale the calibration applied to every light (1 without calibration). */
  lightScale: number;
  /** Seconds Blender spent, start to exit. */
  seconds: number;
  /** Blender's peak resident memory, MiB. */
  peakMemoryMiB: number;
}
