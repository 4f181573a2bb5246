/**
 * How a thrown value is written to the log: its message and those of its causes, the first error
 * code among them (ECONNREFUSED, 23505, …) and the innermost stack. `String(error)` is not enough:
 * h3 keeps its options object as an HTTPError's `cause`, and a plain object prints as
 * "[object Object]".
 */
export interface ErrorFields {
  error: string;
  code?: string;
  stack?: string;
}

export function errorFields(thrown: unknown): ErrorFields {
  const messages: string[] = [];
  let code: string | undefined;
  let stack: string | undefined;
  const seen = new Set<unknown>();
  for (let current: unknown = thrown; current !== null && current !== undefined && !seen.has(current); current = (current as { cause?: unknown }).cause) {
    seen.add(current);
    if (typeof current !== "object") {
      messages.push(String(current));
      break;
    }
    const { message, code: ownCode, name } = current as { message?: unknown; code?: unknown; name?: unknown };
    if (typeof message === "string" && message !== "" && !messages.includes(message)) {
      const named = current instanceof Error && typeof name === "string" && name !== "Error" && name !== "HTTPError";
      messages.push(named ? `${name}: ${message}` : message);
    }
    if (code === undefined && (typeof ownCode === "string" || typeof ownCode === "number")) code = String(ownCode);
    if (current instanceof Error && current.stack) stack = current.stack;
    if (current instanceof AggregateError) messages.push(...current.errors.map((inner) => errorFields(inner).error));
  }
  return {
    error: messages.length > 0 ? messages.join(": ") : Object.prototype.toString.call(thrown),
    ...(code !== undefined && { code }),
    ...(stack !== undefined && { stack }),
  };
}
