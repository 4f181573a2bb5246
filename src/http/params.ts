/** One schema per query parameter of the county list; the rate lookup's are in src/lookup/lookup-item.ts. */
import { z } from "zod";
import { FIELD_TEXT_SCHEMAS } from "../lookup/lookup-item.ts";

export const dateParam = FIELD_TEXT_SCHEMAS.date;

/** Control characters never belong in a name; refusing them keeps logs clean. */
const printable = (text: string) => !/[\u0000-\u001f\u007f]/.test(text);

export const searchParam = z
  .string()
  .refine(printable, "must not contain control characters")
  .trim()
  .min(1, "must not be empty; leave it out to list every county")
  .max(64, "must be at most 64 characters")
  .optional();

export const sortParam = z
  .enum(["name", "rate_asc", "rate_desc"], { error: "must be one of name, rate_asc, rate_desc" })
  .optional();
