/** `npm run docs:generate`: writes the generated references in docs/ (src/docs-generator/references.ts). */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { CONFIGURATION_REFERENCE, configurationReference, ERROR_REFERENCE, errorReference } from "../src/docs-generator/references.ts";
import { REPO_ROOT } from "../src/config.ts";

for (const [path, text] of [[ERROR_REFERENCE, errorReference()], [CONFIGURATION_REFERENCE, configurationReference()]] as const) {
  writeFileSync(join(REPO_ROOT, path), text);
  console.log(`wrote ${path}`);
}
