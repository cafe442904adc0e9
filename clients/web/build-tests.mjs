// Bundles the browser tests (TypeScript) into dist-test/ for `node --test`; the packages they
// import stay in node_modules.
import { build } from "esbuild";
import { readdirSync, rmSync } from "node:fs";

rmSync("dist-test", { recursive: true, force: true });
await build({
  entryPoints: readdirSync("test").filter((f) => f.endsWith(".test.ts")).map((f) => `test/${f}`),
  bundle: true,
  platform: "node",
  format: "esm",
  target: ["node20"],
  packages: "external",
  outdir: "dist-test",
  outExtension: { ".js": ".mjs" },
  logLevel: "warning",
});
