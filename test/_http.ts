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
