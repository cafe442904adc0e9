// Debian's chromium driven by playwright-core, and what the tests read off the page.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import type { DrawnPiece } from "./players.js";

/** Where screenshots go: clients/web/screenshots (ignored by git). */
export const SCREENSHOTS = fileURLToPath(new URL("../screenshots/", import.meta.url));

/** The browser: CHROMIUM_BIN, or Debian's /usr/bin/chromium. */
export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env["CHROMIUM_BIN"] ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-background-networking"],
  });
}

/** A phone-sized or desk-sized page that fails the test on any error the page logs. */
export async function openPage(browser: Browser, phone = false): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage(
    phone ? { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 } : { viewport: { width: 1280, height: 900 } },
  );
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  return { page, errors };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // What the viewer sees: a tall board scrolled to its ball, as on screen.
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

/** The pieces the board on the page draws, sorted by id. */
export async function drawnPieces(page: Page): Promise<DrawnPiece[]> {
  const pieces = await page.$$eval("svg.board g.piece", (elements) =>
    elements.map((e) => ({
      id: e.getAttribute("data-piece-id") ?? "",
      seat: e.getAttribute("data-seat") ?? "",
      kind: e.getAttribute("data-kind") ?? "",
      square: e.getAttribute("data-square") ?? "",
      spot: e.getAttribute("data-spot") ?? "",
    })),
  );
  return pieces.sort((a, b) => Number(a.id) - Number(b.id));
}

/** Waits until the board on the page shows `version` (its `data-version`). */
export async function boardAtVersion(page: Page, version: bigint): Promise<void> {
  await page.waitForSelector(`.board-box[data-version="${version}"] svg.board`);
}
