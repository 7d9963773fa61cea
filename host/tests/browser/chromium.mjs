// Launches Debian's Chromium headless with the flags this machine needs (no sandbox as root, no
// background networking: its connections would be refused), driven by playwright-core, which
// never downloads a browser of its own.

import { chromium } from "playwright-core";

export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: [
      "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
  });
}
