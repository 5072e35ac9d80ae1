// A solution played on the board: the blank's path decoded move by move from the start board,
// never the server's list of boards (a FAST 128×128 answer has millions of moves). Going back
// undoes a move; a jump starts from the nearest of a few hundred kept boards, so any move is
// reached in a bounded number of steps, whatever the length.

import { type BlankMove, type Board, applyMove, inverse } from "./puzzle";

/** Boards kept for jumps, at most: memory is this many copies of the board. */
const CHECKPOINTS = 256;

/** A solution's path and the board at the current move. */
export class Playback {
  /** The board after `position` moves; changed in place. */
  readonly board: Board;
  private blank: number;
  private at = 0;
  private readonly every: number;
  private readonly kept: Uint16Array[] = [];

  /** Fails, naming the move, when `path` walks the blank off the board. */
  constructor(
    start: Board,
    readonly path: string,
  ) {
    this.every = Math.max(64, Math.ceil(path.length / CHECKPOINTS));
    const tiles = start.tiles.slice();
    let blank = tiles.indexOf(0);
    for (let i = 0; i < path.length; i++) {
      if (i % this.every === 0) this.kept.push(tiles.slice());
      blank = applyMove(tiles, start.n, blank, path[i] as BlankMove);
      if (blank < 0) throw new Error(`move ${i + 1} (${path[i]}) leaves the board`);
    }
    this.board = { n: start.n, tiles: start.tiles.slice() };
    this.blank = this.board.tiles.indexOf(0);
  }

  /** The number of moves. */
  get length(): number {
    return this.path.length;
  }

  /** How many moves have been made. */
  get position(): number {
    return this.at;
  }

  /** The blank's cell now. */
  get blankCell(): number {
    return this.blank;
  }

  /** Makes the next move; returns the cell the blank left (where the tile went), or -1 at the end. */
  forward(): number {
    if (this.at >= this.path.length) return -1;
    const left = this.blank;
    this.blank = applyMove(this.board.tiles, this.board.n, this.blank, this.path[this.at] as BlankMove);
    this.at++;
    return left;
  }

  /** Undoes the last move; returns the cell the blank left, or -1 at the start. */
  back(): number {
    if (this.at === 0) return -1;
    const left = this.blank;
    this.at--;
    this.blank = applyMove(this.board.tiles, this.board.n, this.blank, inverse(this.path[this.at] as BlankMove));
    return left;
  }

  /** Goes to the board after `target` moves. */
  seek(target: number): void {
    target = Math.max(0, Math.min(this.path.length, Math.round(target)));
    const checkpoint = Math.min(Math.floor(target / this.every), this.kept.length - 1);
    // Back, or further ahead than a kept board: start from that board.
    if (checkpoint >= 0 && (target < this.at || checkpoint * this.every > this.at)) {
      this.board.tiles.set(this.kept[checkpoint]);
      this.at = checkpoint * this.every;
      this.blank = this.board.tiles.indexOf(0);
    }
    while (this.at < target) this.forward();
  }

  /** The board after `index` moves, as a copy, for the move list's window. */
  boardAt(index: number): Uint16Array {
    const checkpoint = Math.min(Math.floor(index / this.every), this.kept.length - 1);
    if (checkpoint < 0) return this.board.tiles.slice();
    const tiles = this.kept[checkpoint].slice();
    let blank = tiles.indexOf(0);
    for (let i = checkpoint * this.every; i < index; i++) {
      blank = applyMove(tiles, this.board.n, blank, this.path[i] as BlankMove);
    }
    return tiles;
  }
}
