/** JSON requests through the service's in-process fetch, with a chosen key. */
import type { TestService } from "./_setup.ts";

export interface JsonResponse {
  res: Response;
  body: any;
}

export async function call(api: TestService, method: string, path: string, options: { key?: string; body?: unknown; raw?: string } = {}): Promise<JsonResponse> {
  const headers: Record<string, string> = { authorization: `Bearer ${options.key ?? api.liveKey}` };
  let payload: string | undefined;
  if (options.raw !== undefined || options.body !== undefined) {
    headers["content-type"] = "application/json";
    payload = options.raw ?? JSON.stringify(options.body);
  }
  const res = await api.service.app.fetch(new Request(`http://buckeye.test${path}`, { method, headers, ...(payload !== undefined && { body: payload }) }));
  const text = await res.text();
  return { res, body: text ? JSON.parse(text) : null };
}

/** The body of `GET /api/v1/rates?<query>` with the live key. */
export async function rate(api: TestService, query: string): Promise<any> {
  return (await call(api, "GET", `/api/v1/rates?${query}`)).body;
}
