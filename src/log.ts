/**
 * The one logger: a function taking one structured entry. The service writes JSON lines on stderr
 * (jsonLogger); tests and the CLI pass their own. Every room that logs takes a Logger.
 */
export type Logger = (entry: Record<string, unknown>) => void;

export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const;

/**
 * One JSON object per line on stderr (or `out`: tests read the lines the service would write);
 * entries below `level` (an entry without a level is info) are dropped.
 */
export function jsonLogger(level: LogLevel, out: { write(line: string): unknown } = process.stderr): Logger {
  if (level === "silent") return () => {};
  const threshold = LEVELS[level];
  return (entry) => {
    if ((LEVELS[entry.level as keyof typeof LEVELS] ?? LEVELS.info) < threshold) return;
    out.write(`${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`);
  };
}
