// Each test file's server and browser: started before the file's tests, stopped after them.
import { after, before } from "node:test";
import type { Browser } from "playwright-core";
import { launch } from "./browser.js";
import { matchesAt, type Matches } from "./players.js";
import { Server } from "./server.js";

export interface Fixture {
  server: Server;
  browser: Browser;
  /** The match service of `server`, over grpc-web. */
  matches: Matches;
}

/** Registers the file's `before` and `after`; the fields are set once `before` has run. */
export function serverAndBrowser(): Fixture {
  const fixture = {} as Fixture;
  before(async () => {
    fixture.server = new Server();
    await fixture.server.start();
    fixture.browser = await launch();
    fixture.matches = matchesAt(fixture.server.url);
  });
  after(async () => {
    await fixture.browser?.close();
    await fixture.server?.remove();
  });
  return fixture;
}
