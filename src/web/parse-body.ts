/**
 * A body (or a batch's row) validated against a zod schema, every issue an invalid_params entry of the
 * problem thrown: the resource endpoints and the batches of orders (src/batch/order-tasks.ts) read
 * sales by the same rules, so a row fails as the same request would.
 */
import type { z } from "zod";
import { problem, type InvalidParam, type ProblemSlug } from "./problem.ts";

/** Validates a body against a zod schema, turning every issue into an invalid_params entry. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown, slug: ProblemSlug, describe: (params: InvalidParam[]) => string): z.output<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const params = result.error.issues.map((issue) => {
    if (issue.code === "unrecognized_keys") return { name: issue.keys.join(", "), reason: "unknown field" };
    return { name: issue.path.length > 0 ? issue.path.map(String).join(".") : "body", reason: issue.message };
  });
  throw problem(slug, describe(params), { invalidParams: params });
}

/** A problem's detail naming every bad field: "The sale is not valid: lines.0.unit_price must be …". */
export const describeParams = (what: string) => (params: InvalidParam[]) => `The ${what} is not valid: ${params.map((p) => `${p.name} ${p.reason}`).join("; ")}.`;
