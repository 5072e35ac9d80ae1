// The page in a real browser against a real npuzzle-server: links, live progress through
// gRPC-Web over HTTP/1.1, Cancel reaching the server, the server's errors, unsolvable boards,
// hand moves, and a 64×64 answer played without stalling the page. Measured figures are
// printed as test diagnostics.

import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, test } from "node:test";
import { boardText, launchBrowser, linkTo, metric, startServer } from "./harness.mjs";

const puzzles = new URL("../../puzzles/", import.meta.url);
const puzzle = (name) => readFile(new URL(name, puzzles), "utf8");
/** Where the screenshot for the README goes. */
const screenshot = process.env.NPUZZLE_SCREENSHOT ?? "test-results/page.png";

let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

/** Runs `body(page, server)` with a fresh server (started with `flags`) and page. */
async function withPage(body, flags = []) {
  const server = await startServer(flags);
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  const errors = [];
  page.on("pageerror", (error) => errors.push(error));
  try {
    await body(page, server);
    assert.deepEqual(errors, [], "no script errors");
  } finally {
    await page.close();
    await server.stop();
  }
}

/** Waits for `#headline` to read `text`, failing with the page's status if it never does. */
async function headline(page, text, timeout = 30_000) {
  try {
    await page.waitForFunction((wanted) => document.getElementById("headline").textContent === wanted, text, { timeout });
  } catch (error) {
    throw new Error(`#headline never read ${JSON.stringify(text)}; #status: ${await page.textContent("#status")}`, { cause: error });
  }
}

/** A 64-move 5×5 board that IDA* with linear conflict solves in about 3 s on two cores. */
const SECONDS_5X5 = "5\n10 1 7 4 8\n3 14 9 13 5\n2 22 17 15 24\n16 6 19 12 20\n11 21 18 23 0\n";
/** A 5×5 board whose search runs far longer than any test. */
const LONG_5X5 = "5\n11 7 5 10 8\n3 1 4 9 24\n2 13 21 12 15\n16 6 22 0 14\n18 23 19 20 17\n";

const goal = (n) => [...Array.from({ length: n * n - 1 }, (_, i) => i + 1), 0].join(" ");

test("puzzle04 by link: the spec's headline, and the board played to the goal", async (t) => {
  await withPage(async (page, server) => {
    await page.goto(linkTo(server, await puzzle("puzzle04.txt")));
    await headline(page, "Minimum number of moves = 4");
    await page.waitForFunction((tiles) => document.getElementById("board").dataset.tiles === tiles, goal(3), { timeout: 10_000 });
    const paint = async () =>
      (await page.waitForFunction(() => performance.getEntriesByName("first-contentful-paint")[0]?.startTime)).jsonValue();
    const first = await paint();
    await page.goto(server.url);
    t.diagnostic(`first contentful paint: ${first.toFixed(0)} ms after the first navigation, ${(await paint()).toFixed(0)} ms after the next`);
  });
});

test("a 5×5 search shows live progress before its answer", async (t) => {
  await withPage(async (page, server) => {
    await page.goto(linkTo(server, SECONDS_5X5));
    const counts = new Set();
    const started = Date.now();
    for (;;) {
      const [nodes, answered] = await page.evaluate(() => [
        document.getElementById("progress").dataset.nodes,
        document.getElementById("headline").textContent !== "",
      ]);
      if (answered) break;
      if (nodes !== undefined) counts.add(nodes);
      assert.ok(Date.now() - started < 120_000, `no answer in 2 minutes; #status: ${await page.textContent("#status")}`);
      await new Promise((done) => setTimeout(done, 50));
    }
    await headline(page, "Minimum number of moves = 64");
    t.diagnostic(`${counts.size} distinct node counts in ${((Date.now() - started) / 1000).toFixed(1)} s before the headline`);
    assert.ok(counts.size >= 3, `only ${counts.size} node counts shown before the answer: ${[...counts]}`);
    await page.waitForTimeout(1500);
    await page.screenshot({ path: screenshot, fullPage: true });
  });
});

test("Cancel stops the server's search within a second", async (t) => {
  await withPage(async (page, server) => {
    await page.goto(linkTo(server, LONG_5X5));
    await page.waitForFunction(() => document.getElementById("progress").dataset.nodes !== undefined, null, { timeout: 10_000 });
    assert.equal(await metric(server.metrics, "npuzzle_searches_running"), 1);
    const cancelled = Date.now();
    await page.click("#cancel");
    while ((await metric(server.metrics, "npuzzle_searches_running")) !== 0) {
      assert.ok(Date.now() - cancelled < 1000, "the search still runs 1 s after Cancel");
      await new Promise((done) => setTimeout(done, 10));
    }
    t.diagnostic(`searches_running read 0 ${Date.now() - cancelled} ms after the click on Cancel`);
    await page.waitForFunction(() => document.getElementById("status").textContent.startsWith("Cancelled"));
    assert.equal(await page.textContent("#headline"), "");
  });
});

test("a full server's refusal is shown in words", async () => {
  await withPage(
    async (page, server) => {
      await page.goto(linkTo(server, LONG_5X5));
      await page.waitForFunction(() => document.getElementById("progress").dataset.nodes !== undefined, null, { timeout: 10_000 });
      const second = await browser.newPage();
      try {
        await second.goto(linkTo(server, SECONDS_5X5));
        await second.waitForFunction(() => document.getElementById("status").classList.contains("error"), null, { timeout: 10_000 });
        assert.match(await second.textContent("#status"), /^The server is busy with other searches; try again in a moment\. \(server busy: 1 searches running/);
      } finally {
        await second.close();
      }
    },
    ["--max-concurrent-solves", "1", "--queue-timeout-ms", "100"],
  );
});

test("Random draws every solvable 2×2 board, about equally often", async () => {
  await withPage(async (page, server) => {
    await page.goto(server.url);
    await page.selectOption("#size", "2");
    const draws = await page.evaluate(() => {
      const counts = {};
      for (let i = 0; i < 1200; i++) {
        document.getElementById("random").click();
        const key = document.getElementById("puzzle").value;
        if (!document.getElementById("solvability").textContent.startsWith("Solvable")) return { unsolvable: key };
        counts[key] = (counts[key] ?? 0) + 1;
      }
      return counts;
    });
    assert.equal(draws.unsolvable, undefined, `an unsolvable draw: ${draws.unsolvable}`);
    // 12 of the 24 arrangements of a 2×2 board are solvable: each is drawn 100 times on
    // average, and a count outside 50..150 would be a 5-sigma event for a uniform draw.
    assert.equal(Object.keys(draws).length, 12);
    for (const [board, count] of Object.entries(draws)) assert.ok(count > 50 && count < 150, `${JSON.stringify(board)} drawn ${count} times of 1200`);
  });
});

test("a bad board shows the server's INVALID_ARGUMENT message", async () => {
  await withPage(async (page, server) => {
    await page.goto(linkTo(server, "3\n1 2 3\n4 5 6\n7 8 8\n"));
    await page.waitForFunction(() => document.getElementById("status").textContent.startsWith("Not a valid"));
    const status = await page.textContent("#status");
    assert.match(status, /line 4, column 5: tile 8 appears twice .*so tile 0 is missing/);
    assert.equal(await page.textContent("#headline"), "");
  });
});

test("an unsolvable board: No solution possible", async () => {
  await withPage(async (page, server) => {
    await page.goto(linkTo(server, await puzzle("puzzle3x3-unsolvable.txt"), false));
    assert.match(await page.textContent("#solvability"), /^Not solvable/);
    await page.click("#solve");
    await headline(page, "No solution possible");
  });
});

/** Clicks Solve and returns the milliseconds, measured in the page, until `#headline` changes. */
function clickToHeadline(page) {
  return page.evaluate(
    () =>
      new Promise((done) => {
        const started = performance.now();
        new MutationObserver(() => done(performance.now() - started)).observe(document.getElementById("headline"), {
          childList: true,
          characterData: true,
          subtree: true,
        });
        document.getElementById("solve").click();
      }),
  );
}

test("moves by hand with the keyboard, then solved from there; a 3×3 answer at once", async (t) => {
  await withPage(async (page, server) => {
    await page.goto(linkTo(server, boardText(3, goal(3).split(" ")), false));
    await page.focus("#board");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowRight");
    assert.equal(await page.inputValue("#puzzle"), "3\n1 2 3\n4 0 5\n7 8 6\n");
    const cold = await clickToHeadline(page);
    await headline(page, "Minimum number of moves = 2");
    await page.fill("#puzzle", await puzzle("3x3-31.txt"));
    const warm = await clickToHeadline(page);
    await headline(page, "Minimum number of moves = 31");
    t.diagnostic(`3×3, click on Solve to headline: ${cold.toFixed(1)} ms on a fresh server, ${warm.toFixed(1)} ms for the next board`);
  });
});

/** A solvable N×N board: `steps` random moves of the blank from the goal. */
function scrambled(n, steps) {
  const tiles = goal(n).split(" ").map(Number);
  let blank = n * n - 1;
  for (let i = 0; i < steps; i++) {
    const [row, col] = [Math.floor(blank / n), blank % n];
    const moves = [row > 0 && -n, row < n - 1 && n, col > 0 && -1, col < n - 1 && 1].filter(Boolean);
    const next = blank + moves[Math.floor(Math.random() * moves.length)];
    [tiles[blank], tiles[next]] = [tiles[next], 0];
    blank = next;
  }
  return boardText(n, tiles);
}

test("a 64×64 FAST answer plays with no frame gap over 200 ms", async (t) => {
  await withPage(async (page, server) => {
    await page.goto(linkTo(server, scrambled(64, 200_000), false));
    await page.selectOption("#optimality", "fast");
    await page.evaluate(() => {
      window.frameGaps = { last: performance.now(), max: 0, frames: 0 };
      const tick = (now) => {
        const gaps = window.frameGaps;
        gaps.max = Math.max(gaps.max, now - gaps.last);
        gaps.last = now;
        gaps.frames++;
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    await page.click("#solve");
    await page.waitForFunction(() => document.getElementById("headline").textContent.startsWith("Number of moves = "), null, { timeout: 60_000 });
    const moves = Number((await page.textContent("#headline")).match(/= (\d+)/)[1]);
    const playing = await page.evaluate(() => window.frameGaps.frames);
    await page.waitForTimeout(3000);
    const gaps = await page.evaluate(() => window.frameGaps);
    const position = await page.textContent("#position");
    t.diagnostic(`64×64 FAST: ${moves} moves; ${gaps.frames - playing} frames in 3 s of playback, the longest gap from the click on Solve on ${gaps.max.toFixed(1)} ms; at move ${position}`);
    assert.ok(gaps.max <= 200, `a frame gap of ${gaps.max.toFixed(0)} ms`);
    assert.notEqual(position.split(" / ")[0], "0", "the playback moved");
  });
});
