/** The baseline: a bare h3 route returning a small JSON object, served the same way as Buckeye. */
import { H3 } from "h3";
import { toNodeHandler } from "h3/node";
import { listen } from "listhen";

const app = new H3();
app.get("/bare", () => ({ county: "Franklin", combined_rate: 0.08 }));
const listener = await listen(toNodeHandler(app), { port: 0, hostname: "127.0.0.1", showURL: false, qr: false });
process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${listener.address.port}` })}\n`);
