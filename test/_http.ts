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
