// The page: the board being edited (text, size, random, hand moves with undo and hints), the
// search through SolveStream with Cancel, the answer's headline, and the links that fill and
// solve a board.

import "./app.css";
import { Algorithm, Heuristic, Optimality, type Solution } from "./gen/npuzzle_pb";
import { describeError, isCancel, solver } from "./client";
import { Playback } from "./playback";
import { Player } from "./player";
import { ProgressView, moves, searching } from "./progress";
import {
  type BlankMove,
  type Board,
  applyMove,
  formatBoard,
  goal,
  isGoal,
  isSolvable,
  parseBoard,
  placeText,
  randomBoard,
} from "./puzzle";
import { BoardView } from "./render";

/** How often the server sends progress, in milliseconds. */
const PROGRESS_INTERVAL_MS = 200;
/** The time limit an anytime search gets when the field is left empty. */
const ANYTIME_DEFAULT_SECONDS = 5;
/** From this size up, Anytime is the default: a proven minimum is rarely within reach. */
const ANYTIME_FROM_SIZE = 6;
/** Up to this size the page asks the server for the fewest moves when hand play starts. */
const DISTANCE_UP_TO_SIZE = 5;

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
const undoButton = element<HTMLButtonElement>("undo");
const hintButton = element<HTMLButtonElement>("hint");
const movesMade = element<HTMLOutputElement>("moves-made");
const distance = element<HTMLOutputElement>("distance");
const solved = element("solved");

/** The board the text holds, if it is one. */
let board: Board | null = null;
/** The running search's abort, if one runs. */
let running: AbortController | null = null;
/** Whether the user picked the optimality; until then it follows the board's size. */
let optimalityByHand = false;
/** The tile a hint says to move, outlined on the board until it changes. */
let highlight = 0;

/** The distance to the goal from where hand play started, when known. */
interface Fewest {
  readonly moves: number;
  readonly optimal: boolean;
}

/** Play by hand: where it started, the boards before each move (for undo), the moves made. */
interface HandPlay {
  readonly start: Board;
  readonly history: { tiles: Uint16Array; made: number }[];
  made: number;
  fewest: Fewest | null;
}
let hand: HandPlay | null = null;

/** The board on the canvas: the solution's, when one is shown, else the text's. */
function shown(): Board | null {
  return player.current?.board ?? board;
}

/** A board as a key, to tell whether an answer is still about the board shown. */
function keyOf(of: Board): string {
  return `${of.n}:${of.tiles.join(",")}`;
}

/** Forgets the last search's and the last hint's results. */
function clearResults(): void {
  headline.textContent = "";
  say("");
  progress.clear();
  distance.textContent = "";
  distance.classList.remove("error");
  highlight = 0;
}

/** Shows the hand play's counter, whether there is a move to undo, and whether it is solved. */
function showHand(): void {
  movesMade.value = String(hand?.made ?? 0);
  undoButton.disabled = !hand?.history.length || running !== null;
  if (hand && hand.made > 0 && board && isGoal(board)) {
    const fewest = hand.fewest;
    const least = fewest ? ` (fewest possible: ${fewest.optimal ? "" : "at least "}${fewest.moves})` : "";
    solved.textContent = `Solved in ${moves(hand.made)}${least}`;
  } else solved.textContent = "";
}

/** Starts hand play from `start`, asking the server how far the goal is unless `fewest` says. */
function startHand(start: Board, fewest: Fewest | null): HandPlay {
  const play: HandPlay = { start: { n: start.n, tiles: start.tiles.slice() }, history: [], made: 0, fewest };
  if (!fewest && start.n <= DISTANCE_UP_TO_SIZE) {
    solver
      .hint({ puzzle: { case: "board", value: { dimension: start.n, tiles: Array.from(start.tiles) } } })
      .then((answer) => {
        if (answer.distance < 0) return;
        play.fewest = answer.optimal ? { moves: answer.distance, optimal: true } : { moves: answer.lowerBound, optimal: false };
        if (hand === play) showHand();
      })
      .catch(() => undefined);
  }
  return play;
}

/** Makes a hand move from `from` (the board shown) to `tiles`, `steps` tiles slid. */
function played(from: Board, tiles: Uint16Array, steps: number): void {
  const playback = player.current;
  if (playback) {
    // Moving from a solution shown: hand play starts on its board.
    const solution = lastSolution;
    const left = solution?.optimal ? { moves: playback.length - playback.position, optimal: true } : null;
    hand = startHand(from, left);
  } else if (!hand) hand = startHand(from, null);
  hand.history.push({ tiles: from.tiles.slice(), made: hand.made });
  hand.made += steps;
  text.value = formatBoard({ n: from.n, tiles });
  showText();
}

/** Takes back the last hand move (or slide of several tiles). */
function undo(): void {
  if (!hand || running) return;
  const last = hand.history.pop();
  if (!last) return;
  hand.made = last.made;
  text.value = formatBoard({ n: hand.start.n, tiles: last.tiles });
  showText();
}

/** Asks the server for the next best move from the board shown, and outlines its tile. */
async function hint(): Promise<void> {
  const from = shown();
  if (!from) return;
  player.pause();
  const key = keyOf(from);
  const tiles = from.tiles.slice();
  distance.classList.remove("error");
  distance.textContent = "Thinking…";
  hintButton.disabled = true;
  try {
    const answer = await solver.hint({ puzzle: { case: "board", value: { dimension: from.n, tiles: Array.from(tiles) } } });
    const now = shown();
    if (!now || keyOf(now) !== key) return;
    if (answer.distance < 0) distance.textContent = "No solution possible from here";
    else if (answer.distance === 0) distance.textContent = "At the goal";
    else if (answer.optimal) distance.textContent = `${moves(answer.distance)} to go`;
    else distance.textContent = `at least ${moves(answer.lowerBound)} to go (best found ${answer.distance})`;
    highlight = answer.moves[0]?.tile ?? 0;
    view.draw(now, undefined, highlight);
  } catch (error) {
    const now = shown();
    if (now && keyOf(now) === key) {
      distance.textContent = describeError(error);
      distance.classList.add("error");
    }
  } finally {
    hintButton.disabled = shown() === null;
  }
}

/** Puts N in the size menu, adding it when the menu lacks it (a pasted 20×20). */
function followSize(n: number): void {
  const wanted = String(n);
  if (!Array.from(size.options).some((option) => option.value === wanted)) {
    const option = new Option(wanted, wanted);
    const after = Array.from(size.options).find((other) => Number(other.value) > n);
    size.add(option, after ?? null);
  }
  size.value = wanted;
}

/** Shows the weight field when Bounded is chosen. */
function showWeight(): void {
  weightField.hidden = optimality.value !== "bounded";
}

/** The user edited the text: a new board, hand play starts over. */
function readText(): void {
  hand = null;
  showText();
}

/** Shows the text: draws the board and says whether it can be solved, or where it is wrong. */
function showText(): void {
  player.load(null);
  clearResults();
  const parsed = parseBoard(text.value);
  if ("error" in parsed) {
    board = null;
    solvability.textContent = `Not a board: ${placeText(parsed)}: ${parsed.error}.`;
    solvability.classList.add("error");
    text.setAttribute("aria-invalid", "true");
  } else {
    board = parsed.board;
    solvability.textContent = isSolvable(board)
      ? `Solvable ${board.n}×${board.n} board.`
      : `Not solvable: no sequence of moves reaches the goal from this ${board.n}×${board.n} board.`;
    solvability.classList.remove("error");
    text.removeAttribute("aria-invalid");
    followSize(board.n);
    if (!optimalityByHand) {
      optimality.value = board.n >= ANYTIME_FROM_SIZE ? "anytime" : "minimum";
      showWeight();
    }
    view.draw(board);
  }
  solveButton.disabled = running !== null || board === null;
  hintButton.disabled = board === null;
  share.href = `/?puzzle=${encodeURIComponent(text.value)}`;
  showHand();
}

/** Puts `next` in the text and shows it. */
function setBoard(next: Board): void {
  text.value = formatBoard(next);
  readText();
}

/** A hand move: the blank moves `move` on the board shown (the solution's, if one is shown). */
function handMove(move: BlankMove): void {
  const from = shown();
  if (!from || running) return;
  const tiles = from.tiles.slice();
  if (applyMove(tiles, from.n, tiles.indexOf(0), move) >= 0) played(from, tiles, 1);
}

/** Slides every tile between the blank and `cell`, when they share a row or a column. */
function slideTo(cell: number): void {
  const from = shown();
  if (!from || running || cell < 0) return;
  const n = from.n;
  const tiles = from.tiles.slice();
  let blank = tiles.indexOf(0);
  const [row, col, blankRow, blankCol] = [Math.floor(cell / n), cell % n, Math.floor(blank / n), blank % n];
  if (cell === blank || (row !== blankRow && col !== blankCol)) return;
  const move: BlankMove = row < blankRow ? "U" : row > blankRow ? "D" : col < blankCol ? "L" : "R";
  let steps = 0;
  for (; blank !== cell; steps++) blank = applyMove(tiles, n, blank, move);
  played(from, tiles, steps);
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
  const start = board;
  if (running || !start) return;
  const abort = new AbortController();
  running = abort;
  player.load(null);
  clearResults();
  view.draw(start);
  say("Searching…");
  solveButton.disabled = true;
  cancelButton.disabled = false;
  undoButton.disabled = true;
  try {
    const request = {
      puzzle: { case: "text" as const, value: text.value },
      options: options(),
      progressIntervalMs: PROGRESS_INTERVAL_MS,
    };
    for await (const response of solver.solveStream(request, { signal: abort.signal })) {
      const event = response.event;
      if (event.case === "progress") {
        progress.show(event.value);
        say(searching(event.value));
      } else if (event.case === "improved") {
        progress.improved(event.value.moves);
        say(`Found ${moves(event.value.moves)}; looking for shorter…`);
      } else if (event.case === "solution") answered(event.value, start);
    }
  } catch (error) {
    // No figure of a search that failed stays: they would read as an answer.
    progress.clear();
    headline.textContent = "";
    if (isCancel(error)) say("Cancelled: the server stopped the search.");
    else say(describeError(error), true);
  } finally {
    running = null;
    solveButton.disabled = board === null;
    cancelButton.disabled = true;
    showHand();
  }
}

/** The last answer: whether it was proven, for the distance left on its playback. */
let lastSolution: { optimal: boolean } | null = null;

/** Shows the answer and plays it from `start`. */
function answered(solution: Solution, start: Board): void {
  lastSolution = { optimal: solution.optimal };
  headline.textContent = headlineOf(solution);
  const stats = solution.stats;
  const seconds = Number(stats?.elapsedMicros ?? 0) / 1e6;
  const method = [ALGORITHMS[stats?.algorithm ?? 0], HEURISTICS[stats?.heuristic ?? 0]].filter(Boolean).join(" with ");
  say(
    `Answered in ${seconds.toFixed(3)} s${method ? ` by ${method}` : ""}, ` +
      `${Number(stats?.nodesExpanded ?? 0).toLocaleString()} nodes expanded.`,
  );
  progress.answered(solution);
  if (!solution.solvable) return;
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
document.addEventListener("keydown", (event) => {
  if (!(event.ctrlKey || event.metaKey) || event.shiftKey || event.altKey || event.key.toLowerCase() !== "z") return;
  // The text and the form's fields keep their own undo.
  if ((event.target as HTMLElement | null)?.closest?.("input, textarea, select")) return;
  if (!hand?.history.length) return;
  event.preventDefault();
  undo();
});
undoButton.addEventListener("click", undo);
hintButton.addEventListener("click", () => void hint());
text.addEventListener("input", readText);
size.addEventListener("change", () => setBoard(randomBoard(Number(size.value))));
element("random").addEventListener("click", () => setBoard(randomBoard(Number(size.value))));
element("goal").addEventListener("click", () => setBoard(goal(Number(size.value))));
optimality.addEventListener("change", () => {
  optimalityByHand = true;
  showWeight();
});
solveButton.addEventListener("click", () => void solve());
cancelButton.addEventListener("click", () => running?.abort());

const query = new URLSearchParams(location.search);
const linked = query.get("puzzle");
if (linked !== null) {
  text.value = linked;
  readText();
} else setBoard(randomBoard(3));
if (query.get("solve") === "1") void solve();
