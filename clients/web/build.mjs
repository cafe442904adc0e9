// Builds the page into dist/: app.js (the TypeScript bundled and minified), app.css and
// index.html. The output is committed (the server compiles it in), so it must be the same
// on every machine: no hashes, no timestamps, no source maps with local paths.
import { build } from "esbuild";
import { copyFileSync, mkdirSync, statSync } from "node:fs";

mkdirSync("dist", { recursive: true });
await build({
  entryPoints: ["src/main.ts"],
  bundle: true,
  minify: true,
  format: "esm",
  target: ["es2022"],
  outfile: "dist/app.js",
  legalComments: "none",
  logLevel: "warning",
});
await build({
  entryPoints: ["static/app.css"],
  minify: true,
  outfile: "dist/app.css",
  logLevel: "warning",
});
copyFileSync("static/index.html", "dist/index.html");
for (const file of ["index.html", "app.js", "app.css"]) {
  console.log(`dist/${file}: ${statSync(`dist/${file}`).size} bytes`);
}
