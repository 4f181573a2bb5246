/**
 * Whether an uploaded file is UTF-8, and where it stops being so. A byte that is not part of a
 * UTF-8 character would be decoded as U+FFFD, three bytes once stored: a 65 MB file of 0xFF was
 * stored as 185 MB (reported). So a file that is not UTF-8 is refused whole, naming the line and the
 * byte offset, before anything is stored. Node's `isUtf8` checks the file natively (65 MB in tens of
 * milliseconds here); only the block it refuses is walked here, to find the first bad byte by the rules of the
 * WHATWG UTF-8 decoder (no overlong forms, no surrogates, nothing past U+10FFFF). Pure.
 */
import { isUtf8 } from "node:buffer";

const LINE_FEED = 0x0a;
/** Blocks of about this many bytes, each cut after a line feed (never inside a character), are checked natively. */
const BLOCK_BYTES = 1024 * 1024;

/** The byte offset of the first byte that is not part of a UTF-8 character, or -1 for a UTF-8 file. */
export function firstNonUtf8Byte(bytes: Uint8Array): number {
  for (let start = 0; start < bytes.length; ) {
    const feed = bytes.indexOf(LINE_FEED, Math.min(start + BLOCK_BYTES, bytes.length));
    const end = feed === -1 ? bytes.length : feed + 1;
    if (!isUtf8(bytes.subarray(start, end))) return start + firstBadByte(bytes.subarray(start, end));
    start = end;
  }
  return -1;
}

/** The offset of the first bad byte of a block `isUtf8` refused. */
function firstBadByte(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; ) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      i++;
      continue;
    }
    const [length, low, high] = lead >= 0xc2 && lead <= 0xdf ? [2, 0x80, 0xbf] : lead === 0xe0 ? [3, 0xa0, 0xbf] : lead === 0xed ? [3, 0x80, 0x9f] : lead >= 0xe1 && lead <= 0xef ? [3, 0x80, 0xbf] : lead === 0xf0 ? [4, 0x90, 0xbf] : lead === 0xf4 ? [4, 0x80, 0x8f] : lead >= 0xf1 && lead <= 0xf3 ? [4, 0x80, 0xbf] : [0, 0, 0];
    if (length === 0) return i;
    // The second byte's range depends on the lead (what rules out overlong forms and surrogates); the others are 0x80–0xBF.
    for (let k = 1; k < length; k++) {
      const byte = bytes[i + k];
      if (byte === undefined || byte < (k === 1 ? low : 0x80) || byte > (k === 1 ? high : 0xbf)) return i;
    }
    i += length;
  }
  return -1;
}

/** Why a file that is not UTF-8 is refused: its line (1-based; a CSV's row after the header is one less) and the byte offset. */
export function notUtf8Detail(bytes: Uint8Array, offset: number, header: boolean): string {
  let line = 1;
  for (let at = bytes.indexOf(LINE_FEED); at !== -1 && at < offset; at = bytes.indexOf(LINE_FEED, at + 1)) line++;
  const row = header ? (line === 1 ? "the header" : `row ${line - 1}`) : `row ${line}`;
  const byte = `0x${bytes[offset]!.toString(16).toUpperCase().padStart(2, "0")}`;
  // Excel's "Unicode Text" and some exports write UTF-16, which begins with its byte order mark.
  const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff) ? " It looks like UTF-16." : "";
  return `The file is not UTF-8: byte ${byte} at byte offset ${offset} (line ${line}, ${row}) is not part of a UTF-8 character.${utf16} Save it as UTF-8 (in Excel: "CSV UTF-8") and send it again. Nothing was stored.`;
}
