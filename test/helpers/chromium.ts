/**
 * Headless Chromium for the browser tests: the Debian package, driven by playwright-core.
 * Fails with how to install it when it is missing.
 */
import { existsSync } from "node:fs";
import type { Browser, Page } from "playwright-core";

export const CHROMIUM = process.env.LLAMON_CHROMIUM ?? "/usr/bin/chromium";

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}. Install the Debian package: \`sudo apt-get update && sudo apt-get install -y chromium\` (or set LLAMON_CHROMIUM to a Chromium binary).`,
    );
  }
  let playwright: typeof import("playwright-core");
  try {
    playwright = await import("playwright-core");
  } catch (error) {
    throw new Error(
      `playwright-core is not installed: \`npm install --save-dev playwright-core\` (${(error as Error).message})`,
    );
  }
  return playwright.chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/**
 * Collects what the page reports as going wrong: uncaught errors and console errors, except
 * the resource errors the browser logs for answers a test provokes (401, 404, 400).
 */
export function collectProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) {
      problems.push(m.text());
    }
  });
  return problems;
}
