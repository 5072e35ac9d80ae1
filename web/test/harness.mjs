// What the browser tests share: a release npuzzle-server on a free loopback port, with an empty
// temporary cache and no pattern databases (nothing big is built, the user's cache is never
// touched), its Prometheus endpoint, and Debian's chromium driven by playwright-core.

import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const web = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The server binary: $NPUZZLE_SERVER, else the release build under $CARGO_TARGET_DIR or ../target. */
export const serverBinary =
  process.env.NPUZZLE_SERVER ??
  join(process.env.CARGO_TARGET_DIR ? resolve(web, "..", process.env.CARGO_TARGET_DIR) : join(web, "..", "target"), "release", "npuzzle-server");

/** A port free at the time of asking, for the metrics endpoint (which needs one up front). */
async function freePort() {
  const probe = createServer();
  await new Promise((done) => probe.listen(0, "127.0.0.1", done));
  const { port } = probe.address();
  await new Promise((done) => probe.close(done));
  return port;
}

/**
 * Starts npuzzle-server with `flags` on 127.0.0.1:0 and waits for it to listen. Returns its
 * page's URL, its metrics URL and `stop()`.
 */
export async function startServer(flags = []) {
  const cache = await mkdtemp(join(tmpdir(), "npuzzle-web-test-"));
  const metricsPort = await freePort();
  const child = spawn(
    serverBinary,
    ["--listen", "127.0.0.1:0", "--no-pattern-db", "--cache-dir", cache, "--metrics-listen", `127.0.0.1:${metricsPort}`, ...flags],
    { env: { ...process.env, RUST_LOG: "info" }, stdio: ["ignore", "ignore", "pipe"] },
  );
  let log = "";
  const address = await new Promise((found, failed) => {
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk) => {
      log += chunk;
      const listening = /npuzzle-server listening address=(\S+)/.exec(log);
      if (listening) found(listening[1]);
    });
    child.on("exit", (code) => failed(new Error(`npuzzle-server exited with ${code} before listening:\n${log}`)));
    child.on("error", failed);
  });
  return {
    url: `http://${address}/`,
    metrics: `http://127.0.0.1:${metricsPort}/metrics`,
    async stop() {
      const exited = new Promise((done) => child.once("exit", done));
      child.kill("SIGTERM");
      await exited;
      await rm(cache, { recursive: true, force: true });
    },
  };
}

/**
 * Debian's chromium, headless; no browser is downloaded. Its background connections (updates,
 * sync, lookups of its vendor's hosts) are turned off: a closed network refuses them, slowly.
 */
export function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** The value of the Prometheus sample `name` (without labels), or undefined. */
export async function metric(url, name) {
  const text = await (await fetch(url)).text();
  const line = text.split("\n").find((line) => line.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.split(" ")[1]);
}

/** The spec's text for an N×N board from its tiles. */
export function boardText(n, tiles) {
  const rows = [];
  for (let row = 0; row < n; row++) rows.push(tiles.slice(row * n, (row + 1) * n).join(" "));
  return `${n}\n${rows.join("\n")}\n`;
}

/** The page's URL that fills the board with `text` and, with `solve`, solves it at once. */
export function linkTo(server, text, solve = true) {
  return `${server.url}?puzzle=${encodeURIComponent(text)}${solve ? "&solve=1" : ""}`;
}
