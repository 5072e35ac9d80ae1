// The board in the page: the spec's text format in and out, solvability, random boards, and
// the blank's moves that a solution is made of. The server stays the judge of what it
// accepts: this parser only lets the page draw and check the board while it is typed.

/** An N×N board, row-major, 0 = blank. */
export interface Board {
  readonly n: number;
  readonly tiles: Uint16Array;
}

/** The largest N the server accepts by default (its `--max-dimension`). */
export const MAX_DIMENSION = 128;

/** Where a token starts: 1-based line and column, as the server and the CLI count them. */
export interface Place {
  readonly line: number;
  readonly column: number;
}

/** Why a text is not a board, and where. */
export interface ParseError extends Place {
  readonly error: string;
}

/** The board as text or why it is not one. */
export type Parsed = { board: Board } | ParseError;

/** "line 3, column 5". */
export function placeText(place: Place): string {
  return `line ${place.line}, column ${place.column}`;
}

/** The whitespace-separated tokens of `text`, each with its line and column. */
function tokenize(text: string): { tokens: { text: string; place: Place }[]; end: Place } {
  const tokens: { text: string; place: Place }[] = [];
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index++) {
    for (const match of lines[index].matchAll(/\S+/g)) {
      tokens.push({ text: match[0], place: { line: index + 1, column: (match.index ?? 0) + 1 } });
    }
  }
  // Where more tiles were due: just after the last token.
  const last = tokens[tokens.length - 1];
  const end = last ? { line: last.place.line, column: last.place.column + last.text.length } : { line: 1, column: 1 };
  return { tokens, end };
}

/**
 * Reads the spec's format: N, then N*N tiles separated by any whitespace. An error names the
 * line and column of the token at fault (or of the end of the text, when tiles are missing).
 */
export function parseBoard(text: string): Parsed {
  const { tokens, end } = tokenize(text.replace(/\r\n?/g, "\n"));
  const fail = (place: Place, error: string): ParseError => ({ ...place, error });
  if (tokens.length === 0) return fail(end, "the text is empty: expected the dimension N, then N*N tiles");
  const n = wholeNumber(tokens[0].text);
  if (n === undefined || n < 2 || n > MAX_DIMENSION) {
    return fail(tokens[0].place, `the dimension "${tokens[0].text}" is not a whole number in 2..${MAX_DIMENSION}`);
  }
  const cells = n * n;
  if (tokens.length - 1 < cells) {
    return fail(end, `a ${n}×${n} board needs ${cells} tiles, found ${tokens.length - 1}`);
  }
  if (tokens.length - 1 > cells) {
    const extra = tokens[cells + 1];
    return fail(extra.place, `"${extra.text}" after the last of the ${cells} tiles (is N right?)`);
  }
  const tiles = new Uint16Array(cells);
  const seen = new Array<Place | undefined>(cells);
  for (let i = 0; i < cells; i++) {
    const token = tokens[i + 1];
    const tile = wholeNumber(token.text);
    if (tile === undefined) return fail(token.place, `tile "${token.text}" is not a whole number`);
    if (tile >= cells) return fail(token.place, `tile ${tile} is not in 0..${cells - 1}`);
    const first = seen[tile];
    if (first) return fail(token.place, `tile ${tile} appears twice (first at ${placeText(first)})`);
    seen[tile] = token.place;
    tiles[i] = tile;
  }
  return { board: { n, tiles } };
}

function wholeNumber(token: string): number | undefined {
  return /^\d{1,6}$/.test(token) ? Number(token) : undefined;
}

/** The spec's format: N on the first line, then one line per row, columns aligned. */
export function formatBoard(board: Board): string {
  const width = String(board.n * board.n - 1).length;
  const rows = [String(board.n)];
  for (let row = 0; row < board.n; row++) {
    const cells = Array.from(board.tiles.subarray(row * board.n, (row + 1) * board.n), (tile) =>
      String(tile).padStart(width),
    );
    rows.push(cells.join(" "));
  }
  return rows.join("\n") + "\n";
}

/** 1 2 3 … with the blank last: the board every solution ends on. */
export function goal(n: number): Board {
  const tiles = new Uint16Array(n * n);
  for (let i = 0; i < n * n - 1; i++) tiles[i] = i + 1;
  return { n, tiles };
}

/** Whether `board` is the goal. */
export function isGoal(board: Board): boolean {
  const last = board.tiles.length - 1;
  return board.tiles[last] === 0 && board.tiles.every((tile, i) => i === last || tile === i + 1);
}

/** Whether the goal can be reached: the parity of the permutation, and for even N the blank's row. */
export function isSolvable(board: Board): boolean {
  const inversions = countInversions(board.tiles);
  if (board.n % 2 === 1) return inversions % 2 === 0;
  const blankRowsFromBottom = board.n - 1 - Math.floor(board.tiles.indexOf(0) / board.n);
  return (inversions + blankRowsFromBottom) % 2 === 0;
}

/** Inversions among the tiles (the blank left out), by merge sort: a 128×128 board has 16k tiles. */
function countInversions(tiles: Uint16Array): number {
  let values = Array.from(tiles).filter((tile) => tile !== 0);
  let scratch = new Array<number>(values.length);
  let inversions = 0;
  for (let width = 1; width < values.length; width *= 2) {
    for (let start = 0; start < values.length; start += 2 * width) {
      const middle = Math.min(start + width, values.length);
      const end = Math.min(start + 2 * width, values.length);
      let [left, right, out] = [start, middle, start];
      while (left < middle && right < end) {
        if (values[left] <= values[right]) scratch[out++] = values[left++];
        else {
          inversions += middle - left;
          scratch[out++] = values[right++];
        }
      }
      while (left < middle) scratch[out++] = values[left++];
      while (right < end) scratch[out++] = values[right++];
    }
    [values, scratch] = [scratch, values];
  }
  return inversions;
}

/**
 * A uniformly random solvable board: a uniform shuffle, and if it is unsolvable, two tiles
 * swapped. Swapping the same two cells pairs every unsolvable board with one solvable board,
 * so each solvable board comes out exactly twice as often as under rejection, i.e. uniformly.
 */
export function randomBoard(n: number): Board {
  const tiles = new Uint16Array(n * n);
  for (let i = 0; i < tiles.length; i++) tiles[i] = i;
  for (let i = tiles.length - 1; i > 0; i--) {
    const j = randomBelow(i + 1);
    [tiles[i], tiles[j]] = [tiles[j], tiles[i]];
  }
  const board = { n, tiles };
  if (!isSolvable(board)) {
    // The first two cells that do not hold the blank: a fixed pair, so the pairing is a bijection.
    const [a, b] = tiles[0] === 0 ? [1, 2] : tiles[1] === 0 ? [0, 2] : [0, 1];
    [tiles[a], tiles[b]] = [tiles[b], tiles[a]];
  }
  return board;
}

/** A uniform integer in 0..bound, from the browser's cryptographic generator, without modulo bias. */
function randomBelow(bound: number): number {
  const limit = Math.floor(0x1_0000_0000 / bound) * bound;
  const word = new Uint32Array(1);
  do crypto.getRandomValues(word);
  while (word[0] >= limit);
  return word[0] % bound;
}

/** The blank's moves as the server writes them: U is toward row 0. */
export type BlankMove = "U" | "D" | "L" | "R";

/** The cell the blank moves to from `blank` on an N×N board, or -1 off the edge. */
export function neighbour(n: number, blank: number, move: BlankMove): number {
  const [row, col] = [Math.floor(blank / n), blank % n];
  switch (move) {
    case "U":
      return row > 0 ? blank - n : -1;
    case "D":
      return row < n - 1 ? blank + n : -1;
    case "L":
      return col > 0 ? blank - 1 : -1;
    case "R":
      return col < n - 1 ? blank + 1 : -1;
  }
}

/** The move that undoes `move`. */
export function inverse(move: BlankMove): BlankMove {
  return ({ U: "D", D: "U", L: "R", R: "L" } as const)[move];
}

/** The way the tile goes when the blank makes `move`, in the spec's words ("7 down"). */
export function tileDirection(move: BlankMove): string {
  return ({ U: "down", D: "up", L: "right", R: "left" } as const)[move];
}

/** Slides the tile next to the blank into it, in place; returns the blank's new cell (or -1). */
export function applyMove(tiles: Uint16Array, n: number, blank: number, move: BlankMove): number {
  const next = neighbour(n, blank, move);
  if (next < 0) return -1;
  tiles[blank] = tiles[next];
  tiles[next] = 0;
  return next;
}
