/**
 * /api/v1/certificates: customer exemption certificates, registered so that certificate.expiring
 * is sent 30 and 7 days before each one expires. Scoped to the calling key's organization, which
 * keeps at most CERTIFICATES_PER_ORG; the list comes in pages (`limit`, and the `cursor` each page
 * gives as `next_cursor`), as docs/api/README.md describes.
 */
import { getRouterParam, noContent, type H3Event } from "h3";
import { z } from "zod";
import { isIsoDate } from "../../rates/calendar.ts";
import {
  countCertificates,
  deleteCertificate,
  findCertificate,
  insertCertificateWithin,
  listCertificates,
  type CertificatePosition,
} from "../../store/certificates.repository.ts";
import type { Certificate } from "../../store/certificates.table.ts";
import type { ApiContext } from "../context.ts";
import { decodeDateIdCursor, encodeDateIdCursor, pageParams } from "../date-id-cursor.ts";
import { readJsonObject } from "../json-body.ts";
import { parseBody } from "../../web/parse-body.ts";
import { problem, type InvalidParam } from "../../web/problem.ts";
import { readQuery } from "../query.ts";
import type { CertificateRecord } from "../answer-schemas.ts";

const text = (max: number) =>
  z
    .string({ error: "must be a string" })
    .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), "must not contain control characters")
    .trim()
    .min(1, "must not be empty")
    .max(max, `must be at most ${max} characters`);

export const certificateSchema = z.strictObject({
  customer_id: text(100),
  customer_name: text(200),
  exempt_reason: text(200),
  expires_on: z.string({ error: "must be a string" }).refine(isIsoDate, "must be a calendar date written YYYY-MM-DD"),
});

/** What a certificate id looks like: a page's cursor carries the last one with its `expires_on` (date-id-cursor.ts). */
const CERTIFICATE_ID = /^cert_\w+$/;

function decodeCursor(cursor: string): CertificatePosition | null {
  const position = decodeDateIdCursor(cursor, CERTIFICATE_ID);
  return position && { expiresOn: position.date, id: position.id };
}

export const CERTIFICATES_QUERY = pageParams(CERTIFICATE_ID);

const describe = (params: InvalidParam[]) => `The certificate is not valid: ${params.map((p) => `${p.name} ${p.reason}`).join("; ")}.`;

function toRecord(row: Certificate): CertificateRecord {
  return {
    id: row.id,
    customer_id: row.customer_id,
    customer_name: row.customer_name,
    exempt_reason: row.exempt_reason,
    expires_on: row.expires_on,
    created_at: row.created_at,
  };
}

function organizationOf(event: H3Event): string {
  const principal = event.context.principal;
  if (!principal) throw new Error("certificate routes run after admitRequest");
  return principal.organizationId;
}

export function createCertificate(ctx: ApiContext) {
  return async (event: H3Event) => {
    const body = parseBody(certificateSchema, await readJsonObject(event, "invalid-certificate"), "invalid-certificate", describe);
    const limit = ctx.config.certificatesPerOrganization;
    const row = await insertCertificateWithin(
      ctx.db,
      {
        organizationId: organizationOf(event),
        customerId: body.customer_id,
        customerName: body.customer_name,
        exemptReason: body.exempt_reason,
        expiresOn: body.expires_on,
      },
      ctx.now(),
      limit,
    );
    if (!row) {
      throw problem(
        "certificate-limit-reached",
        `This organization keeps ${limit} certificates, the most it may. Delete those it no longer needs (expired ones first), then record this one.`,
      );
    }
    event.res.status = 201;
    event.res.headers.set("location", `/api/v1/certificates/${row.id}`);
    return { certificate: toRecord(row) };
  };
}

export function getCertificates(ctx: ApiContext) {
  return async (event: H3Event) => {
    const query = readQuery(event, CERTIFICATES_QUERY);
    const organizationId = organizationOf(event);
    const limit = Number(query.limit ?? 50);
    // One more than the page: whether it exists says whether there is a next page.
    const rows = await listCertificates(ctx.db, organizationId, { limit: limit + 1, after: query.cursor === undefined ? null : decodeCursor(query.cursor) });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      total: await countCertificates(ctx.db, organizationId),
      certificates: page.map(toRecord),
      next_cursor: rows.length > limit && last ? encodeDateIdCursor({ date: last.expires_on, id: last.id }) : null,
    };
  };
}

export function getCertificate(ctx: ApiContext) {
  return async (event: H3Event) => {
    const id = getRouterParam(event, "id") ?? "";
    const row = await findCertificate(ctx.db, organizationOf(event), id);
    if (!row) throw problem("certificate-not-found", `No certificate ${id} in this organization.`);
    return { certificate: toRecord(row) };
  };
}

export function removeCertificate(ctx: ApiContext) {
  return async (event: H3Event) => {
    const id = getRouterParam(event, "id") ?? "";
    if (!(await deleteCertificate(ctx.db, organizationOf(event), id))) {
      throw problem("certificate-not-found", `No certificate ${id} in this organization.`);
    }
    return noContent();
  };
}
