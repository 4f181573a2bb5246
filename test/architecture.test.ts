/**
 * The import rules of docs/architecture.md, checked over every file in src/ and workers/: a room
 * imports its own files and rooms of a lower layer, never upward or sideways (so there is no import
 * loop between rooms), no file imports itself back through other files (so there is no loop inside a
 * room either), and the adapters (API, dashboard, CLI) never import each other. An import is any of
 * `import … from "…"`, `import type … from "…"`, `import "…"`, `export … from "…"` and `import("…")`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = new URL("../", import.meta.url).pathname;
const SRC = join(ROOT, "src");
const WORKERS = join(ROOT, "workers");

/** Each room's layer (a folder of src/, or a file at its top): a room may import only rooms with a smaller number, and itself. */
export const LAYERS: Record<string, number> = {
  "supported-node.js": -1,
  // Below metrics.ts, which defines the request path's counters with it.
  "metric-tallies.ts": -0.5,
  "config.ts": 0, "log.ts": 0, "ids.ts": 0, "error-fields.ts": 0, "require-supported-node.js": 0, "clock.ts": 0, "per-turn.ts": 0, "worker-entries.ts": 0, "closing-stack.ts": 0, "metrics.ts": 0, "organization-limits.ts": 0, "give-back-memory.ts": 0,
  store: 1, rates: 1, web: 1, mail: 1,
  tax: 1.5,
  geo: 2, auth: 2, usage: 2, webhooks: 2, boundaries: 2,
  "load-data.ts": 3, lookup: 3, accounts: 3,
  freshness: 4,
  "runtime.ts": 4.5,
  returns: 4.6,
  ledger: 4.6,
  // Below scheduled/: batch/ needs nothing above lookup/, and the retention sweep deletes expired batch jobs.
  batch: 4.7,
  scheduled: 5,
  http: 7,
  "reference-page": 8, cli: 8,
  dashboard: 9,
  "docs-generator": 10, "graceful-shutdown.ts": 10,
  "service-metrics.ts": 10.5,
  "service.ts": 11,
  "cli.ts": 12,
  // The thread entries the lookup and boundary rooms load by path: above the rooms they call (batch/'s job tasks included), imported by none.
  workers: 4.8,
};

/** Adapters that share feature services, never each other's code: the layers alone would allow these. */
const FORBIDDEN = [
  "dashboard -> http", "http -> dashboard",
  "cli -> dashboard", "cli.ts -> dashboard", "dashboard -> cli",
  "cli -> http", "cli.ts -> http", "http -> cli",
];

/**
 * `lookup/ladder.ts` is in the room `lookup`, `config.ts` is a room of its own, and every file of
 * workers/ is in the room `workers`; a file elsewhere (migrations/) is in no room (undefined).
 */
function roomOf(file: string): string | undefined {
  const path = relative(ROOT, file);
  if (path.startsWith("workers/")) return "workers";
  if (path.startsWith("src/")) return path.split("/")[1]!;
  return undefined;
}

/** The TypeScript sources and the plain-JavaScript modules beside them (the version check, the thread loaders); not the browser assets. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? entry.name === "assets" ? [] : sourceFiles(join(dir, entry.name))
      : /\.(ts|m?js)$/.test(entry.name) ? [join(dir, entry.name)] : [],
  );
}

/** The relative specifiers a module imports: static and side-effect imports, re-exports and dynamic imports. */
export function importSpecifiers(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)].map((match) => match[1]!);
}

/** Every room-to-room import of `files` (by default every file of src/ and workers/), as "from -> to". */
export function roomImports(files: Iterable<[path: string, text: string]> = readSources()): Set<string> {
  const edges = new Set<string>();
  for (const [file, text] of files) {
    const from = roomOf(file);
    for (const spec of importSpecifiers(text)) {
      const to = roomOf(normalize(join(dirname(file), spec)));
      if (to !== undefined && to !== from) edges.add(`${from} -> ${to}`);
    }
  }
  return edges;
}

/**
 * The import loops between files of `files` (by default every file of src/ and workers/): each loop
 * is the set of files that reach each other through their imports (a strongly connected component
 * of more than one file, or a file importing itself), as paths relative to the checkout, sorted.
 * Type-only imports count: a loop of types is still a loop a reader must hold in mind at once.
 */
export function fileLoops(files: Iterable<[path: string, text: string]> = readSources()): string[][] {
  const edges = new Map<string, string[]>();
  for (const [file, text] of files) {
    edges.set(file, importSpecifiers(text).map((spec) => normalize(join(dirname(file), spec))));
  }
  // Tarjan's algorithm, iterative so a long import chain cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const loops: string[][] = [];
  let next = 0;
  for (const root of edges.keys()) {
    if (index.has(root)) continue;
    const work: Array<{ file: string; at: number }> = [{ file: root, at: 0 }];
    index.set(root, next); low.set(root, next++); stack.push(root); onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const targets = (edges.get(frame.file) ?? []).filter((target) => edges.has(target));
      if (frame.at < targets.length) {
        const target = targets[frame.at++]!;
        if (!index.has(target)) {
          index.set(target, next); low.set(target, next++); stack.push(target); onStack.add(target);
          work.push({ file: target, at: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.file, Math.min(low.get(frame.file)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.file, Math.min(low.get(parent.file)!, low.get(frame.file)!));
      if (low.get(frame.file) !== index.get(frame.file)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(relative(ROOT, member));
      } while (member !== frame.file);
      if (component.length > 1 || targets.includes(frame.file)) loops.push(component.sort());
    }
  }
  return loops.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

function* readSources(): Iterable<[string, string]> {
  for (const file of [...sourceFiles(SRC), ...sourceFiles(WORKERS)]) yield [file, readFileSync(file, "utf8")];
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
    const rooms = new Set([...sourceFiles(SRC), ...sourceFiles(WORKERS)].map((file) => roomOf(file)!));
    expect([...rooms].filter((room) => !(room in LAYERS))).toEqual([]);
  });

  it("a room imports only rooms of a lower layer: nothing imports upward or sideways, so there are no import loops", () => {
    expect(violations(roomImports())).toEqual([]);
  });

  it("no file imports itself back through other files, type-only imports included: there are no import loops between files", () => {
    expect(fileLoops()).toEqual([]);
  });

  it("the check catches a loop between files of one room, through a type-only import", () => {
    const planted: Array<[string, string]> = [
      [join(SRC, "lookup/planted-a.ts"), 'import { b } from "./planted-b.ts";\n'],
      [join(SRC, "lookup/planted-b.ts"), 'import type { C } from "./planted-c.ts";\n'],
      [join(SRC, "lookup/planted-c.ts"), 'export type { A } from "./planted-a.ts";\n'],
      [join(SRC, "lookup/planted-d.ts"), 'import { a } from "./planted-a.ts";\n'],
    ];
    expect(fileLoops(planted)).toEqual([["src/lookup/planted-a.ts", "src/lookup/planted-b.ts", "src/lookup/planted-c.ts"]]);
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

  it("the check sees a dynamic import (the store loading http/ lazily)", () => {
    const planted: [string, string] = [join(SRC, "store/planted.ts"), 'const { createApp } = await import("../http/app.ts");\n'];
    expect(violations(roomImports([planted]))).toEqual(["store -> http"]);
  });

  it("the check sees a re-export (auth/ passing on what http/ exports)", () => {
    const planted: [string, string] = [join(SRC, "auth/planted.ts"), 'export { admitRequest } from "../http/admit-request.ts";\nexport type { ApiContext } from "../http/context.ts";\n'];
    expect(violations(roomImports([planted]))).toEqual(["auth -> http"]);
  });

  it("the check sees workers/: a thread entry importing the composition root", () => {
    const planted: [string, string] = [join(WORKERS, "planted.ts"), 'import { createService } from "../src/service.ts";\n'];
    expect(violations(roomImports([planted]))).toEqual(["workers -> service.ts"]);
  });

  it("the check sees the CLI importing the API", () => {
    const planted: [string, string] = [join(SRC, "cli/planted.ts"), 'import { lookupAnswer } from "../http/routes/lookup-answers.ts";\n'];
    expect([...roomImports([planted])].filter((edge) => FORBIDDEN.includes(edge))).toEqual(["cli -> http"]);
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
    const written = sourceFiles(SRC);
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
