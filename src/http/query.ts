/**
 * Reads a query string against a schema of allowed parameters. Unknown, repeated or malformed
 * parameters are all reported at once as one 400 `bad-request` with `invalid_params`: a tax
 * lookup that silently ignored a misspelt `date` would answer for the wrong day.
 */
import type { H3Event } from "h3";
import type { z } from "zod";
import { problem, type InvalidParam } from "../web/problem.ts";

type Shape = Record<string, z.ZodType<string | undefined>>;
type Parsed<S extends Shape> = { [K in keyof S]: z.output<S[K]> };

/**
 * What each schema makes of a parameter that is not there. It cannot change, and most of a
 * shape's parameters are absent from any one request (a county lookup sends one of six), so it is
 * worked out once per schema rather than once per request.
 */
const NONE: ReadonlySet<string> = new Set();

const absent = new WeakMap<z.ZodType, z.ZodSafeParseResult<unknown>>();
function parseAbsent(schema: z.ZodType<string | undefined>): z.ZodSafeParseResult<unknown> {
  let result = absent.get(schema);
  if (!result) absent.set(schema, (result = schema.safeParse(undefined)));
  return result;
}

/**
 * `blankIsAbsent`: parameters an empty value (`date=`) leaves out, as an empty cell of a batch row does,
 * so the API and an upload agree on what a blank means.
 */
export function readQuery<S extends Shape>(event: H3Event, shape: S, blankIsAbsent: ReadonlySet<string> = NONE): Parsed<S> {
  const params = event.url.searchParams;
  const invalid: InvalidParam[] = [];
  const out: Record<string, unknown> = {};
  for (const name of new Set(params.keys())) {
    if (!(name in shape)) invalid.push({ name, reason: `unknown parameter; allowed: ${Object.keys(shape).join(", ")}` });
    else if (params.getAll(name).length > 1) invalid.push({ name, reason: "given more than once" });
  }
  for (const [name, schema] of Object.entries(shape)) {
    const given = params.get(name);
    const raw = given !== null && given.trim() === "" && blankIsAbsent.has(name) ? null : given;
    const result = raw === null ? parseAbsent(schema) : schema.safeParse(raw);
    if (result.success) out[name] = result.data;
    else if (!invalid.some((p) => p.name === name)) invalid.push({ name, reason: result.error.issues[0]?.message ?? "invalid" });
  }
  if (invalid.length > 0) {
    const names = invalid.slice(0, 10).map((p) => p.name.slice(0, 40));
    const more = invalid.length > names.length ? ` and ${invalid.length - names.length} more` : "";
    throw problem("bad-request", `Invalid query parameters: ${names.join(", ")}${more}.`, {
      invalidParams: invalid,
    });
  }
  return out as Parsed<S>;
}
