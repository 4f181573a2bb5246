/** One schema per query parameter, shared by the endpoints that accept it. */
import { z } from "zod";
import { isIsoDate } from "../rates/calendar.ts";

export const zipParam = z
  .string()
  .regex(/^\d{5}$/, "must be a 5-digit ZIP code (ZIP+4 is not accepted)")
  .optional();

export const dateParam = z
  .string()
  .refine(isIsoDate, "must be a calendar date written YYYY-MM-DD")
  .optional();

/** Control characters never belong in a name or an address; refusing them keeps logs and geocoder calls clean. */
const printable = (text: string) => !/[\u0000-\u001f\u007f]/.test(text);

export const countyParam = z
  .string()
  .refine(printable, "must not contain control characters")
  .trim()
  .min(1, "must not be empty")
  .max(64, "must be at most 64 characters")
  .optional();

export const addressParam = z
  .string()
  .refine(printable, "must not contain control characters")
  .trim()
  .min(1, "must not be empty")
  .max(300, "must be at most 300 characters")
  .optional();

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

/** Decimal degrees, WGS84/NAD83 (they differ by about a metre in Ohio); sent together as `lat` and `lon`. */
const degrees = (name: string, limit: number) =>
  z
    .string()
    .regex(/^[+-]?\d{1,3}(\.\d{1,12})?$/, `must be decimal degrees, e.g. ${name === "lat" ? "39.9612" : "-82.9988"}`)
    .refine((text) => Math.abs(Number(text)) <= limit, `must be between -${limit} and ${limit}`)
    .optional();

export const latParam = degrees("lat", 90);
export const lonParam = degrees("lon", 180);
