// Builds the page into dist/: app.js and app.css bundled and minified by esbuild, index.html
// copied. The same sources and package-lock.json give the same bytes, which CI checks and the
// server embeds.
import { build } from "esbuild";
import { copyFile, mkdir } from "node:fs/promises";

await mkdir("dist", { recursive: true });
await build({
  entryPoints: { app: "src/main.ts" },
  bundle: true,
  minify: true,
  format: "esm",
  target: "es2022",
  outdir: "dist",
  legalComments: "none",
  charset: "utf8",
  logLevel: "warning",
});
await copyFile("index.html", "dist/index.html");
