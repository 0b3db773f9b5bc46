import type { Random } from '../random.js';
import { metal, mixHex, wood, type Material } from './materials.js';
import type { StyleProfile } from './styles.js';

/**
 * Choices several furniture families make from a style profile in the same way: the broad family a style belongs
 * to, the fabrics, rattan, teak and powder coats it offers.
 */

/** Broad families of the 16 styles, for choices that the profile's lists do not carry (a lamp's build, a mirror's shape). */
export type StyleFamily = 'sleek' | 'natural' | 'industrial' | 'casual' | 'classic';

export function styleFamily(style: StyleProfile): StyleFamily {
  switch (style.id) {
    case 'modern':
    case 'contemporary':
    case 'minimalist':
    case 'luxury':
    case 'art_deco':
      return 'sleek';
    case 'scandinavian':
    case 'japandi':
    case 'mid_century_modern':
      return 'natural';
    case 'industrial':
      return 'industrial';
    case 'traditional':
    case 'parisian':
      return 'classic';
    default:
      if (style.legs.includes('cabriole')) return 'classic';
      if (style.legs.includes('hairpin')) return 'industrial';
      return 'casual';
  }
}

/** The style's soft woven fabrics (fabric, velvet, bouclé) among its accents and upholstery. */
export function softFabrics(style: StyleProfile): Material[] {
  return [...style.accents, ...style.upholstery].filter((m) => m.kind === 'fabric' || m.kind === 'velvet' || m.kind === 'boucle');
}

/** The style's rattan, or a natural one when it has none, with a darker secondary for the weave. */
export function rattanOf(style: StyleProfile, random: Random): Material {
  const found = [...style.cases, ...style.accents].find((m) => m.kind === 'rattan');
  const color = found ? found.color : random.pick(['#B8935E', '#A98455', '#C7A574']);
  return { kind: 'rattan', color, secondary: mixHex(color, '#3A2A18', 0.35), roughness: 0.75, scale: 0.008 };
}

/** Powder-coat colours per style (others get a dark grey). */
const POWDER_COATS: Record<string, readonly string[]> = {
  parisian: ['#34503C', '#23262A', '#E9E6DE'], mediterranean: ['#2B4F78', '#E9E6DE', '#2A2A2A'], coastal: ['#F0EEE8', '#8FA8B5'],
  modern: ['#2A2B2C', '#E6E6E3', '#5C5F61'], minimalist: ['#F2F2F0', '#2A2A2A'], industrial: ['#1E1E1E', '#3A3836'],
  art_deco: ['#1A1A1A', '#0B3D3A'], luxury: ['#2C2C34', '#D4C4A8'], contemporary: ['#6E6A64', '#CFC6BA'],
};

/** Teak for outdoor pieces: honey-brown oiled, or weathered silver-grey (more often in the pale styles). */
export function outdoorTeak(style: StyleProfile, random: Random): Material {
  const weathered = style.id === 'coastal' || style.id === 'scandinavian' || style.id === 'japandi' ? random.chance(0.6) : random.chance(0.15);
  return weathered ? wood('#A59D8F', '#776F62', 0.75, 0.012) : wood('#9C6B3E', '#68422A', 0.6, 0.012);
}

/** A powder-coated outdoor frame in one of the style's colours. */
export function powderCoated(style: StyleProfile, random: Random): Material {
  return metal(random.pick(POWDER_COATS[style.id] ?? ['#2E302F', '#3B3D3C']), 0.55);
}
