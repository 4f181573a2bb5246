/**
 * The typed way to call Buckeye from TypeScript: openapi-fetch over the types generated from the
 * API's own OpenAPI document (api-types.ts), so every path, parameter, body and answer is checked
 * by the compiler. The answer is `{ data }` for a 2xx and `{ error }` (the problem details) otherwise.
 *
 *   const buckeye = createBuckeyeClient({ baseUrl: "https://tax.example.com", apiKey: process.env.BUCKEYE_KEY! });
 *   const { data, error } = await buckeye.GET("/api/v1/rates", { params: { query: { county: "franklin" } } });
 */
import createClient from "openapi-fetch";
import type { paths } from "./api-types.ts";

export type { components, operations, paths } from "./api-types.ts";

export interface BuckeyeClientOptions {
  /** Where Buckeye listens, without /api/v1. */
  baseUrl: string;
  /** A tax_live_… or tax_test_… key. */
  apiKey: string;
  fetch?: typeof globalThis.fetch;
}

export function createBuckeyeClient(options: BuckeyeClientOptions) {
  return createClient<paths>({
    baseUrl: options.baseUrl,
    headers: { authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch && { fetch: options.fetch }),
  });
}
