// The page: the board being edited (text, size, random, hand moves), the search through
// SolveStream with Cancel, the answer's headline, and the links that fill and solve a board.

import "./app.css";
import { Algorithm, Heuristic, Optimality, type Solution } from "./gen/npuzzle_pb";
import { describeError, isCancel, solver } from "./client";
import { Playback } from "./playback";
import { Player } from "./player";
import { ProgressView } from "./progress";
import {
  type BlankMove,
  type Board,
  applyMove,
  formatBoard,
  goal,
  isSolvable,
  parseBoard,
  randomBoard,
} from "./puzzle";
import { BoardView } from "./render";

/** How often the server sends progress, in milliseconds. */
const PROGRESS_INTERVAL_MS = 200;
/** The time limit an anytime search gets when the field is left empty. */
const ANYTIME_DEFAULT_SECONDS = 5;

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`the page has no #${id}`);
  return found as T;
}

const text = element<HTMLTextAreaElement>("puzzle");
const size = element<HTMLSelectElement>("size");
const solvability = element("solvability");
const share = element<HTMLAnchorElement>("share");
const solveButton = element<HTMLButtonElement>("solve");
const cancelButton = element<HTMLButtonElement>("cancel");
const headline = element("headline");
const status = element("status");
const optimality = element<HTMLSelectElement>("optimality");
const weightField = element("weight-field");
const weight = element<HTMLInputElement>("weight");
const timeLimit = element<HTMLInputElement>("time-limit");
const algorithm = element<HTMLSelectElement>("algorithm");
const heuristic = element<HTMLSelectElement>("heuristic");
const view = new BoardView(element<HTMLCanvasElement>("board"));
const player = new Player(view);
const progress = new ProgressView(element("progress"), element<HTMLCanvasElement>("chart"));

/** The board the text holds, if it is one. */
let board: Board | null = null;
/** The running search's abort, if one runs. */
let running: AbortController | null = null;

/** Reads the text: draws the board and says whether it can be solved. */
function readText(): void {
  player.load(null);
  headline.textContent = "";
  const parsed = parseBoard(text.value);
  if ("error" in parsed) {
    board = null;
    solvability.textContent = `Not a board yet: ${parsed.error}.`;
  } else {
    board = parsed.board;
    solvability.textContent = isSolvable(board)
      ? `Solvable ${board.n}×${board.n} board.`
      : `Not solvable: no sequence of moves reaches the goal from this ${board.n}×${board.n} board.`;
    if (board.n <= 10) size.value = String(board.n);
    view.draw(board);
  }
  share.href = `/?puzzle=${encodeURIComponent(text.value)}`;
}

/** Puts `next` in the text and shows it. */
function setBoard(next: Board): void {
  text.value = formatBoard(next);
  readText();
}

/** A hand move: the blank moves `move` on the board shown (the solution's, if one is shown). */
function handMove(move: BlankMove): void {
  const from = player.current?.board ?? board;
  if (!from || running) return;
  const tiles = from.tiles.slice();
  if (applyMove(tiles, from.n, tiles.indexOf(0), move) >= 0) setBoard({ n: from.n, tiles });
}

/** Slides every tile between the blank and `cell`, when they share a row or a column. */
function slideTo(cell: number): void {
  const from = player.current?.board ?? board;
  if (!from || running || cell < 0) return;
  const n = from.n;
  const tiles = from.tiles.slice();
  let blank = tiles.indexOf(0);
  const [row, col, blankRow, blankCol] = [Math.floor(cell / n), cell % n, Math.floor(blank / n), blank % n];
  if (cell === blank || (row !== blankRow && col !== blankCol)) return;
  const move: BlankMove = row < blankRow ? "U" : row > blankRow ? "D" : col < blankCol ? "L" : "R";
  while (blank !== cell) blank = applyMove(tiles, n, blank, move);
  setBoard({ n, tiles });
}

/** The options the form asks for. */
function options() {
  const chosen = optimality.value;
  let seconds = Math.max(0, Number(timeLimit.value) || 0);
  if (chosen === "anytime" && !seconds) seconds = ANYTIME_DEFAULT_SECONDS;
  return {
    optimality: {
      minimum: Optimality.MINIMUM,
      anytime: Optimality.ANYTIME,
      bounded: Optimality.BOUNDED,
      fast: Optimality.FAST,
    }[chosen],
    weight: chosen === "bounded" ? Number(weight.value) : 0,
    timeLimitMs: Math.round(seconds * 1000),
    algorithm: Number(algorithm.value) as Algorithm,
    heuristic: Number(heuristic.value) as Heuristic,
  };
}

/** Shows `message` in `#status`, marked as an error or not. */
function say(message: string, error = false): void {
  status.textContent = message;
  status.classList.toggle("error", error);
}

/** How the server's names of its methods read. */
const ALGORITHMS: Record<number, string> = { [Algorithm.ASTAR]: "A*", [Algorithm.IDASTAR]: "IDA*" };
const HEURISTICS: Record<number, string> = {
  [Heuristic.HAMMING]: "Hamming",
  [Heuristic.MANHATTAN]: "Manhattan",
  [Heuristic.LINEAR_CONFLICT]: "linear conflict",
  [Heuristic.PATTERN_DATABASE]: "pattern databases",
};

/** The spec's headline for an answer. */
function headlineOf(solution: Solution): string {
  if (!solution.solvable) return "No solution possible";
  if (solution.optimal) return `Minimum number of moves = ${solution.moves}`;
  return `Number of moves = ${solution.moves} (not proven minimal; the minimum is at least ${solution.lowerBound})`;
}

/** Solves the text's board through SolveStream, showing progress, until an answer or Cancel. */
async function solve(): Promise<void> {
  if (running) return;
  const abort = new AbortController();
  running = abort;
  const start = board;
  player.load(null);
  if (start) view.draw(start);
  progress.clear();
  headline.textContent = "";
  say("Searching…");
  solveButton.disabled = true;
  cancelButton.disabled = false;
  try {
    const request = {
      puzzle: { case: "text" as const, value: text.value },
      options: options(),
      progressIntervalMs: PROGRESS_INTERVAL_MS,
    };
    for await (const response of solver.solveStream(request, { signal: abort.signal })) {
      const event = response.event;
      if (event.case === "progress") progress.show(event.value);
      else if (event.case === "improved") {
        progress.improved(event.value.moves);
        say(`Found ${event.value.moves} moves; looking for shorter…`);
      } else if (event.case === "solution") answered(event.value, start);
    }
  } catch (error) {
    if (isCancel(error)) say("Cancelled: the server stopped the search.");
    else say(describeError(error), true);
  } finally {
    running = null;
    solveButton.disabled = false;
    cancelButton.disabled = true;
  }
}

/** Shows the answer and plays it from `start`. */
function answered(solution: Solution, start: Board | null): void {
  headline.textContent = headlineOf(solution);
  const stats = solution.stats;
  const seconds = Number(stats?.elapsedMicros ?? 0) / 1e6;
  const method = [ALGORITHMS[stats?.algorithm ?? 0], HEURISTICS[stats?.heuristic ?? 0]].filter(Boolean).join(" with ");
  say(
    `Answered in ${seconds.toFixed(3)} s${method ? ` by ${method}` : ""}, ` +
      `${Number(stats?.nodesExpanded ?? 0).toLocaleString()} nodes expanded.`,
  );
  progress.answered(solution);
  if (!solution.solvable || !start) return;
  try {
    player.load(new Playback(start, solution.blankMoves));
  } catch (error) {
    say(`The answer does not fit the board: ${(error as Error).message}`, true);
  }
}

const ARROWS: Record<string, BlankMove> = { ArrowUp: "D", ArrowDown: "U", ArrowLeft: "R", ArrowRight: "L" };

view.canvas.addEventListener("click", (event) => {
  const shown = player.current?.board ?? board;
  if (shown) slideTo(view.cellAt(shown.n, event.offsetX, event.offsetY));
});
view.canvas.addEventListener("keydown", (event) => {
  const move = ARROWS[event.key];
  if (!move) return;
  event.preventDefault();
  handMove(move);
});
text.addEventListener("input", readText);
size.addEventListener("change", () => setBoard(randomBoard(Number(size.value))));
element("random").addEventListener("click", () => setBoard(randomBoard(Number(size.value))));
element("goal").addEventListener("click", () => setBoard(goal(Number(size.value))));
optimality.addEventListener("change", () => (weightField.hidden = optimality.value !== "bounded"));
solveButton.addEventListener("click", () => void solve());
cancelButton.addEventListener("click", () => running?.abort());

const query = new URLSearchParams(location.search);
const linked = query.get("puzzle");
if (linked !== null) {
  text.value = linked;
  readText();
} else setBoard(randomBoard(3));
if (query.get("solve") === "1") void solve();
