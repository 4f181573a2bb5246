/**
 * The filing-reminders job: filing.due to each active organization 7 days and 1 day before its
 * Ohio sales tax return is due. Ohio returns are due on the 23rd of the month after the period
 * (R.C. 5739.12): monthly filers for each month, semiannual filers for January–June (due July 23)
 * and July–December (due January 23). A reminder missed on its day (the service was down) is sent
 * on the next run before the following one is due, and each is sent once. Each names its period and
 * where the period's worksheet is (src/returns/).
 */
import { addDays, dateInOhio, daysBetween, type IsoDate } from "../rates/calendar.ts";
import type { Db, FilingFrequency } from "../store/database.ts";
import { periodLabel, returnPaths } from "../returns/periods.ts";
import type { FilingDueData } from "../webhooks/event-types.ts";
import { publishEvent } from "../webhooks/outbox.ts";

/** Reminder thresholds in days before the due date; each one's window ends where the next begins. */
const THRESHOLDS = [7, 1] as const;

const monthStart = (year: number, month: number): IsoDate => new Date(Date.UTC(year, month - 1, 1)).toISOString().slice(0, 10);

/** The filing period whose return is due on the 23rd of (year, month), if this frequency files then. */
export function periodDueIn(frequency: FilingFrequency, year: number, month: number): FilingDueData | null {
  if (frequency === "semiannual" && month !== 1 && month !== 7) return null;
  const months = frequency === "monthly" ? 1 : 6;
  const dueDate = `${monthStart(year, month).slice(0, 8)}23`;
  const periodEnd = addDays(monthStart(year, month), -1);
  const [endYear, endMonth] = periodEnd.split("-").map(Number) as [number, number];
  const periodStart = monthStart(endYear, endMonth - months + 1);
  const period = periodLabel(frequency, periodStart);
  const paths = returnPaths(period);
  return {
    filing_frequency: frequency,
    period,
    period_start: periodStart,
    period_end: periodEnd,
    due_date: dueDate,
    days_until: 0,
    worksheet: { api_path: paths.api, dashboard_path: paths.dashboard },
  };
}

/** Reminders due on `today` for a frequency: at most one per upcoming due date, with its threshold. */
export function remindersFor(frequency: FilingFrequency, today: IsoDate): Array<{ data: FilingDueData; threshold: number }> {
  const [year, month] = today.split("-").map(Number) as [number, number];
  const out: Array<{ data: FilingDueData; threshold: number }> = [];
  for (const offset of [0, 1]) {
    const due = periodDueIn(frequency, month + offset > 12 ? year + 1 : year, ((month + offset - 1) % 12) + 1);
    if (!due) continue;
    const daysUntil = daysBetween(today, due.due_date);
    const threshold = THRESHOLDS.find((t, i) => daysUntil <= t && daysUntil > (THRESHOLDS[i + 1] ?? 0));
    if (threshold !== undefined) out.push({ data: { ...due, days_until: daysUntil }, threshold });
  }
  return out;
}

export async function publishFilingReminders(db: Db, at: Date): Promise<{ date: IsoDate; events: number }> {
  const today = dateInOhio(at);
  const organizations = await db.selectFrom("organizations").select(["id", "filing_frequency"]).where("status", "=", "active").execute();
  const events = await db.transaction().execute(async (trx) => {
    let created = 0;
    for (const organization of organizations) {
      for (const { data, threshold } of remindersFor(organization.filing_frequency, today)) {
        const published = await publishEvent(
          trx,
          { type: "filing.due", data, organizationId: organization.id, dedupeKey: `filing.due:${organization.id}:${data.period_end}:${threshold}` },
          at,
        );
        if (published.created) created++;
      }
    }
    return created;
  });
  return { date: today, events };
}
