// @ts-check
/**
 * The Node.js versions Buckeye supports. better-sqlite3 13 (a Node-API addon), kysely 0.29, p-queue 10
 * and commander 15 need Node 22.12 or later; on Node 20 the SQLite addon crashes the process with a
 * segmentation fault rather than an error, so every entry point checks the version before loading them.
 * Plain JavaScript with no import, so that the oldest Node runs it before tsx or node_modules exist.
 */
export const MINIMUM_NODE = Object.freeze({ major: 22, minor: 12 });

/** The long-term-support lines CI tests (`.ci/run`). */
export const TESTED_NODE_MAJORS = Object.freeze([22, 24]);

/**
 * The message for an unsupported Node version (e.g. "20.20.2"), or undefined when it is supported.
 * @param {string} version
 * @returns {string | undefined}
 */
export function unsupportedNodeMessage(version) {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  if (major > MINIMUM_NODE.major || (major === MINIMUM_NODE.major && minor >= MINIMUM_NODE.minor)) return undefined;
  return [
    `Buckeye needs Node.js ${TESTED_NODE_MAJORS.join(" or ")} (${MINIMUM_NODE.major}.${MINIMUM_NODE.minor} or later); this is Node.js v${version}.`,
    "Get a supported Node.js:",
    "  - from https://nodejs.org or a version manager (nvm install 24, fnm install 24), or",
    "  - without root, from the npm registry, from the project folder:",
    '      export PATH="$(bash scripts/fetch-node.sh 24):$PATH"',
    "    then run npm ci again.",
    "",
  ].join("\n");
}
