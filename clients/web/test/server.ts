// Starts the real Pitchmate server for a browser test: on 127.0.0.1 (port 0, or a given port to
// come back on after a restart) with a data directory that outlives a restart, and reads the
// address it bound from its `serving` log line.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

/** The repository's root, from this file's place in dist-test/. */
const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** The server binary: `PITCHMATE_SERVER_BIN`, or the debug build of this repository. */
export function serverBinary(): string {
  const binary = process.env["PITCHMATE_SERVER_BIN"] ?? join(REPO_ROOT, "target", "debug", "pitchmate");
  if (!existsSync(binary)) {
    throw new Error(
      `no Pitchmate server at ${binary}: build it from the repository's root with ` +
        "`cargo build --bin pitchmate`, or set PITCHMATE_SERVER_BIN to the path of a server binary",
    );
  }
  return binary;
}

export class Server {
  readonly dataDir = mkdtempSync(join(tmpdir(), "pitchmate-web-"));
  private child: ChildProcess | undefined;
  port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts the server; again on the same port and data after `stop()`. */
  async start(): Promise<void> {
    const child = spawn(
      serverBinary(),
      ["--listen", `127.0.0.1:${this.port}`, "--data-dir", this.dataDir, "--log-format", "json"],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    this.child = child;
    this.port = await servingPort(child);
  }

  /** Stops it as an operator would (SIGTERM: streams closed, in-flight calls finished). */
  async stop(): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    this.child = undefined;
  }

  async remove(): Promise<void> {
    await this.stop();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** Waits for the log line `serving` and takes the port from its `address` field. */
function servingPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    const seen: string[] = [];
    const timer = setTimeout(() => reject(new Error(`the server did not say "serving" within 30 s:\n${seen.join("\n")}`)), 30_000);
    const read = (line: string): void => {
      seen.push(line);
      let entry: { fields?: { message?: string; address?: string } };
      try {
        entry = JSON.parse(line);
      } catch {
        return;
      }
      const match = entry.fields?.message === "serving" ? /:(\d+)\)?$/.exec(entry.fields.address ?? "") : null;
      if (match !== null) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    createInterface({ input: child.stdout! }).on("line", read);
    createInterface({ input: child.stderr! }).on("line", read);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before serving:\n${seen.join("\n")}`));
    });
  });
}

/** An operator key for the server's store, made by the server binary as an operator would. */
export function operatorKey(server: Server): string {
  const made = spawnSync(serverBinary(), ["--data-dir", server.dataDir, "operator-key", "--label", "web-board-tests"], {
    encoding: "utf8",
  });
  if (made.status !== 0) throw new Error(`operator-key failed: ${made.stderr}`);
  return made.stdout.trim();
}
