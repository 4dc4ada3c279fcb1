/**
 * The product catalogue's calls: `GET /ePrescription/catalog` (name search, any signed-in client)
 * and `GET /ePrescription/catalog/names` (names of GTINs, anyone: the patient view has no token).
 * GTIN and names are public article data; the names lookup is held to the anonymous rate limit
 * per address like anonymous verify, and tells nothing that verify's caller has not sent already.
 */
import type { FastifyInstance } from 'fastify';
import {
  CATALOG_LIMIT,
  CatalogArticles,
  CatalogNamesQuery,
  CatalogSearchQuery,
} from '../../api/catalog.js';
import { ref } from '../../api/index.js';
import { catalogNames, searchCatalog } from '../../catalog/lookup.js';
import type { AppDeps } from '../deps.js';
import { requirePrincipal } from '../auth-hook.js';
import { refuseMalformedQuery } from '../query-encoding.js';
import { ANY_CALL, errorResponses } from './route-schemas.js';

/** Any role may search: never a 403. */
const SIGNED_IN = [400, 401, ...ANY_CALL] as const;

/** Registers the catalogue's search and names lookup. */
export function registerCatalogRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get<{ Querystring: CatalogSearchQuery }>(
    '/ePrescription/catalog',
    {
      preValidation: refuseMalformedQuery,
      schema: {
        tags: ['catalog'],
        summary: 'Search the product catalogue by name',
        description:
          'Articles whose German or French name contains `q`, case and accents ignored; names ' +
          'that start with it first, then in name order. `[]` while no catalogue is loaded ' +
          '(`erx catalog import`). Any signed-in client (prescriber or pharmacist).',
        security: [{ bearer: [] }],
        querystring: CatalogSearchQuery,
        response: { 200: ref(CatalogArticles), ...errorResponses(SIGNED_IN) },
      },
    },
    async (request) => {
      requirePrincipal(request);
      const { q, limit } = request.query;
      return searchCatalog(
        deps.catalog,
        q,
        limit === undefined ? CATALOG_LIMIT.default : Number(limit),
      );
    },
  );
  app.get<{ Querystring: CatalogNamesQuery }>(
    '/ePrescription/catalog/names',
    {
      preValidation: refuseMalformedQuery,
      schema: {
        tags: ['catalog'],
        summary: 'The names of products by GTIN',
        description:
          'The articles of the given GTINs that the catalogue knows, in GTIN order; unknown ' +
          'GTINs are left out, and `[]` while no catalogue is loaded. Anyone, without a token ' +
          '(the patient view names the medicaments of a QR code it decoded): public article ' +
          'data, held to the anonymous rate limit per address.',
        querystring: CatalogNamesQuery,
        response: { 200: ref(CatalogArticles), ...errorResponses(SIGNED_IN) },
      },
    },
    async (request) => {
      const { gtin } = request.query;
      return catalogNames(deps.catalog, typeof gtin === 'string' ? [gtin] : gtin);
    },
  );
}
