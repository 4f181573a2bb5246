/**
 * /api/v1/locations: the organization's places of business, where it receives orders or hands goods
 * over; a sale names one as its pickup_location_id or order_location_id (R.C. 5739.033). A place is
 * kept as the lookup that places it and must settle one county and transit district when recorded.
 */
import { getRouterParam, noContent, type H3Event } from "h3";
import { deleteLocation, findLocation, insertLocation, listLocations, type TaxLocation } from "../../ledger/locations.repository.ts";
import { locationSchema } from "../../ledger/sale-request.ts";
import { problem } from "../../web/problem.ts";
import type { ApiContext } from "../context.ts";
import { readJsonObject } from "../json-body.ts";
import { describeParams, parseBody } from "../../web/parse-body.ts";
import { principalOf } from "./tax.ts";

function toRecord(location: TaxLocation) {
  return { id: location.id, name: location.name, place: { ...location.place }, created_at: location.createdAt };
}

export function createLocation(ctx: ApiContext) {
  return async (event: H3Event) => {
    const body = parseBody(locationSchema, await readJsonObject(event, "invalid-location"), "invalid-location", describeParams("location"));
    const place = Object.fromEntries(Object.entries(body.place).filter(([, value]) => value !== undefined)) as Record<string, string>;
    if (Object.keys(place).length === 0) throw problem("invalid-location", "The location is not valid: place needs a county, zip, address, or lat with lon.", { invalidParams: [{ name: "place", reason: "needs a county, zip, address, or lat with lon" }] });
    await ctx.tax.service.checkPlace(place, "place", event.context.requestId ?? "");
    const location = await insertLocation(ctx.db, principalOf(event).organizationId, body.name, place, ctx.now());
    event.res.status = 201;
    event.res.headers.set("location", `/api/v1/locations/${location.id}`);
    return { location: toRecord(location) };
  };
}

export function getLocations(ctx: ApiContext) {
  return async (event: H3Event) => ({ locations: (await listLocations(ctx.db, principalOf(event).organizationId)).map(toRecord) });
}

export function getLocation(ctx: ApiContext) {
  return async (event: H3Event) => {
    const id = getRouterParam(event, "id") ?? "";
    const location = await findLocation(ctx.db, principalOf(event).organizationId, id);
    if (!location) throw problem("location-not-found", `No location ${id} in this organization.`);
    return { location: toRecord(location) };
  };
}

export function removeLocation(ctx: ApiContext) {
  return async (event: H3Event) => {
    const id = getRouterParam(event, "id") ?? "";
    if (!(await deleteLocation(ctx.db, principalOf(event).organizationId, id))) throw problem("location-not-found", `No location ${id} in this organization.`);
    return noContent();
  };
}
