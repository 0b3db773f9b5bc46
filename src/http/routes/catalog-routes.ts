import { Type } from '@sinclair/typebox';
import type { HttpApp } from '../http-app.js';
import { publicFurnitures, publicRooms, publicSkies, publicStyles, type Catalog } from '../../catalog/catalog.js';
import { requireOwner } from '../plugins/authentication.js';
import { COMMON_PROBLEMS } from '../schemas/problem.js';

const Named = Type.Object({ id: Type.String(), name: Type.String() });
const Room = Type.Object({ id: Type.String(), name: Type.String(), 'name-en': Type.String(), type: Type.String() });
const Furniture = Type.Object({
  id: Type.String(),
  name: Type.String(),
  name_en: Type.String(),
  name_es: Type.String(),
  name_pt: Type.String(),
  name_de: Type.String(),
  type: Type.String(),
});

export function registerCatalogRoutes(app: HttpApp, catalog: Catalog): void {
  // The lists never change while the process runs, so each answer is built once.
  const lists = [
    { path: '/v1/styles', summary: 'Styles, for `styleId`.', schema: Type.Array(Named), body: publicStyles(catalog) },
    { path: '/v1/rooms', summary: 'Rooms, for `roomId` (French and English labels).', schema: Type.Array(Room), body: publicRooms(catalog) },
    {
      path: '/v1/furnitures',
      summary: 'Furniture for `furnitureId`, grouped by category name.',
      schema: Type.Record(Type.String(), Type.Array(Furniture)),
      body: publicFurnitures(catalog),
    },
    { path: '/v1/skies', summary: 'Skies.', schema: Type.Array(Named), body: publicSkies(catalog) },
  ];
  for (const list of lists) {
    app.get(
      list.path,
      {
        schema: {
          tags: ['lookups'],
          summary: list.summary,
          security: [{ bearerAuth: [] }],
          response: { 200: list.schema, ...COMMON_PROBLEMS },
        },
      },
      async (request) => {
        requireOwner(request);
        return list.body;
      },
    );
  }
}
