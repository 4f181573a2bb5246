/**
 * Validation of webhook bodies (docs/guides/webhooks-and-jobs.md): `url` must be https, or plain http to a loopback host
 * for a tax_test_ key where the operator allows loopback targets; every URL must resolve only to
 * public addresses or, for a test key, to the non-public kinds the operator allows (WEBHOOK_PRIVATE_TARGETS);
 * `events` lists names from event-types.ts or "*". Every problem is reported at once, as invalid_params.
 */
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { z } from "zod";
import type { KeyEnv } from "../store/database.ts";
import { allowedTargetsFor, isAllowedAddress, isLoopbackHost, type AllowedTargets } from "./address-guard.ts";
import { SUBSCRIBABLE_EVENTS } from "./event-types.ts";

export interface InvalidParam {
  name: string;
  reason: string;
}

export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

const eventsSchema = z
  .array(z.string(), { error: "must be an array of event names" })
  .min(1, "must list at least one event, or \"*\" for all")
  .max(SUBSCRIBABLE_EVENTS.length + 1, "lists more events than exist")
  .superRefine((events, ctx) => {
    for (const name of events) {
      if (name !== "*" && !(SUBSCRIBABLE_EVENTS as readonly string[]).includes(name)) {
        ctx.addIssue({ code: "custom", message: `unknown event "${name}"; known: ${SUBSCRIBABLE_EVENTS.join(", ")}, or *` });
      }
    }
    if (new Set(events).size !== events.length) ctx.addIssue({ code: "custom", message: "lists an event more than once" });
  });

const urlSchema = z.string({ error: "must be a string" }).min(1, "must not be empty").max(2048, "must be at most 2048 characters");

export const createWebhookSchema = z.strictObject({ url: urlSchema, events: eventsSchema });
export const updateWebhookSchema = z
  .strictObject({
    url: urlSchema.optional(),
    events: eventsSchema.optional(),
    status: z.enum(["active", "disabled"], { error: "must be active or disabled" }).optional(),
  })
  .refine((body) => Object.keys(body).length > 0, "send at least one of url, events, status");

export type UrlCheck = { ok: true; href: string } | { ok: false; problems: InvalidParam[] };

// The URL parser silently drops tabs and line breaks and trims spaces and control characters, and
// reads "\\" as "/": a URL that needed any of that is refused rather than stored as something else.
const UNSAFE_CHARACTERS = /[\u0000-\u0020\u007f-\u009f\\]/;

/**
 * Checks a destination URL for a key of this environment. A good URL is stored as its WHATWG
 * serialisation (`new URL(text).href`: scheme and host lower-cased, default port dropped, the
 * host in punycode, the path percent-encoded), so what is shown and delivered to is what was checked.
 */
export async function checkWebhookUrl(text: string, env: KeyEnv, privateTargets: AllowedTargets, resolve: Resolver = systemResolver): Promise<UrlCheck> {
  const problems = await urlProblems(text, env, privateTargets, resolve);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, href: new URL(text).href };
}

async function urlProblems(text: string, env: KeyEnv, privateTargets: AllowedTargets, resolve: Resolver): Promise<InvalidParam[]> {
  const allowed = allowedTargetsFor(env, privateTargets);
  const bad = (reason: string) => [{ name: "url", reason }];
  if (UNSAFE_CHARACTERS.test(text)) return bad("must not contain spaces, control characters (such as CR or LF) or backslashes");
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return bad("must be an absolute URL such as https://example.com/hooks/tax");
  }
  if (url.port === "0") return bad("must not use port 0");
  if (url.username || url.password) return bad("must not carry credentials; authenticate deliveries by their signature");
  if (url.hash) return bad("must not have a #fragment");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (url.protocol === "http:") {
    if (env !== "test") return bad("must use https; plain http is allowed only to loopback, for a test webhook (one registered with a tax_test_ key, or as Test in the dashboard)");
    if (!isLoopbackHost(host)) return bad("plain http is allowed only to a loopback host (localhost, 127.0.0.1, [::1]); use https");
    if (!allowed.has("loopback")) return bad("must not be a loopback address: this server delivers only to public addresses");
  } else if (url.protocol !== "https:") return bad("must use https");
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      return bad(`host ${host} does not resolve`);
    }
  }
  const blocked = addresses.find((address) => !isAllowedAddress(address, allowed));
  if (blocked) return bad(`resolves to ${blocked}, which is not a public address; webhooks must reach the public internet`);
  return [];
}
