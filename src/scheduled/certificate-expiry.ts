/**
 * The certificate-expiry job: certificate.expiring to the certificate's organization 30 days and
 * 7 days before it expires, once each. Like filing reminders, a reminder missed on its day is sent
 * on the next run inside its window (days_until then says how many days are really left).
 */
import { addDays, dateInOhio, daysBetween, type IsoDate } from "../rates/calendar.ts";
import { listCertificatesExpiring } from "../store/certificates.repository.ts";
import type { Db } from "../store/database.ts";
import { publishEvent } from "../webhooks/outbox.ts";

export async function publishCertificateReminders(db: Db, at: Date): Promise<{ date: IsoDate; events: number }> {
  const today = dateInOhio(at);
  const certificates = await listCertificatesExpiring(db, addDays(today, 1), addDays(today, 30));
  const events = await db.transaction().execute(async (trx) => {
    let created = 0;
    for (const certificate of certificates) {
      const daysUntil = daysBetween(today, certificate.expires_on);
      const threshold = daysUntil > 7 ? 30 : 7;
      const published = await publishEvent(
        trx,
        {
          type: "certificate.expiring",
          data: {
            certificate_id: certificate.id,
            customer_id: certificate.customer_id,
            customer_name: certificate.customer_name,
            exempt_reason: certificate.exempt_reason,
            expires_on: certificate.expires_on,
            days_until: daysUntil,
          },
          organizationId: certificate.organization_id,
          dedupeKey: `certificate.expiring:${certificate.id}:${threshold}`,
        },
        at,
      );
      if (published.created) created++;
    }
    return created;
  });
  return { date: today, events };
}
