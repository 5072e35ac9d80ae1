// Draws a board on a canvas: one code path for a 2×2 and a 128×128, so big boards cost a fill
// per cell and no DOM. A tile's colour says where it belongs (hue by goal row, lightness by
// goal column), so a big board is seen sorting itself; numbers are drawn when they fit.

import type { Board } from "./puzzle";

/** The tile at `from` drawn part of the way to the blank at `to`: a move being animated. */
export interface Slide {
  readonly from: number;
  readonly to: number;
  /** 0 = still at `from`, 1 = arrived at `to`. */
  readonly progress: number;
}

/** The canvas and the board it shows. */
export class BoardView {
  private readonly context: CanvasRenderingContext2D;

  constructor(readonly canvas: HTMLCanvasElement) {
    const context = canvas.getContext("2d", { alpha: false });
    if (!context) throw new Error("this browser cannot draw on a canvas");
    this.context = context;
  }

  /** The cell under a point of the canvas in CSS pixels, or -1. */
  cellAt(n: number, x: number, y: number): number {
    const size = this.canvas.clientWidth / n;
    const [row, col] = [Math.floor(y / size), Math.floor(x / size)];
    return row >= 0 && row < n && col >= 0 && col < n ? row * n + col : -1;
  }

  /** Draws `board`, with `slide`'s tile between its cells, and records it for automation. */
  draw(board: Board, slide?: Slide): void {
    const { n, tiles } = board;
    const ratio = window.devicePixelRatio || 1;
    const pixels = Math.round(this.canvas.clientWidth * ratio);
    if (this.canvas.width !== pixels || this.canvas.height !== pixels) {
      this.canvas.width = pixels;
      this.canvas.height = pixels;
    }
    const context = this.context;
    const cell = pixels / n;
    context.fillStyle = "#1d2430";
    context.fillRect(0, 0, pixels, pixels);
    const gap = cell >= 12 ? Math.max(1, cell * 0.04) : 0;
    const labelled = cell >= 16 * ratio;
    if (labelled) {
      context.font = `600 ${Math.floor(cell * (n * n > 100 ? 0.34 : 0.42))}px system-ui, sans-serif`;
      context.textAlign = "center";
      context.textBaseline = "middle";
    }
    for (let i = 0; i < tiles.length; i++) {
      const tile = tiles[i];
      if (tile === 0) continue;
      let [row, col] = [Math.floor(i / n), i % n];
      if (slide && slide.from === i) {
        const t = slide.progress;
        row = row * (1 - t) + Math.floor(slide.to / n) * t;
        col = col * (1 - t) + (slide.to % n) * t;
      }
      const [x, y] = [col * cell + gap / 2, row * cell + gap / 2];
      const size = cell - gap;
      context.fillStyle = tileColour(tile, n, i);
      context.fillRect(x, y, size, size);
      if (labelled) {
        context.fillStyle = "#10141b";
        context.fillText(String(tile), x + size / 2, y + size / 2 + 1);
      }
    }
    this.canvas.dataset.tiles = tiles.join(" ");
    this.canvas.setAttribute("aria-label", describe(board));
  }
}

/** Hue from the goal row, lightness from the goal column; a tile at home is brighter. */
function tileColour(tile: number, n: number, cell: number): string {
  const home = tile - 1;
  const hue = Math.round((Math.floor(home / n) / n) * 300);
  const light = 52 + Math.round(((home % n) / n) * 22) + (home === cell ? 8 : 0);
  return `hsl(${hue} 70% ${light}%)`;
}

/** What a screen reader says of the board: its rows for small ones, its size otherwise. */
function describe(board: Board): string {
  const { n, tiles } = board;
  if (n > 5) return `${n} by ${n} board`;
  const rows = [];
  for (let row = 0; row < n; row++) {
    rows.push(Array.from(tiles.subarray(row * n, (row + 1) * n), (t) => (t === 0 ? "blank" : t)).join(" "));
  }
  return `${n} by ${n} board: ${rows.join("; ")}`;
}
