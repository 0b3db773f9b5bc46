import type { Catalog } from '../../catalog/catalog.js';
import type { FieldError } from '../../errors.js';

export function checkStyle(catalog: Catalog, styleId: string): FieldError[] {
  return catalog.style(styleId) ? [] : [{ field: '/styleId', message: `unknown style "${styleId}"; see GET /v1/styles` }];
}

export function checkRoom(catalog: Catalog, roomId: string | undefined): FieldError[] {
  if (roomId === undefined || catalog.room(roomId)) return [];
  return [{ field: '/roomId', message: `unknown room "${roomId}"; see GET /v1/rooms` }];
}

export function checkFurniture(catalog: Catalog, furnitureId: string | undefined): FieldError[] {
  if (furnitureId === undefined || catalog.furniture(furnitureId)) return [];
  return [{ field: '/furnitureId', message: `unknown furniture "${furnitureId}"; see GET /v1/furnitures` }];
}

export function checkSky(catalog: Catalog, skyId: string | undefined): FieldError[] {
  if (skyId === undefined || catalog.sky(skyId)) return [];
  return [{ field: '/skyId', message: `unknown sky "${skyId}"; see GET /v1/skies` }];
}
