/**
 * Writes client/api-types.ts, the TypeScript types of the API that the typed client
 * (client/buckeye-client.ts, openapi-fetch) is checked against, from the OpenAPI document the
 * service serves. Run `npm run client:types` after changing the document; test/typed-client.test.ts
 * fails while the committed file is stale.
 *
 * openapi-typescript 6 writes the types as text. Its version 7, like @hey-api/openapi-ts, builds
 * them with the TypeScript 5 compiler API, which TypeScript 7 (this project's compiler) no longer has.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import openapiTS, { type OpenAPI3 } from "openapi-typescript";
import { openApiDocument } from "../src/http/openapi.ts";
import { REPO_ROOT } from "../src/config.ts";

export const CLIENT_TYPES_PATH = join(REPO_ROOT, "client", "api-types.ts");

const HEADER = `/**
 * The paths, operations and schemas of Buckeye's API as TypeScript types, for openapi-fetch.
 * GENERATED from GET /api/v1/openapi.json by \`npm run client:types\` (scripts/generate-client-types.ts):
 * do not edit by hand.
 */

`;

export async function clientTypes(document: object): Promise<string> {
  return openapiTS(structuredClone(document) as OpenAPI3, { commentHeader: HEADER, silent: true });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(CLIENT_TYPES_PATH, await clientTypes(openApiDocument()));
  console.log(`wrote ${CLIENT_TYPES_PATH}`);
}
