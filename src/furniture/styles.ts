import { fabric, metal, plain, wood, type Material } from './materials.js';

/** Leg types of seating, tables and case goods. */
export type LegKind = 'tapered' | 'splayed' | 'turned' | 'block' | 'hairpin' | 'metal-square' | 'sled' | 'plinth' | 'bun' | 'cabriole';
/** Arm types of sofas and armchairs. */
export type ArmKind = 'track' | 'slope' | 'rolled' | 'curved' | 'slim' | 'wide';
export type HandleKind = 'bar' | 'knob' | 'cup' | 'ring' | 'none';

/**
 * What a style does to every piece at once: proportions, arm, leg and handle types, edge softness and materials
 * (after Infinigen's factories: a style drives the shape, not just the colour). The generators sample inside these.
 */
export interface StyleProfile {
  id: string;
  legs: readonly LegKind[];
  arms: readonly ArmKind[];
  handles: readonly HandleKind[];
  /** Edge radius of upholstered blocks, metres (0.015 crisp … 0.07 pillowy). */
  softness: number;
  /** Edge radius of tops and carcasses, metres. */
  edge: number;
  /** Seat height of sofas and chairs, metres. */
  seatHeight: readonly [number, number];
  /** Overall height of sofas, metres. */
  sofaHeight: readonly [number, number];
  /** Visible leg height under upholstery, metres (plinth styles sit almost on the floor). */
  legHeight: readonly [number, number];
  /** How far cushion tops sag in their middle, metres. */
  sag: number;
  tufted: boolean;
  /** Probability of round or oval tops where a table can be either. */
  roundness: number;
  woods: readonly Material[];
  /** Carcass finishes of cabinets and storage (wood or paint). */
  cases: readonly Material[];
  upholstery: readonly Material[];
  /** Throw cushions and accents. */
  accents: readonly Material[];
  metals: readonly Material[];
  stones: readonly Material[];
  ceramics: readonly Material[];
  rugs: readonly Material[];
}

const oak = wood('#C8A57A', '#9C7A50');
const birch = wood('#DCC7A1', '#B79A6E', 0.5, 0.009);
const walnut = wood('#6B4429', '#3E2513', 0.4);
const teak = wood('#8E5B30', '#5E3818', 0.4);
const mahogany = wood('#6A2C1C', '#3D140C', 0.3);
const ash = wood('#D3C1A2', '#A89070', 0.5, 0.01);
const reclaimed = wood('#7E604A', '#4B3626', 0.7, 0.02);
const whitewashed = wood('#E6DFD2', '#C4B8A4', 0.6, 0.014);
const oliveWood = wood('#AD9063', '#5E4630', 0.45, 0.008);
const roughTimber = wood('#735038', '#432C1C', 0.75, 0.025);
const ebonised = wood('#2B2420', '#141110', 0.35, 0.012);

const brushedSteel = metal('#B8B8B8', 0.3, true);
const blackMetal = metal('#1E1E1E', 0.45);
const brass = metal('#C9A44C', 0.22);
const polishedBrass = metal('#D8B45A', 0.12);
const matteMetal = metal('#6E6A64', 0.5);
const wroughtIron = metal('#262422', 0.6);
const chrome = metal('#E2E2E2', 0.05);

const whiteMarble: Material = { kind: 'marble', color: '#EEEBE6', secondary: '#8E8A86', roughness: 0.15, scale: 0.25 };
const blackMarble: Material = { kind: 'marble', color: '#1C1B1B', secondary: '#D8D2C6', roughness: 0.12, scale: 0.3 };
const travertine: Material = { kind: 'stone', color: '#D8C8AE', secondary: '#B8A283', roughness: 0.6, scale: 0.08 };
const concrete = plain('concrete', '#A7A49F', 0.8);
const naturalStone: Material = { kind: 'stone', color: '#8D877C', secondary: '#5F5A52', roughness: 0.8, scale: 0.15 };

const linen = (color: string) => fabric('fabric', color, 0.92);
const boucle = (color: string) => fabric('boucle', color, 0.95);
const velvet = (color: string) => fabric('velvet', color, 0.6);
const leather = (color: string, roughness = 0.45): Material => ({ kind: 'leather', color, roughness, scale: 0.01 });
const ceramic = (color: string, roughness = 0.25) => plain('ceramic', color, roughness);
const lacquer = (color: string, roughness = 0.25) => plain('lacquer', color, roughness);
const painted = (color: string) => plain('painted-wood', color, 0.55);
const rug = (color: string, secondary: string, pattern: Material['pattern']): Material => ({ kind: 'rug', color, secondary, roughness: 0.95, pattern, scale: 0.004 });

export const STYLE_PROFILES: readonly StyleProfile[] = [
  {
    id: 'modern',
    legs: ['metal-square', 'plinth', 'block'],
    arms: ['track', 'slim'],
    handles: ['bar', 'none'],
    softness: 0.02,
    edge: 0.003,
    seatHeight: [0.42, 0.45],
    sofaHeight: [0.72, 0.8],
    legHeight: [0.04, 0.12],
    sag: 0.006,
    tufted: false,
    roundness: 0.25,
    woods: [walnut, ebonised],
    cases: [lacquer('#F2F1EE'), lacquer('#2B2B2B'), walnut],
    upholstery: [leather('#2B2B2B', 0.4), linen('#8C8C88'), linen('#D9D6D0')],
    accents: [linen('#B08D57'), linen('#F5F5F2'), velvet('#2B2B2B')],
    metals: [brushedSteel, blackMetal, chrome],
    stones: [whiteMarble, concrete],
    ceramics: [ceramic('#F5F5F2'), ceramic('#2B2B2B', 0.4)],
    rugs: [rug('#8C8C88', '#D9D6D0', 'plain'), rug('#D9D6D0', '#2B2B2B', 'border')],
  },
  {
    id: 'contemporary',
    legs: ['plinth', 'block', 'metal-square'],
    arms: ['curved', 'track'],
    handles: ['cup', 'bar'],
    softness: 0.05,
    edge: 0.006,
    seatHeight: [0.41, 0.44],
    sofaHeight: [0.7, 0.78],
    legHeight: [0.02, 0.06],
    sag: 0.012,
    tufted: false,
    roundness: 0.6,
    woods: [oak, ash],
    cases: [oak, lacquer('#CFC6BA', 0.4)],
    upholstery: [boucle('#EFEBE6'), boucle('#CFC6BA'), linen('#9A8F84')],
    accents: [linen('#7D8B7A'), boucle('#EFEBE6'), linen('#4A4642')],
    metals: [matteMetal, brass],
    stones: [travertine, whiteMarble],
    ceramics: [ceramic('#CFC6BA', 0.5), ceramic('#EFEBE6', 0.45)],
    rugs: [rug('#CFC6BA', '#9A8F84', 'plain'), rug('#EFEBE6', '#9A8F84', 'border')],
  },
  {
    id: 'scandinavian',
    legs: ['tapered', 'splayed'],
    arms: ['slim', 'track'],
    handles: ['knob', 'cup', 'none'],
    softness: 0.03,
    edge: 0.004,
    seatHeight: [0.42, 0.46],
    sofaHeight: [0.76, 0.84],
    legHeight: [0.12, 0.18],
    sag: 0.01,
    tufted: false,
    roundness: 0.45,
    woods: [oak, birch],
    cases: [birch, painted('#FFFFFF'), oak],
    upholstery: [linen('#E8E4DC'), linen('#8FA3AD'), fabric('fabric', '#BDBAB4', 0.95)],
    accents: [linen('#8FA3AD'), linen('#C9A97C'), fabric('fabric', '#FFFFFF', 0.95)],
    metals: [blackMetal, matteMetal],
    stones: [whiteMarble],
    ceramics: [ceramic('#FFFFFF', 0.35), ceramic('#E8E4DC', 0.5)],
    rugs: [rug('#E8E4DC', '#3E3E3E', 'stripes'), rug('#FFFFFF', '#8FA3AD', 'geometric')],
  },
  {
    id: 'minimalist',
    legs: ['plinth', 'block'],
    arms: ['track', 'slim'],
    handles: ['none'],
    softness: 0.025,
    edge: 0.002,
    seatHeight: [0.4, 0.43],
    sofaHeight: [0.68, 0.74],
    legHeight: [0.01, 0.03],
    sag: 0.005,
    tufted: false,
    roundness: 0.3,
    woods: [ash, oak],
    cases: [lacquer('#FAFAF8', 0.4), lacquer('#E6E4E0', 0.45)],
    upholstery: [fabric('fabric', '#E6E4E0', 0.92), fabric('fabric', '#BDBAB4', 0.92)],
    accents: [fabric('fabric', '#FAFAF8', 0.92), fabric('fabric', '#1F1F1F', 0.9)],
    metals: [blackMetal, matteMetal],
    stones: [concrete],
    ceramics: [ceramic('#FAFAF8', 0.5)],
    rugs: [rug('#E6E4E0', '#BDBAB4', 'plain')],
  },
  {
    id: 'industrial',
    legs: ['metal-square', 'hairpin', 'sled'],
    arms: ['track', 'rolled'],
    handles: ['bar', 'ring'],
    softness: 0.03,
    edge: 0.004,
    seatHeight: [0.43, 0.47],
    sofaHeight: [0.78, 0.86],
    legHeight: [0.1, 0.16],
    sag: 0.012,
    tufted: true,
    roundness: 0.15,
    woods: [reclaimed, roughTimber],
    cases: [reclaimed, lacquer('#3A3A3A', 0.6)],
    upholstery: [leather('#7A4A2C', 0.5), leather('#3A2A20', 0.5), linen('#5A5A58')],
    accents: [linen('#A0522D'), linen('#C0B8AE'), leather('#1C1C1C')],
    metals: [blackMetal, wroughtIron],
    stones: [concrete],
    ceramics: [ceramic('#3A3A3A', 0.6), ceramic('#C0B8AE', 0.6)],
    rugs: [rug('#7A6A5B', '#3A3A3A', 'border'), rug('#C0B8AE', '#3A3A3A', 'geometric')],
  },
  {
    id: 'japandi',
    legs: ['block', 'tapered', 'plinth'],
    arms: ['slim', 'wide'],
    handles: ['cup', 'none'],
    softness: 0.035,
    edge: 0.005,
    seatHeight: [0.38, 0.42],
    sofaHeight: [0.66, 0.74],
    legHeight: [0.06, 0.12],
    sag: 0.008,
    tufted: false,
    roundness: 0.55,
    woods: [ash, wood('#4B3B2E', '#2E2219', 0.5)],
    cases: [ash, wood('#4B3B2E', '#2E2219', 0.5)],
    upholstery: [linen('#EDE6DB'), linen('#CBB9A0'), linen('#8B7D6B')],
    accents: [linen('#4B4A44'), linen('#CBB9A0'), plain('rattan', '#B89B6E', 0.7)],
    metals: [blackMetal],
    stones: [naturalStone],
    ceramics: [ceramic('#8B7D6B', 0.7), ceramic('#EDE6DB', 0.6)],
    rugs: [rug('#CBB9A0', '#8B7D6B', 'plain'), rug('#EDE6DB', '#4B4A44', 'border')],
  },
  {
    id: 'mid_century_modern',
    legs: ['splayed', 'tapered'],
    arms: ['slim', 'track'],
    handles: ['bar', 'cup'],
    softness: 0.025,
    edge: 0.004,
    seatHeight: [0.42, 0.45],
    sofaHeight: [0.76, 0.84],
    legHeight: [0.15, 0.22],
    sag: 0.008,
    tufted: true,
    roundness: 0.5,
    woods: [walnut, teak],
    cases: [teak, walnut],
    upholstery: [velvet('#2F7F7A'), linen('#D4A017'), linen('#8B5A2B')],
    accents: [velvet('#D2691E'), linen('#F3EDE2'), velvet('#D4A017')],
    metals: [brass, blackMetal],
    stones: [whiteMarble],
    ceramics: [ceramic('#2F7F7A', 0.3), ceramic('#D2691E', 0.3)],
    rugs: [rug('#F3EDE2', '#2F7F7A', 'geometric'), rug('#D4A017', '#8B5A2B', 'geometric')],
  },
  {
    id: 'bohemian',
    legs: ['turned', 'bun', 'tapered'],
    arms: ['rolled', 'curved'],
    handles: ['knob', 'ring'],
    softness: 0.06,
    edge: 0.006,
    seatHeight: [0.4, 0.44],
    sofaHeight: [0.78, 0.88],
    legHeight: [0.06, 0.12],
    sag: 0.02,
    tufted: false,
    roundness: 0.7,
    woods: [teak, oliveWood],
    cases: [teak, plain('rattan', '#C19A5B', 0.7)],
    upholstery: [velvet('#C56A3A'), linen('#E0B25C'), velvet('#6B8E4E')],
    accents: [velvet('#8E3B46'), linen('#E0B25C'), linen('#F2E6D8')],
    metals: [brass],
    stones: [travertine],
    ceramics: [ceramic('#C56A3A', 0.5), ceramic('#6B8E4E', 0.4)],
    rugs: [rug('#8E3B46', '#E0B25C', 'geometric'), rug('#C56A3A', '#F2E6D8', 'border')],
  },
  {
    id: 'farmhouse',
    legs: ['turned', 'block'],
    arms: ['rolled', 'track'],
    handles: ['cup', 'knob'],
    softness: 0.045,
    edge: 0.004,
    seatHeight: [0.44, 0.48],
    sofaHeight: [0.84, 0.92],
    legHeight: [0.06, 0.12],
    sag: 0.015,
    tufted: false,
    roundness: 0.2,
    woods: [reclaimed, oak],
    cases: [painted('#F7F4EE'), painted('#5B6B5A'), reclaimed],
    upholstery: [linen('#F7F4EE'), linen('#D8CFC2'), linen('#5B6B5A')],
    accents: [linen('#A68A64'), linen('#5B6B5A'), fabric('fabric', '#F7F4EE', 0.95)],
    metals: [wroughtIron, blackMetal],
    stones: [naturalStone],
    ceramics: [ceramic('#F7F4EE', 0.4), ceramic('#5B6B5A', 0.5)],
    rugs: [rug('#D8CFC2', '#5B6B5A', 'stripes'), rug('#F7F4EE', '#A68A64', 'border')],
  },
  {
    id: 'coastal',
    legs: ['tapered', 'turned'],
    arms: ['slope', 'rolled'],
    handles: ['knob', 'ring'],
    softness: 0.045,
    edge: 0.005,
    seatHeight: [0.42, 0.46],
    sofaHeight: [0.8, 0.88],
    legHeight: [0.06, 0.12],
    sag: 0.015,
    tufted: false,
    roundness: 0.5,
    woods: [whitewashed, oak],
    cases: [whitewashed, painted('#FFFFFF'), plain('rattan', '#C8A874', 0.7)],
    upholstery: [linen('#FFFFFF'), linen('#E9DFC9'), linen('#A7C7D9')],
    accents: [linen('#3D6F8E'), linen('#A7C7D9'), linen('#C2B280')],
    metals: [brushedSteel, matteMetal],
    stones: [travertine],
    ceramics: [ceramic('#FFFFFF', 0.3), ceramic('#3D6F8E', 0.3)],
    rugs: [rug('#E9DFC9', '#3D6F8E', 'stripes'), rug('#C2B280', '#FFFFFF', 'plain')],
  },
  {
    id: 'traditional',
    legs: ['turned', 'cabriole', 'bun'],
    arms: ['rolled'],
    handles: ['knob', 'ring'],
    softness: 0.04,
    edge: 0.006,
    seatHeight: [0.44, 0.48],
    sofaHeight: [0.86, 0.96],
    legHeight: [0.1, 0.16],
    sag: 0.012,
    tufted: true,
    roundness: 0.35,
    woods: [mahogany, walnut],
    cases: [mahogany, walnut],
    upholstery: [velvet('#8B2E2E'), velvet('#1F3A5F'), linen('#F2E8D5')],
    accents: [velvet('#C9A64B'), velvet('#8B2E2E'), linen('#F2E8D5')],
    metals: [brass, polishedBrass],
    stones: [whiteMarble],
    ceramics: [ceramic('#F2E8D5', 0.2), ceramic('#1F3A5F', 0.2)],
    rugs: [rug('#8B2E2E', '#C9A64B', 'border'), rug('#1F3A5F', '#F2E8D5', 'geometric')],
  },
  {
    id: 'luxury',
    legs: ['metal-square', 'plinth', 'block'],
    arms: ['curved', 'track'],
    handles: ['bar'],
    softness: 0.04,
    edge: 0.005,
    seatHeight: [0.42, 0.45],
    sofaHeight: [0.74, 0.84],
    legHeight: [0.03, 0.08],
    sag: 0.01,
    tufted: true,
    roundness: 0.5,
    woods: [walnut, ebonised],
    cases: [lacquer('#2C2C34', 0.15), walnut, lacquer('#F4F1EC', 0.15)],
    upholstery: [velvet('#D4C4A8'), velvet('#5E4B56'), velvet('#2C2C34')],
    accents: [velvet('#B8963E'), velvet('#F4F1EC'), velvet('#5E4B56')],
    metals: [polishedBrass, brass],
    stones: [whiteMarble, blackMarble],
    ceramics: [ceramic('#F4F1EC', 0.1), ceramic('#2C2C34', 0.1)],
    rugs: [rug('#D4C4A8', '#B8963E', 'border'), rug('#F4F1EC', '#5E4B56', 'plain')],
  },
  {
    id: 'art_deco',
    legs: ['block', 'metal-square', 'plinth'],
    arms: ['curved', 'wide'],
    handles: ['bar', 'ring'],
    softness: 0.045,
    edge: 0.004,
    seatHeight: [0.42, 0.45],
    sofaHeight: [0.76, 0.86],
    legHeight: [0.04, 0.1],
    sag: 0.008,
    tufted: true,
    roundness: 0.6,
    woods: [ebonised, walnut],
    cases: [lacquer('#111111', 0.12), lacquer('#0B3D3A', 0.12), walnut],
    upholstery: [velvet('#0B3D3A'), velvet('#7A1F3D'), velvet('#C9A227')],
    accents: [velvet('#C9A227'), velvet('#F0E6D2'), velvet('#111111')],
    metals: [polishedBrass],
    stones: [blackMarble, whiteMarble],
    ceramics: [ceramic('#111111', 0.1), ceramic('#F0E6D2', 0.1)],
    rugs: [rug('#0B3D3A', '#C9A227', 'geometric'), rug('#111111', '#F0E6D2', 'border')],
  },
  {
    id: 'rustic',
    legs: ['block', 'sled', 'turned'],
    arms: ['wide', 'rolled'],
    handles: ['ring', 'knob'],
    softness: 0.05,
    edge: 0.008,
    seatHeight: [0.43, 0.47],
    sofaHeight: [0.82, 0.92],
    legHeight: [0.04, 0.1],
    sag: 0.02,
    tufted: false,
    roundness: 0.25,
    woods: [roughTimber, reclaimed],
    cases: [roughTimber, reclaimed],
    upholstery: [leather('#6F4E37', 0.55), linen('#D9C7A7'), fabric('fabric', '#4A5D3B', 0.95)],
    accents: [fabric('fabric', '#A67B5B', 0.95), fabric('fabric', '#D9C7A7', 0.95), fabric('fabric', '#4A5D3B', 0.95)],
    metals: [wroughtIron],
    stones: [naturalStone],
    ceramics: [ceramic('#A67B5B', 0.6), ceramic('#D9C7A7', 0.6)],
    rugs: [rug('#A67B5B', '#2B2118', 'stripes'), rug('#D9C7A7', '#4A5D3B', 'border')],
  },
  {
    id: 'mediterranean',
    legs: ['turned', 'tapered', 'block'],
    arms: ['rolled', 'slope'],
    handles: ['knob', 'ring'],
    softness: 0.045,
    edge: 0.006,
    seatHeight: [0.42, 0.46],
    sofaHeight: [0.78, 0.88],
    legHeight: [0.05, 0.1],
    sag: 0.014,
    tufted: false,
    roundness: 0.55,
    woods: [oliveWood, oak],
    cases: [oliveWood, painted('#FAF7F0'), painted('#2E5A88')],
    upholstery: [linen('#FAF7F0'), linen('#E3C9A0'), linen('#2E5A88')],
    accents: [linen('#C8643B'), linen('#2E5A88'), linen('#6B8E23')],
    metals: [wroughtIron, brass],
    stones: [travertine],
    ceramics: [plain('ceramic', '#C8643B', 0.7), ceramic('#2E5A88', 0.2)],
    rugs: [rug('#E3C9A0', '#2E5A88', 'geometric'), rug('#FAF7F0', '#C8643B', 'border')],
  },
  {
    id: 'parisian',
    legs: ['cabriole', 'turned', 'tapered'],
    arms: ['rolled', 'curved'],
    handles: ['knob', 'bar'],
    softness: 0.04,
    edge: 0.005,
    seatHeight: [0.43, 0.46],
    sofaHeight: [0.8, 0.9],
    legHeight: [0.1, 0.16],
    sag: 0.01,
    tufted: true,
    roundness: 0.6,
    woods: [oak, walnut],
    cases: [painted('#F6F3EE'), oak, painted('#2F3B45')],
    upholstery: [velvet('#2F3B45'), linen('#D9CFC1'), velvet('#A89F91')],
    accents: [velvet('#B8963E'), linen('#F6F3EE'), velvet('#2F3B45')],
    metals: [brass, polishedBrass],
    stones: [whiteMarble],
    ceramics: [ceramic('#F6F3EE', 0.2), ceramic('#2F3B45', 0.2)],
    rugs: [rug('#D9CFC1', '#2F3B45', 'border'), rug('#F6F3EE', '#B8963E', 'geometric')],
  },
];

const byId = new Map(STYLE_PROFILES.map((profile) => [profile.id, profile]));

export function styleProfile(styleId: string): StyleProfile {
  const profile = byId.get(styleId);
  if (!profile) throw new Error(`no style profile for ${styleId}`);
  return profile;
}
