/**
 * Finds a Chromium for the browser tests (playwright.config.ts) and the browser benches: CHROMIUM_PATH, then the
 * system's (Debian's /usr/bin/chromium), then Playwright's own when one is installed. Playwright cannot download its
 * browser on these machines. Not responsible for launching it (Playwright does).
 */
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

export function findChromium(): string | null {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  try {
    candidates.push(chromium.executablePath());
  } catch {
    // no Playwright browser installed
  }
  return candidates.find((p): p is string => Boolean(p && existsSync(p))) ?? null;
}

/** Flags that keep Chromium quiet on a machine with no network (it would otherwise dial Google at start). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
