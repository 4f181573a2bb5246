/**
 * The state posts its SST rate file as CSV or, at times, as a ZIP archive holding it
 * (the SST programme lets a state switch between the two). Recognised by its
 * bytes, not its name, so either works from a URL or a path. Pure: bytes in, text or a problem out.
 */
import { strFromU8, unzipSync } from "fflate";

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

export type SstText = { ok: true; text: string; entry: string | null } | { ok: false; error: string };

export function sstTextFrom(bytes: Uint8Array): SstText {
  if (!ZIP_MAGIC.every((byte, i) => bytes[i] === byte)) return { ok: true, text: strFromU8(bytes), entry: null };
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, { filter: (file) => /\.csv$/i.test(file.name) && !file.name.endsWith("/") });
  } catch (error) {
    return { ok: false, error: `the ZIP archive cannot be read: ${error instanceof Error ? error.message : String(error)}` };
  }
  const names = Object.keys(files);
  if (names.length !== 1) {
    return { ok: false, error: `the ZIP archive holds ${names.length} CSV files (${names.join(", ") || "none"}); expected exactly one rate file` };
  }
  return { ok: true, text: strFromU8(files[names[0]!]!), entry: names[0]! };
}
