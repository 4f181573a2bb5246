/**
 * Webhook signatures checked by an independent implementation: the official `stripe` package,
 * whose scheme (`t=…,v1=…`, HMAC-SHA256) ours follows. Verified as of the delivery's own
 * timestamp, since a test may pin the service's clock.
 */
import Stripe from "stripe";
import type { Received } from "./_receiver.ts";

// Stripe's constructor wants an API key; nothing here touches the network.
const stripe = new Stripe("sk_test_verification_only");

/** The event a delivery carries, or a thrown error when its signature does not verify with `secret`. */
export function verifySignature(received: Received, secret: string): any {
  const timestamp = Number(received.headers["x-webhook-timestamp"]);
  return stripe.webhooks.constructEvent(received.body, String(received.headers["x-webhook-signature"]), secret, 300, undefined, timestamp * 1000);
}
