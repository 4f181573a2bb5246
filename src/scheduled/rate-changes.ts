/**
 * The rate-changes job, run shortly after midnight in Ohio: one rate.changed for every county
 * whose figures change that day. lead_days counts from when the change was announced: the
 * posting date of the rate file reconciliation first recorded it from or, for a change shipped in
 * data/, the date that data was last reconciled.
 */
import { dateInOhio, type IsoDate } from "../rates/calendar.ts";
import type { Db } from "../store/database.ts";
import { publishEvent } from "../webhooks/outbox.ts";
import type { RateData } from "../freshness/rate-data.ts";
import { describeChange } from "./rate-change-data.ts";

export interface RateChangesDeps {
  db: Db;
  rateData: RateData;
  shippedLastReconciled: IsoDate;
}

export async function publishRateChanges(deps: RateChangesDeps, at: Date): Promise<{ date: IsoDate; events: number }> {
  const today = dateInOhio(at);
  await deps.rateData.refresh();
  const table = deps.rateData.table;
  const announcedOn = (fips: string): IsoDate => {
    const dates = deps.rateData.recorded.filter((p) => p.fips === fips && p.effective_from === today).map((p) => p.announced_on);
    return dates.sort()[0] ?? (deps.shippedLastReconciled < today ? deps.shippedLastReconciled : today);
  };
  const changes = table.counties
    .map((county) => describeChange(table, county, today, { announced: announcedOn(county.fips), today }))
    .filter((change) => change !== null);
  const events = await deps.db.transaction().execute(async (trx) => {
    let created = 0;
    for (const change of changes) {
      const published = await publishEvent(trx, { type: "rate.changed", data: change, dedupeKey: `rate.changed:${change.fips}:${change.effective_date}` }, at);
      if (published.created) created++;
    }
    return created;
  });
  return { date: today, events };
}
