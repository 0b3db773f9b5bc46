/**
 * The request bodies of the processing operations, one interface per endpoint, field for field as the OpenAPI
 * document (/v1/openapi.json) describes them. test/client.test.ts compares the field table in ./operations.ts, which
 * the compiler ties to these interfaces, with the document of the running code, so neither can drift.
 *
 * `url` and `mask` take an http(s) URL or a `data:` URL (see imageDataUrl in ./data-url.ts). `webhook` makes the
 * answer a pending acknowledgement at once; the signed result is POSTed to it later.
 */

export interface CreativeRedesignRequest {
  url: string;
  /** Style id from styles(). */
  styleId: string;
  /** Room id from rooms(). */
  roomId: string;
  /** Extension: the same request and seed give the same room; the job's result reports the one used. */
  seed?: number;
  webhook?: string;
}

/** Exactly one of `roomId` and `furnitureId` (the server answers 400 naming `/roomId` otherwise). */
export interface FurnishRequest {
  url: string;
  /** Area to furnish; the image's dimensions. */
  mask?: string;
  styleId: string;
  roomId?: string;
  /** Furniture id from furnitures(). */
  furnitureId?: string;
  /** Leave windows and doors untouched; ignored with a mask. */
  preserveWindows?: boolean;
  /** Extension: the same request and seed give the same pixels; the job's result reports the one used. */
  seed?: number;
  webhook?: string;
}

export type SmartStagingV2Room =
  | 'living_room'
  | 'living_dining'
  | 'kitchen_living'
  | 'bedroom'
  | 'dining_room'
  | 'home_office'
  | 'outdoor_terrace'
  | 'kitchen';

export interface SmartStagingV2Request {
  url: string;
  roomId: SmartStagingV2Room;
  styleId: string;
  /** Extension: the same request and seed give the same room; the job's result reports the one used. */
  seed?: number;
  webhook?: string;
}

export type SmartStagingRoom = 'living_room' | 'bedroom' | 'dining_room' | 'home_office' | 'gaming_room';

/** The legacy staging; smart-staging-v2 replaces it. */
export interface SmartStagingRequest {
  url: string;
  roomId: SmartStagingRoom;
  styleId: string;
  /** Extension: the same request and seed give the same room; the job's result reports the one used. */
  seed?: number;
  webhook?: string;
}

/** Without `mask`, the objects the detectors find are removed (2 credits); with it, what the mask marks (1 credit). */
export interface DeclutterRequest {
  url: string;
  mask?: string;
  webhook?: string;
}

export interface UpscaleRequest {
  url: string;
  /** Default 2. */
  scale?: 2 | 3;
  webhook?: string;
}

export interface UpscaleAdvancedRequest {
  url: string;
  /** Default 2. */
  scale?: 2 | 4 | 6;
  webhook?: string;
}

export interface EnhancerRequest {
  url: string;
  /** Replace a grey sky with a blue one. */
  sky_fix?: boolean;
  /** Roomcraft extension: the sky (GET /v1/skies) sky_fix puts in; giving it turns sky_fix on. */
  skyId?: string;
  /** Blur faces and licence plates. */
  auto_privacy?: boolean;
  /** Roomcraft extension: the tone and colour engine, `classical` by default. */
  retouch?: 'classical' | 'learned';
  webhook?: string;
}

/** Roomcraft extension: the sky replaced by the chosen one (the default sky without skyId), the light lifted to suit it. */
export interface SunshineRequest {
  url: string;
  skyId?: string;
  webhook?: string;
}

/**
 * Extension matching the spec's public twin: a room redesigned in a style at a creativity level, only inside `mask`
 * when one is given (the preserve flags are then ignored).
 */
export interface RedesignRequest {
  url: string;
  /** Style id from styles(). */
  styleId: string;
  /** Room id from rooms(). */
  roomId: string;
  /** 0 to 30, the higher the more the room changes; default 15. */
  creativity?: number;
  /** Area that may change; the image's dimensions. */
  mask?: string;
  preserveWindows?: boolean;
  preserveWalls?: boolean;
  preserveCeiling?: boolean;
  preserveFloor?: boolean;
  /** Extension: the same request and seed give the same room; the job's result reports the one used. */
  seed?: number;
  webhook?: string;
}

export type RefreshTransformation = 'walls' | 'floor';

/**
 * Extension matching the spec's public twin: the walls repainted or the floor relaid, nothing else changed. `value`:
 * for walls a `#rrggbb` colour or one of the twin's colour names (`white`, `egg shell`, `black`, `gray`, `blue`,
 * `deep blue`, `olive`, `terracotta`); for floor a material of the catalog (the twin's `parquet`, `tile`, `marble`,
 * `carpet`, `concrete`, `hardwood`, and `light-oak`, `walnut`, `slate-tile`, `terracotta`, `grey-carpet`). See docs/api.md.
 */
export interface RefreshRequest {
  url: string;
  transformation: RefreshTransformation;
  value: string;
  webhook?: string;
}

/** Each endpoint's last path segment and its request body. */
export interface Requests {
  'creative-redesign': CreativeRedesignRequest;
  furnish: FurnishRequest;
  'smart-staging-v2': SmartStagingV2Request;
  'smart-staging': SmartStagingRequest;
  declutter: DeclutterRequest;
  upscale: UpscaleRequest;
  upscale_advanced: UpscaleAdvancedRequest;
  enhancer: EnhancerRequest;
  sunshine: SunshineRequest;
  redesign: RedesignRequest;
  refresh: RefreshRequest;
}

/** A processing operation, named as in its path: POST /v1/<name>. */
export type OperationName = keyof Requests;
