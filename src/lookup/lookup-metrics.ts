/**
 * What the lookup service's answers add to the metrics (docs/operations/metrics.md), counted on the
 * answering thread as the answers return: each answer by `resolved_by` (`failure` for a problem, `ambiguous` for a ZIP
 * in several jurisdictions),
 * and each street address the state's boundary file was asked about, by whether it matched or why not
 * (its `boundary_file_miss` reason). Answers resolved inside batch-lane threads (job chunks, long
 * inline lists) are counted by the job metrics instead, since a thread's registry is never scraped.
 */
import { boundaryFileMatches, lookupAnswers } from "../metrics.ts";
import type { ItemResult } from "./item-result.ts";
import type { Settled } from "./ladder.ts";

const FILE_RECORDS = new Set(["address_range", "zip4_range"]);

export function countAnswers(results: readonly ItemResult[], settled: Settled): void {
  for (const result of results) {
    if (result.kind === "failure") lookupAnswers.inc({ resolved_by: "failure" });
    else if (result.kind === "ambiguous") lookupAnswers.inc({ resolved_by: "ambiguous" });
    else {
      lookupAnswers.inc({ resolved_by: result.body.resolved_by });
      if (FILE_RECORDS.has(result.body.resolved_by)) boundaryFileMatches.inc({ outcome: "matched" });
    }
  }
  for (const { miss } of settled.pending) if (miss !== null) boundaryFileMatches.inc({ outcome: miss.reason });
}
