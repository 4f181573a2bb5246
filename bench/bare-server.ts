/**
 * The baseline: a bare h3 route returning a small JSON object, served the same way as Buckeye. With
 * BARE_POST_ANSWER (a JSON text), also `POST /bare`: reads the JSON body with h3's own reader and answers
 * that fixed object, so a POST endpoint has a floor of the same bytes in and out to be held against
 * (bench/tax-calculation.ts). With BARE_GET_ANSWER (`{"headers": {...}, "body": "..."}`), also
 * `GET /bare-same-bytes`: that text with those headers, as it is, so a lookup's answer has a floor of
 * its own size to be held against (bench/run.ts): the load generator shares the cores, and reading a
 * larger answer costs it more.
 */
import { H3, readBody } from "h3";
import { toNodeHandler } from "h3/node";
import { listen } from "listhen";

const app = new H3();
app.get("/bare", () => ({ county: "Franklin", combined_rate: 0.08 }));
const postAnswer = process.env.BARE_POST_ANSWER;
if (postAnswer !== undefined) {
  const answer: unknown = JSON.parse(postAnswer);
  app.post("/bare", async (event) => {
    await readBody(event);
    return answer;
  });
}
const getAnswer = process.env.BARE_GET_ANSWER === undefined ? undefined : (JSON.parse(process.env.BARE_GET_ANSWER) as { headers: Record<string, string>; body: string });
if (getAnswer) {
  app.get("/bare-same-bytes", (event) => {
    for (const [name, value] of Object.entries(getAnswer.headers)) event.res.headers.set(name, value);
    return getAnswer.body;
  });
}
const listener = await listen(toNodeHandler(app), { port: 0, hostname: "127.0.0.1", showURL: false, qr: false });
process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${listener.address.port}` })}\n`);
