/**
 * The text of `client/api-types.ts` for an OpenAPI document: openapi-typescript's types,
 * formatted as the repository formats its code, under a header that says where they come from.
 */
import openapiTS, { astToString } from 'openapi-typescript';
import prettier from 'prettier';

const HEADER =
  '/**\n' +
  ' * The types of erx’s HTTP interface, generated from its OpenAPI document (`/openapi.json`) by\n' +
  ' * `npm run build` (scripts/client-types.ts). Do not edit: change the route schemas instead.\n' +
  ' */\n';

/** The types file for `document`. */
export async function clientTypesOf(document: Parameters<typeof openapiTS>[0]): Promise<string> {
  const types = astToString(await openapiTS(document, { exportType: true }));
  const options = (await prettier.resolveConfig('client/api-types.ts')) ?? {};
  return prettier.format(HEADER + types, { ...options, parser: 'typescript' });
}
