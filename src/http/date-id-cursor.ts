/**
 * The cursor of a list paged by a date and then an id (transactions, certificates): where the next page starts,
 * as base64url of `[date, id]`, opaque to clients. Only a cursor an answer of the same list could have given
 * decodes: anything else, base64url or not, is null, and the route refuses it as a bad parameter.
 */
import { z } from "zod";
import { isIsoDate } from "../rates/calendar.ts";

export interface DateIdPosition {
  date: string;
  id: string;
}

export function encodeDateIdCursor(position: DateIdPosition): string {
  return Buffer.from(JSON.stringify([position.date, position.id])).toString("base64url");
}

/** `idShape`: what the list's ids look like (`/^txn_\w+$/`). */
export function decodeDateIdCursor(cursor: string, idShape: RegExp): DateIdPosition | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === "string" && isIsoDate(value[0]) && typeof value[1] === "string" && idShape.test(value[1])) {
      return { date: value[0], id: value[1] };
    }
  } catch {
    // Not base64url JSON: null, like any other cursor no answer gave.
  }
  return null;
}

/** The query parameters that page such a list: how many a page holds, and where it starts. */
export function pageParams(idShape: RegExp) {
  return {
    limit: z
      .string()
      .regex(/^\d+$/, "must be a whole number")
      .refine((n) => Number(n) >= 1 && Number(n) <= 200, "must be between 1 and 200")
      .optional(),
    cursor: z
      .string()
      .refine((cursor) => decodeDateIdCursor(cursor, idShape) !== null, "must be the next_cursor of a previous answer")
      .optional(),
  };
}
