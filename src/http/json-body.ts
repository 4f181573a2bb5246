/**
 * Reads a JSON object body for the resource endpoints. A body sent with another Content-Type is a
 * 415, as on POST /api/v1/rates/batch; one over 64 KiB is a 413 (by Content-Length before reading,
 * else while reading); a JSON body that is not an object is the same client error as a wrong field:
 * 422 with the endpoint's slug and an invalid_params entry.
 */
import type { H3Event } from "h3";
import { mediaType, readCapped } from "../web/read-body.ts";
import { problem, type ProblemSlug } from "../web/problem.ts";

const MAX_BODY_BYTES = 64 * 1024;

/** application/json, with or without parameters, or a structured +json type. */
export function sendsJson(event: H3Event): boolean {
  return /^application\/([\w.-]+\+)?json$/.test(mediaType(event));
}

/** `maxBytes`: a larger cap for a body whose own rules bound it (a sale's 1,000 lines), so those rules, not the size, name what is wrong. */
export async function readJsonObject(event: H3Event, slug: ProblemSlug, maxBytes = MAX_BODY_BYTES): Promise<Record<string, unknown>> {
  if (!sendsJson(event)) throw problem("unsupported-media-type", "Send the body as JSON, with Content-Type: application/json.");
  const bytes = await readCapped(event, maxBytes, (declared) =>
    problem("body-too-large", `The request body${declared === null ? "" : ` is ${declared} bytes; it`} must be at most ${maxBytes} bytes.`),
  );
  const text = bytes.toString("utf8");
  const refuse = (reason: string) => problem(slug, `The request body ${reason}.`, { invalidParams: [{ name: "body", reason }] });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw refuse("must be a JSON object");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw refuse("must be a JSON object");
  return value as Record<string, unknown>;
}
