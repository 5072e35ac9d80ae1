// Draws a board on a canvas: a 2×2 and a 128×128 alike, with no DOM per tile. A tile's colour
// says where it belongs (hue by goal row, lightness by goal column, brighter at home), so a big
// board is seen sorting itself. Boards whose cells are too small for numbers are drawn one
// pixel a cell into an N×N image that the canvas scales up: a 128×128 board costs one image
// copy a frame, not 16,384 fills.

import type { Board } from "./puzzle";

/** The tile at `from` drawn part of the way to the blank at `to`: a move being animated. */
export interface Slide {
  readonly from: number;
  readonly to: number;
  /** 0 = still at `from`, 1 = arrived at `to`. */
  readonly progress: number;
}

const BACKGROUND = [0x1d, 0x24, 0x30] as const;
const LABEL = "#10141b";
const HIGHLIGHT = "#ffffff";

/** Every tile's colour on an N×N board, away from and at its home cell. */
interface Palette {
  readonly n: number;
  readonly away: { css: string[]; rgba: Uint32Array };
  readonly home: { css: string[]; rgba: Uint32Array };
}

/** The canvas and the board it shows. */
export class BoardView {
  private readonly context: CanvasRenderingContext2D;
  private palette: Palette | null = null;
  private image: { context: CanvasRenderingContext2D; data: ImageData; pixels: Uint32Array } | null = null;

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

  /**
   * Draws `board`, with `slide`'s tile between its cells and the tile `highlight` (a hint's)
   * outlined, and records what it drew for automation: the tiles, the slide's progress, the
   * highlighted tile.
   */
  draw(board: Board, slide?: Slide, highlight = 0): void {
    const ratio = window.devicePixelRatio || 1;
    const pixels = Math.round(this.canvas.clientWidth * ratio);
    if (this.canvas.width !== pixels || this.canvas.height !== pixels) {
      this.canvas.width = pixels;
      this.canvas.height = pixels;
    }
    if (this.palette?.n !== board.n) this.palette = palette(board.n);
    const cell = pixels / board.n;
    if (cell >= 16 * ratio) this.drawLabelled(board, cell, slide);
    else this.drawPixels(board, cell, slide);
    const at = highlight ? board.tiles.indexOf(highlight) : -1;
    if (at >= 0) this.outline(board.n, at, cell);
    this.canvas.dataset.tiles = board.tiles.join(" ");
    if (slide && slide.progress > 0) this.canvas.dataset.slide = slide.progress.toFixed(3);
    else delete this.canvas.dataset.slide;
    if (at >= 0) this.canvas.dataset.highlight = String(highlight);
    else delete this.canvas.dataset.highlight;
    this.canvas.setAttribute("aria-label", describe(board));
  }

  /** A ring around the cell `at`: the tile a hint says to move. */
  private outline(n: number, at: number, cell: number): void {
    const context = this.context;
    const width = Math.max(2, cell * 0.08);
    context.strokeStyle = HIGHLIGHT;
    context.lineWidth = width;
    const [row, col] = [Math.floor(at / n), at % n];
    context.strokeRect(col * cell + width / 2, row * cell + width / 2, cell - width, cell - width);
  }

  /** Each tile a rounded-off square with its number. */
  private drawLabelled(board: Board, cell: number, slide?: Slide): void {
    const { n, tiles } = board;
    const context = this.context;
    const colours = this.palette as Palette;
    context.fillStyle = `rgb(${BACKGROUND.join(" ")})`;
    context.fillRect(0, 0, this.canvas.width, this.canvas.height);
    const gap = Math.max(1, cell * 0.04);
    const size = cell - gap;
    context.font = `600 ${Math.floor(cell * (n * n > 100 ? 0.34 : 0.42))}px system-ui, sans-serif`;
    context.textAlign = "center";
    context.textBaseline = "middle";
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
      context.fillStyle = (tile === i + 1 ? colours.home : colours.away).css[tile];
      context.fillRect(x, y, size, size);
      context.fillStyle = LABEL;
      context.fillText(String(tile), x + size / 2, y + size / 2 + 1);
    }
  }

  /** One pixel a cell, scaled up without smoothing; the sliding tile drawn over it. */
  private drawPixels(board: Board, cell: number, slide?: Slide): void {
    const { n, tiles } = board;
    const colours = this.palette as Palette;
    if (this.image?.data.width !== n) {
      const scratch = document.createElement("canvas");
      [scratch.width, scratch.height] = [n, n];
      const context = scratch.getContext("2d");
      if (!context) throw new Error("this browser cannot draw on a canvas");
      const data = context.createImageData(n, n);
      this.image = { context, data, pixels: new Uint32Array(data.data.buffer) };
    }
    const { context, data, pixels } = this.image;
    const background = rgba(BACKGROUND);
    for (let i = 0; i < tiles.length; i++) {
      const tile = tiles[i];
      pixels[i] = tile === 0 || slide?.from === i ? background : (tile === i + 1 ? colours.home : colours.away).rgba[tile];
    }
    context.putImageData(data, 0, 0);
    this.context.imageSmoothingEnabled = false;
    this.context.drawImage(context.canvas, 0, 0, this.canvas.width, this.canvas.height);
    if (slide) {
      const t = slide.progress;
      const row = Math.floor(slide.from / n) * (1 - t) + Math.floor(slide.to / n) * t;
      const col = (slide.from % n) * (1 - t) + (slide.to % n) * t;
      this.context.fillStyle = colours.away.css[tiles[slide.from]];
      this.context.fillRect(col * cell, row * cell, cell, cell);
    }
  }
}

/** The colours of every tile of an N×N board. */
function palette(n: number): Palette {
  const make = (home: boolean) => {
    const css: string[] = [""];
    const packed = new Uint32Array(n * n);
    for (let tile = 1; tile < n * n; tile++) {
      const goal = tile - 1;
      const rgb = hslToRgb((Math.floor(goal / n) / n) * 300, 0.7, (52 + ((goal % n) / n) * 22 + (home ? 8 : 0)) / 100);
      css.push(`rgb(${rgb.join(" ")})`);
      packed[tile] = rgba(rgb);
    }
    return { css, rgba: packed };
  };
  return { n, away: make(false), home: make(true) };
}

/** A colour as the 32-bit pixel of an ImageData (bytes R, G, B, A in memory). */
function rgba([r, g, b]: readonly number[]): number {
  return ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0;
}

/** Hue in degrees, saturation and lightness in 0..1, to 0..255 channels. */
function hslToRgb(hue: number, saturation: number, lightness: number): [number, number, number] {
  const chroma = (1 - Math.abs(2 * lightness - 1)) * saturation;
  const channel = (k: number) => {
    const at = (k + hue / 30) % 12;
    return Math.round((lightness - chroma * Math.max(-1, Math.min(at - 3, 9 - at, 1)) / 2) * 255);
  };
  return [channel(0), channel(8), channel(4)];
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
