/**
 * A real webhook receiver for the tests: node:http on 127.0.0.1, port 0. It keeps every request
 * (headers and the raw body, byte for byte, as signature checks need) and answers through a
 * responder the test can change at any time.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** performance.now() when the request finished arriving. */
  at: number;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  /** The answer's body; "ok" when not given. */
  body?: string;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Never answer (until the receiver closes). */
  hang?: boolean;
}

export type Responder = (request: Received, index: number) => Answer;

export interface Receiver {
  url: string;
  received: Received[];
  respond: Responder;
  /** Resolves once `predicate` holds, polling every 10 ms; rejects after `timeoutMs`. */
  waitFor(predicate: (received: Received[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(respond: Responder = () => ({ status: 200 })): Promise<Receiver> {
  const hanging = new Set<ServerResponse>();
  const receiver: Receiver = {
    url: "",
    received: [],
    respond,
    async waitFor(predicate, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(receiver.received)) {
        if (Date.now() > deadline) throw new Error(`receiver: condition not met after ${timeoutMs} ms (${receiver.received.length} requests)`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    close: () =>
      new Promise((resolve) => {
        for (const response of hanging) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const received: Received = { path: request.url ?? "/", headers: request.headers, body: Buffer.concat(chunks).toString("utf8"), at: performance.now() };
      const index = receiver.received.push(received) - 1;
      const answer = receiver.respond(received, index);
      if (answer.hang) {
        hanging.add(response);
        return;
      }
      setTimeout(() => response.writeHead(answer.status, answer.headers ?? {}).end(answer.body ?? "ok"), answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}
