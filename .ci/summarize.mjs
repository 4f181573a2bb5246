// Prints the closing line CI reads ("N passed, N failed") from one or more vitest JSON reports,
// summed (.ci/run makes four: the fast group on Node 24 with SQLite and with PostgreSQL and on Node 22
// with SQLite, then the end-to-end group). Each run's ten slowest files are named too, so a file that grows
// slow is seen before it takes the fast group past its budget (README, "Testing"; .ci/run warns once it has). A skipped
// or pending test counts as a failure here: a test that did not run proved nothing. So does a run that left no report.
import { existsSync, readFileSync } from "node:fs";

function firstLine(text) {
  return String(text ?? "").split("\n")[0].slice(0, 300);
}

let passed = 0;
let failed = 0;
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    console.log(`${file}: no report (the run did not finish); counted as 1 failure.`);
    failed += 1;
    continue;
  }
  const report = JSON.parse(readFileSync(file, "utf8"));
  const skipped = report.numPendingTests + report.numTodoTests;
  // A file that failed without a failing test (it did not load, or a hook threw) counts once. vitest's
  // numFailedTestSuites also counts every describe around a failing test, so it would count that test twice.
  const brokenFiles = report.testResults.filter((f) => f.status === "failed" && !f.assertionResults.some((a) => a.status === "failed")).length;
  const runFailed = report.numFailedTests + skipped + brokenFiles;
  if (skipped > 0) console.log(`${file}: ${skipped} test(s) were skipped or todo; they count as failures.`);
  // Named here as well as in vitest's own output, since a reader of CI may see only the closing lines.
  for (const f of report.testResults) {
    if (f.status === "failed" && !f.assertionResults.some((a) => a.status === "failed")) console.log(`  broken file ${f.name}: ${firstLine(f.message)}`);
    for (const a of f.assertionResults.filter((a) => a.status !== "passed")) {
      console.log(`  ${a.status} ${f.name.replace(process.cwd() + "/", "")} > ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`);
    }
  }
  const slowest = report.testResults
    .map((f) => ({ name: f.name.replace(process.cwd() + "/", ""), seconds: (f.endTime - f.startTime) / 1000 }))
    .sort((x, y) => y.seconds - x.seconds)
    .slice(0, 10);
  console.log(`${file}: ten slowest files`);
  for (const f of slowest) console.log(`  ${f.seconds.toFixed(0).padStart(4)} s  ${f.name}`);
  console.log(`${file}: ${report.numPassedTests} passed, ${runFailed} failed`);
  passed += report.numPassedTests;
  failed += runFailed;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
