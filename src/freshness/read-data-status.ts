/** Gathers the data status (data-status.ts) from the reconciliation log, GEO_DATA_DIR and the boundary-file seam. */
import type { PolygonFiles } from "../geo/polygon-files.ts";
import { dateInOhio } from "../rates/calendar.ts";
import type { Db } from "../store/database.ts";
import { listReconciliations } from "../store/reconciliations.repository.ts";
import { activeBoundaryFile } from "./boundary-file.ts";
import { dataStatus, type DataStatus } from "./data-status.ts";
import type { RatesFreshness } from "./rates-freshness.ts";

export interface DataStatusDeps {
  db: Db;
  /** The rates' freshness as answers state it (the running service's RateData, or read afresh by the CLI). */
  freshness: () => Promise<RatesFreshness>;
  /** The county and place polygon files the service loads. */
  polygons: PolygonFiles;
  zctaVintage: number;
  staleAfterDays: number;
}

export async function readDataStatus(deps: DataStatusDeps, at: Date): Promise<DataStatus> {
  const [freshness, [latest], boundaryFile] = await Promise.all([deps.freshness(), listReconciliations(deps.db, 1), activeBoundaryFile(deps.db)]);
  return dataStatus({
    today: dateInOhio(at),
    staleAfterDays: deps.staleAfterDays,
    freshness,
    lastRun: latest ? { id: latest.id, status: latest.status, date: latest.reconciled_on, file: latest.file_name, error: latest.error } : null,
    polygons: deps.polygons,
    zctaVintage: deps.zctaVintage,
    boundaryFile,
  });
}
