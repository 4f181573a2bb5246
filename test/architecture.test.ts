/**
 * The import rules of docs/architecture.md, checked over every file in src/: a room imports its own
 * files and rooms of a lower layer, never upward or sideways (so there is no import loop between
 * rooms), and the adapters (API, dashboard, CLI) never import each other.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = new URL("../src/", import.meta.url).pathname;

/** Each room's layer (a folder of src/, or a file at its top): a room may import only rooms with a smaller number, and itself. */
export const LAYERS: Record<string, number> = {
  "supported-node.js": -1,
  "config.ts": 0, "log.ts": 0, "ids.ts": 0, "error-fields.ts": 0, "require-supported-node.js": 0, "clock.ts": 0, "per-turn.ts": 0, "worker-entries.ts": 0, "closing-stack.ts": 0,
  store: 1, rates: 1, web: 1,
  geo: 2, auth: 2, usage: 2, webhooks: 2, boundaries: 2,
  "load-data.ts": 3, lookup: 3, accounts: 3,
  freshness: 4,
  jobs: 5,
  batch: 6,
  http: 7,
  "runtime.ts": 7.5,
  "reference-page": 8, cli: 8,
  dashboard: 9,
  "docs-generator": 10, "graceful-shutdown.ts": 10,
  "service.ts": 11,
  "cli.ts": 12,
};

/** Adapters that share feature services, never each other's code: the layers alone would allow these. */
const FORBIDDEN = ["dashboard -> http", "http -> dashboard", "cli -> dashboard", "cli.ts -> dashboard", "dashboard -> cli", "cli -> http", "cli.ts -> http", "http -> cli"];

/** `lookup/pipeline.ts` is in the room `lookup`; `config.ts` is a room of its own. */
const roomOf = (file: string) => file.split("/")[0]!;

/** The TypeScript sources and the plain-JavaScript modules beside them (the version check); not the browser assets. */
function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? entry.name === "assets" ? [] : sourceFiles(join(dir, entry.name))
      : /\.(ts|js)$/.test(entry.name) ? [join(dir, entry.name)] : [],
  );
}

/** Every room-to-room import in src/, as "from -> to". */
export function roomImports(): Set<string> {
  const edges = new Set<string>();
  for (const file of sourceFiles()) {
    const from = roomOf(relative(SRC, file));
    for (const [, spec] of readFileSync(file, "utf8").matchAll(/from "(\.{1,2}\/[^"]+)"/g)) {
      const target = relative(SRC, normalize(join(dirname(file), spec!)));
      if (target.startsWith("..")) continue; // migrations/, outside src/
      const to = roomOf(target);
      if (to !== from) edges.add(`${from} -> ${to}`);
    }
  }
  return edges;
}

/** The imports that break the layering: upward or sideways, or from or to a room without a layer. */
export function violations(edges: Iterable<string>, layers = LAYERS): string[] {
  return [...edges]
    .filter((edge) => {
      const [from, to] = edge.split(" -> ") as [string, string];
      return !(from in layers) || !(to in layers) || layers[to]! >= layers[from]!;
    })
    .sort();
}

/**
 * Citations a reader of the repository cannot follow: an issue number, a section of a spec or a
 * DESIGN file, the ISSUE9 notes, research notes outside the repository. A comment states the rule,
 * or links the doc in docs/ that holds it.
 */
const UNREADABLE_CITATION = /\bissues? ?#?\d|\bspec §|\bDESIGN(\.md)? §|ISSUE9|\bresearch\//i;

/**
 * The comments of a source file, block and line, read past string literals (so `"*\/*"` or a URL's
 * `//` in a string starts none). A template literal's `${…}` is read as part of the string.
 */
export function comments(source: string): string[] {
  const found: string[] = [];
  for (let at = 0; at < source.length; at++) {
    const char = source[at]!;
    if (char === '"' || char === "'" || char === "`") {
      while (++at < source.length && source[at] !== char) if (source[at] === "\\") at++;
    } else if (source.startsWith("//", at) || source.startsWith("/*", at)) {
      const end = source.startsWith("//", at) ? source.indexOf("\n", at) : source.indexOf("*/", at) + 2;
      const stop = end <= at ? source.length : end;
      found.push(source.slice(at, stop));
      at = stop - 1;
    }
  }
  return found;
}

/** The comment lines of a file that cite what the repository does not hold, as "file: line". */
export function unreadableCitations(file: string, source: string): string[] {
  return comments(source)
    .flatMap((comment) => comment.split("\n"))
    .filter((line) => UNREADABLE_CITATION.test(line))
    .map((line) => `${file}: ${line.trim()}`);
}

describe("import rules (docs/architecture.md)", () => {
  it("every room in src/ has a layer", () => {
    const rooms = new Set(sourceFiles().map((file) => roomOf(relative(SRC, file))));
    expect([...rooms].filter((room) => !(room in LAYERS))).toEqual([]);
  });

  it("a room imports only rooms of a lower layer: nothing imports upward or sideways, so there are no import loops", () => {
    expect(violations(roomImports())).toEqual([]);
  });

  it("the API, the dashboard and the CLI share feature services, never each other's code", () => {
    expect([...roomImports()].filter((edge) => FORBIDDEN.includes(edge))).toEqual([]);
  });

  it("config.ts owns its section types and imports nothing of ours", () => {
    expect([...roomImports()].filter((edge) => edge.startsWith("config.ts -> "))).toEqual([]);
  });

  it("the check catches an upward import (the store reaching into http)", () => {
    expect(violations(["store -> http", "http -> store"])).toEqual(["store -> http"]);
  });

  it("the check catches a sideways import between rooms of one layer", () => {
    expect(violations(["geo -> auth"])).toEqual(["geo -> auth"]);
  });
});

describe("the typed client (client/, a package of its own)", () => {
  const CLIENT = new URL("../client/", import.meta.url).pathname;

  it("imports only its own files and its packages, never the service", () => {
    const outside = readdirSync(CLIENT)
      .filter((name) => name.endsWith(".ts"))
      .flatMap((name) =>
        [...readFileSync(join(CLIENT, name), "utf8").matchAll(/from "(\.{1,2}\/[^"]+)"/g)]
          .map(([, spec]) => relative(CLIENT, normalize(join(CLIENT, spec!))))
          .filter((target) => target.startsWith("..")),
      );
    expect(outside).toEqual([]);
  });

  it("is not compiled into the service's dist/", () => {
    const build = JSON.parse(readFileSync(new URL("../tsconfig.build.json", import.meta.url), "utf8")) as { include: string[] };
    expect(build.include.filter((entry) => entry === "client" || entry.startsWith("client/"))).toEqual([]);
  });
});

describe("comments cite only what the repository holds", () => {
  it("no comment in src/ cites an issue number, a spec or DESIGN section, or the ISSUE9 notes", () => {
    // The generated client types carry the OpenAPI document's descriptions, which are the served document's text, not comments.
    const written = sourceFiles().filter((file) => !file.endsWith("/api-types.ts"));
    expect(written.flatMap((file) => unreadableCitations(relative(SRC, file), readFileSync(file, "utf8")))).toEqual([]);
  });

  it("the check catches a planted citation, and leaves code and URLs alone", () => {
    const source = [
      "/**",
      " * Imports the file (issue 9 §2), as the rule says.",
      " */",
      'const url = "https://example.com/issue 9"; // the ladder of spec §3',
      "// DESIGN §4: instances come and go; see ISSUE9-INTERFACES.md",
      'const fine = "spec §2.1 */* //"; // docs/guides/address-resolution.md',
    ].join("\n");
    expect(unreadableCitations("planted.ts", source)).toEqual([
      "planted.ts: * Imports the file (issue 9 §2), as the rule says.",
      "planted.ts: // the ladder of spec §3",
      "planted.ts: // DESIGN §4: instances come and go; see ISSUE9-INTERFACES.md",
    ]);
  });
});
