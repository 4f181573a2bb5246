/**
 * Debian's chromium driven by playwright-core (never a downloaded browser build), with the flags
 * this machine's closed network needs: without the background-networking ones chromium keeps
 * trying to reach Google's hosts. launch() gives it a fresh temporary profile, removed on close.
 */
import { chromium, type Browser } from "playwright-core";

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}
