// The page in a real browser against a real npuzzle-server: links, live progress through
// gRPC-Web over HTTP/1.1, Cancel reaching the server, the server's errors in the page's words,
// input errors, unsolvable boards, hand moves with undo and hints, the phone layout, and a
// 64×64 answer played without stalling the page. Measured figures are printed as test
// diagnostics.

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
async function withPage(body, flags = [], viewport = { width: 1100, height: 900 }) {
  const server = await startServer(flags);
  const page = await browser.newPage({ viewport });
  if (process.env.NPUZZLE_PAGE_FROM_DIST) await servePageFromDist(page, server);
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

/**
 * Serves the page's own files from web/dist instead of the copy embedded in the server, so that
 * a page change is tested without rebuilding the server (NPUZZLE_PAGE_FROM_DIST=1).
 */
async function servePageFromDist(page, server) {
  const types = { "/": "text/html; charset=utf-8", "/app.js": "text/javascript; charset=utf-8", "/app.css": "text/css; charset=utf-8" };
  await page.route(`${server.url}**`, async (route) => {
    const path = new URL(route.request().url()).pathname;
    if (route.request().method() !== "GET" || !(path in types)) return route.fallback();
    const file = path === "/" ? "index.html" : path.slice(1);
    await route.fulfill({ contentType: types[path], body: await readFile(new URL(`../dist/${file}`, import.meta.url)) });
  });
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
    // An answer at once still marks the chart: the best known (amber) at least as a point.
    const amber = await page.evaluate(() => {
      const chart = document.getElementById("chart");
      const { data } = chart.getContext("2d").getImageData(0, 0, chart.width, chart.height);
      let count = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i] > 200 && data[i + 1] > 120 && data[i + 1] < 190 && data[i + 2] < 60) count++;
      return count;
    });
    assert.ok(amber > 0, "the chart of an instant answer is empty");
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
    const statuses = new Set();
    const started = Date.now();
    for (;;) {
      const [nodes, answered, status] = await page.evaluate(() => [
        document.getElementById("progress").dataset.nodes,
        document.getElementById("headline").textContent !== "",
        document.getElementById("status").textContent,
      ]);
      if (answered) break;
      if (nodes !== undefined) counts.add(nodes);
      statuses.add(status);
      assert.ok(Date.now() - started < 120_000, `no answer in 2 minutes; #status: ${await page.textContent("#status")}`);
      await new Promise((done) => setTimeout(done, 50));
    }
    await headline(page, "Minimum number of moves = 64");
    t.diagnostic(`${counts.size} distinct node counts in ${((Date.now() - started) / 1000).toFixed(1)} s before the headline`);
    assert.ok(counts.size >= 3, `only ${counts.size} node counts shown before the answer: ${[...counts]}`);
    // Each Progress is told in words: the bound proven (and the best known and the forecast, when sent).
    const told = [...statuses].filter((status) => /^Searching: at least \d+ moves \(proven\)/.test(status));
    assert.ok(told.length >= 2, `the status never told the bound: ${[...statuses].join(" | ")}`);
    // The final rate is the whole search's: total nodes over total time, not the last interval's.
    const final = await page.evaluate(() => ({ ...document.getElementById("progress").dataset }));
    const overall = Number(final.nodes) / Number(final.seconds);
    t.diagnostic(`final: ${final.nodes} nodes in ${final.seconds} s, ${final.rate} nodes/s shown`);
    assert.ok(Math.abs(Number(final.rate) - overall) <= overall * 0.001 + 1, `${final.rate} nodes/s shown for ${final.nodes} nodes in ${final.seconds} s`);
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
        assert.equal(await second.textContent("#status"), "The server is busy with other searches (1 search running); try again in a moment.");
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

test("a bad board is refused on the page: line and column, Solve disabled, no request", async () => {
  await withPage(async (page, server) => {
    await page.goto(linkTo(server, "3\n1 2 3\n4 5 6\n7 8 8\n"));
    const solvability = page.locator("#solvability");
    assert.equal(await solvability.textContent(), "Not a board: line 4, column 5: tile 8 appears twice (first at line 4, column 3).");
    assert.ok(await solvability.evaluate((node) => node.classList.contains("error")), "the input error is not marked as an error");
    assert.ok(await page.isDisabled("#solve"), "Solve is enabled for a bad board");
    assert.equal(await metric(server.metrics, "npuzzle_searches_running"), 0);
    assert.equal(await page.textContent("#headline"), "");
    await page.fill("#puzzle", "3\n1 2 3\n4 x 6\n7 8 0\n");
    assert.equal(await solvability.textContent(), 'Not a board: line 3, column 3: tile "x" is not a whole number.');
    await page.fill("#puzzle", "129\n1 2\n");
    assert.match(await solvability.textContent(), /^Not a board: line 1, column 1: .*2\.\.128/);
    await page.fill("#puzzle", "3\n1 2 3\n4 5 6\n7 8\n");
    assert.match(await solvability.textContent(), /^Not a board: line 4, column 4: a 3×3 board needs 9 tiles, found 8\.$/);
    assert.ok(await page.isDisabled("#solve"));
    await page.fill("#puzzle", "3\n1 2 3\n4 5 6\n7 0 8\n");
    assert.equal(await solvability.textContent(), "Solvable 3×3 board.");
    assert.ok(!(await page.isDisabled("#solve")), "Solve stays disabled once the board is fixed");
  });
});

test("the server's INVALID_PUZZLE is told with its line and column", async () => {
  await withPage(
    async (page, server) => {
      await page.goto(linkTo(server, boardText(5, goal(5).split(" "))));
      await page.waitForFunction(() => document.getElementById("status").classList.contains("error"), null, { timeout: 10_000 });
      assert.match(await page.textContent("#status"), /^Not a valid board: line 1, column 1: /);
      assert.equal(await page.textContent("#headline"), "");
    },
    ["--max-dimension", "4"],
  );
});

test("old results are cleared by an invalid edit and by an error", async () => {
  await withPage(async (page, server) => {
    await page.goto(linkTo(server, await puzzle("puzzle04.txt")));
    await headline(page, "Minimum number of moves = 4");
    await page.waitForFunction(() => document.getElementById("position").textContent === "4 / 4");
    await page.fill("#puzzle", "3\n1 2 3\n");
    assert.equal(await page.textContent("#headline"), "");
    assert.equal(await page.textContent("#position"), "0 / 0");
    assert.equal(await page.locator("#progress dt").count(), 0, "the old figures stay after an invalid edit");
    // A search that fails leaves no figure behind, and says why in the page's words.
    await page.fill("#puzzle", LONG_5X5);
    await page.selectOption("#optimality", "minimum");
    await page.fill("#time-limit", "1");
    await page.evaluate(() => {
      window.shown = [];
      const observe = (id) =>
        new MutationObserver(() => window.shown.push(document.getElementById(id).textContent)).observe(document.getElementById(id), {
          childList: true,
          subtree: true,
          characterData: true,
        });
      observe("status");
      observe("progress");
    });
    await page.click("#solve");
    await page.waitForFunction(() => document.getElementById("status").classList.contains("error"), null, { timeout: 30_000 });
    const shown = await page.evaluate(() => window.shown);
    assert.ok(
      shown.some((status) => /^Searching: at least \d+ moves \(proven\)/.test(status)),
      `no progress was told: ${shown.join(" | ")}`,
    );
    assert.ok(shown.some((figures) => figures.startsWith("Nodes expanded")), "no figures were shown before the error");
    const status = await page.textContent("#status");
    assert.match(status, /^(Time limit of 1 s reached|A proof is out of reach for this 5×5 board \(forecast: about .+\)); choose “Anytime” with a time limit/);
    assert.equal(await page.textContent("#headline"), "");
    assert.equal(await page.locator("#progress dt").count(), 0, "the failed search's figures stay");
  });
});

test("the size menu follows the board, and Anytime is the default from 6×6 until picked by hand", async () => {
  await withPage(async (page, server) => {
    await page.goto(server.url);
    assert.equal(await page.inputValue("#optimality"), "minimum");
    await page.fill("#puzzle", boardText(20, goal(20).split(" ")));
    assert.equal(await page.inputValue("#size"), "20");
    assert.equal(await page.inputValue("#optimality"), "anytime");
    await page.fill("#puzzle", boardText(4, goal(4).split(" ")));
    assert.equal(await page.inputValue("#size"), "4");
    assert.equal(await page.inputValue("#optimality"), "minimum");
    await page.selectOption("#size", "6");
    assert.equal(await page.inputValue("#optimality"), "anytime");
    await page.selectOption("#optimality", "fast");
    await page.selectOption("#size", "3");
    assert.equal(await page.inputValue("#optimality"), "fast", "a choice made by hand is overridden");
  });
});

/** Waits for the playback to draw a tile part of the way between two cells; returns its progress. */
async function midSlide(page) {
  const handle = await page.waitForFunction(() => document.getElementById("board").dataset.slide, null, { timeout: 10_000 });
  return Number(await handle.jsonValue());
}

test("Pause leaves every tile in a cell", async () => {
  await withPage(async (page, server) => {
    await page.goto(linkTo(server, await puzzle("3x3-31.txt")));
    await headline(page, "Minimum number of moves = 31");
    await page.selectOption("#speed", "1");
    const during = await midSlide(page);
    assert.ok(during > 0 && during < 1, `the slide is at ${during}`);
    // Pause in the middle of a move, where a tile is drawn between two cells.
    await page.waitForFunction(() => {
      const slide = Number(document.getElementById("board").dataset.slide);
      return slide > 0.2 && slide < 0.8;
    });
    await page.click("#play");
    assert.equal(await page.textContent("#play"), "Play");
    assert.equal(await page.evaluate(() => document.getElementById("board").dataset.slide), undefined, "a tile is still drawn half-way");
    await page.waitForTimeout(300);
    assert.equal(await page.evaluate(() => document.getElementById("board").dataset.slide), undefined);
  });
});

/** The page's board as numbers. */
const tilesOf = async (page) => (await page.evaluate(() => document.getElementById("board").dataset.tiles)).split(" ").map(Number);

/** Clicks the cell of the board that holds `tile`. */
async function clickTile(page, tile) {
  const tiles = await tilesOf(page);
  const n = Math.round(Math.sqrt(tiles.length));
  const cell = tiles.indexOf(tile);
  const box = await page.locator("#board").boundingBox();
  const side = box.width / n;
  await page.mouse.click(box.x + ((cell % n) + 0.5) * side, box.y + (Math.floor(cell / n) + 0.5) * side);
}

test("Hint: the distance, and the tile to move outlined", async () => {
  await withPage(async (page, server) => {
    await page.goto(linkTo(server, "3\n1 2 3\n4 0 5\n7 8 6\n", false));
    await page.click("#hint");
    await page.waitForFunction(() => document.getElementById("distance").textContent.endsWith("to go"), null, { timeout: 10_000 });
    assert.equal(await page.textContent("#distance"), "2 moves to go");
    assert.equal(await page.evaluate(() => document.getElementById("board").dataset.highlight), "5");
    // The outline is drawn: the highlighted cell differs from the same board drawn without it.
    const ring = await page.evaluate(() => {
      const canvas = document.getElementById("board");
      const cell = canvas.width / 3;
      const edge = canvas.getContext("2d").getImageData(Math.round(cell * 2 + 2), Math.round(cell * 1.5), 1, 1).data;
      return Array.from(edge.slice(0, 3));
    });
    assert.deepEqual(ring, [255, 255, 255], "no outline at the edge of tile 5");
    await page.focus("#board");
    await page.keyboard.press("ArrowLeft");
    assert.equal(await page.textContent("#distance"), "", "the hint stays after a move");
    assert.equal(await page.evaluate(() => document.getElementById("board").dataset.highlight), undefined);
  });
});

test("Undo, by button and Ctrl-Z, restores the board and the move counter", async () => {
  await withPage(async (page, server) => {
    const start = "3\n1 2 3\n4 5 6\n7 8 0\n";
    await page.goto(linkTo(server, start, false));
    assert.ok(await page.isDisabled("#undo"));
    await page.focus("#board");
    await page.keyboard.press("ArrowDown");
    const afterOne = await page.inputValue("#puzzle");
    await page.keyboard.press("ArrowRight");
    assert.equal(await page.textContent("#moves-made"), "2");
    assert.equal(await page.inputValue("#puzzle"), "3\n1 2 3\n4 0 5\n7 8 6\n");
    await page.click("#undo");
    assert.equal(await page.textContent("#moves-made"), "1");
    assert.equal(await page.inputValue("#puzzle"), afterOne);
    await page.focus("#board");
    await page.keyboard.press("Control+z");
    assert.equal(await page.textContent("#moves-made"), "0");
    assert.equal(await page.inputValue("#puzzle"), start);
    assert.ok(await page.isDisabled("#undo"), "Undo is enabled with nothing to undo");
    // A click that slides two tiles at once is two moves, undone in one.
    await clickTile(page, 3);
    assert.equal(await page.textContent("#moves-made"), "2");
    await page.keyboard.press("Control+z");
    assert.equal(await page.inputValue("#puzzle"), start);
  });
});

test("played by hand with hints to the goal: Solved in K moves (fewest possible: M)", async () => {
  await withPage(async (page, server) => {
    await page.goto(linkTo(server, "3\n1 2 3\n0 4 6\n7 5 8\n", false));
    // A detour first, so that K is more than the fewest.
    await page.focus("#board");
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("ArrowDown");
    for (let moves = 0; (await page.textContent("#solved")) === ""; moves++) {
      assert.ok(moves < 10, "the hints do not lead to the goal");
      const before = await tilesOf(page);
      await page.click("#hint");
      const tile = Number(await (await page.waitForFunction(() => document.getElementById("board").dataset.highlight, null, { timeout: 10_000 })).jsonValue());
      await clickTile(page, tile);
      assert.notDeepEqual(await tilesOf(page), before, `tile ${tile} did not move`);
    }
    assert.equal(await page.textContent("#solved"), "Solved in 5 moves (fewest possible: 3)");
    assert.equal(await page.textContent("#moves-made"), "5");
  });
});

test("on a phone the board, hand play and Solve fit on one screen", async () => {
  await withPage(
    async (page, server) => {
      await page.goto(linkTo(server, await puzzle("3x3-20.txt")));
      await headline(page, "Minimum number of moves = 20");
      const box = async (selector) => page.locator(selector).boundingBox();
      const [board, solve, hint, play] = [await box("#board"), await box("#solve"), await box("#hint"), await box("#play")];
      for (const [name, found] of Object.entries({ board, solve, hint, play })) {
        assert.ok(found.y >= 0 && found.y + found.height <= 844 && found.x + found.width <= 390, `${name} is off screen: ${JSON.stringify(found)}`);
      }
      assert.ok(board.width >= 250, `the board is only ${board.width} px wide`);
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390, "the page scrolls sideways");
      await page.screenshot({ path: process.env.NPUZZLE_PHONE_SCREENSHOT ?? "test-results/phone.png" });
    },
    [],
    { width: 390, height: 844 },
  );
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

/** Protobuf's wire format, enough for a google.rpc.Status: varints and length-delimited fields. */
const varint = (value) => {
  const bytes = [];
  for (; value > 127; value = Math.floor(value / 128)) bytes.push((value % 128) | 128);
  return [...bytes, value];
};
const field = (number, bytes) => [...varint(number * 8 + 2), ...varint(bytes.length), ...bytes];
const text = (number, value) => field(number, [...Buffer.from(value, "utf8")]);

/** A google.rpc.Status holding an ErrorInfo of the server's domain, base64 as in the trailer. */
function statusDetails(code, message, reason, metadata) {
  const info = [
    ...text(1, reason),
    ...text(2, "npuzzle.v1"),
    ...Object.entries(metadata).flatMap(([key, value]) => field(3, [...text(1, key), ...text(2, value)])),
  ];
  const any = [...text(1, "type.googleapis.com/google.rpc.ErrorInfo"), ...field(2, info)];
  return Buffer.from([...varint(8), ...varint(code), ...text(2, message), ...field(3, any)]).toString("base64");
}

test("the server's reasons are told in the page's words, the message when no detail came", async () => {
  await withPage(async (page, server) => {
    let answer;
    await page.route("**/npuzzle.v1.SolverService/SolveStream", (route) =>
      route.fulfill({ status: 200, headers: { "content-type": "application/grpc-web+proto", ...answer }, body: "" }),
    );
    await page.goto(linkTo(server, LONG_5X5, false));
    const told = async (headers) => {
      answer = headers;
      await page.click("#solve");
      await page.waitForFunction(() => document.getElementById("status").classList.contains("error"), null, { timeout: 10_000 });
      const status = await page.textContent("#status");
      await page.fill("#puzzle", LONG_5X5);
      return status;
    };
    const exhausted = (reason, metadata) => ({
      "grpc-status": "8",
      "grpc-message": "a raw message",
      "grpc-status-details-bin": statusDetails(8, "a raw message", reason, metadata),
    });
    assert.equal(
      await told(exhausted("TIME_LIMIT_REACHED", { limit_ms: "5000", dimension: "5", suggested_optimality: "OPTIMALITY_ANYTIME" })),
      "Time limit of 5 s reached; choose “Anytime” with a time limit to get the best answer found by then.",
    );
    assert.equal(
      await told(exhausted("PROOF_OUT_OF_REACH", { bound: "52", forecast_ms: "7200000", time_left_ms: "600000", dimension: "5" })),
      "A proof is out of reach for this 5×5 board (forecast: about 2 h; time left: 10 min; proven: at least 52 moves); " +
        "choose “Anytime” with a time limit to get the best answer found by then.",
    );
    assert.equal(
      await told({ ...exhausted("SERVER_BUSY", { running: "3" }), "npuzzle-busy": "1" }),
      "The server is busy with other searches (3 searches running); try again in a moment.",
    );
    assert.equal(await told({ "grpc-status": "8", "grpc-message": "a raw message" }), "A limit of the server was reached: a raw message");
  });
});
