import { request as httpRequest } from "node:http";
import { createServer } from "node:net";

/** Requests to a server on a real socket (a spawned CLI, the compiled build, Deno), with an API key. */
export interface JsonAnswer {
  res: Response;
  body: any;
}

/** GET `url` with `key` as the Bearer token (none when null): the response and its JSON body. */
export async function getJson(url: string, key: string | null): Promise<JsonAnswer> {
  const res = await fetch(url, { headers: key === null ? {} : { authorization: `Bearer ${key}` } });
  return { res, body: await res.json() };
}

/** A port nothing listens on now, for a program that takes a port number, not 0 (Prism, Prometheus). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A request over a real socket from a loopback address of our choosing (all of 127/8 is this host); empty headers are left out. */
export function requestFrom(base: string, localAddress: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; cookies: string[]; body: string }> {
  const target = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: target.hostname, port: target.port, path: target.pathname + target.search, method, localAddress, headers: Object.fromEntries(Object.entries(headers).filter(([, v]) => v)) }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, cookies: res.headers["set-cookie"] ?? [], body: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    req.end(body);
  });
}
