// The solution's moves as a list that may hold millions: only the rows in view exist in the
// DOM. A spacer gives the scroll bar its length (capped, since browsers cap an element's
// height; past the cap a scroll position maps proportionally to a move).

import { type BlankMove, applyMove, neighbour, tileDirection } from "./puzzle";
import type { Playback } from "./playback";

const ROW_HEIGHT = 22;
/** Below the height limit of every current browser. */
const MAX_SPACER = 8_000_000;

/** The list, its rows in view, and the move they highlight. */
export class MoveList {
  private readonly spacer: HTMLElement;
  private readonly rows: HTMLElement;
  private playback: Playback | null = null;
  private shown = -1;

  constructor(
    private readonly container: HTMLElement,
    private readonly onPick: (move: number) => void,
  ) {
    this.spacer = document.createElement("div");
    this.rows = document.createElement("ol");
    this.rows.className = "rows";
    this.container.replaceChildren(this.spacer, this.rows);
    this.container.addEventListener("scroll", () => this.render());
    this.rows.addEventListener("click", (event) => {
      const row = (event.target as HTMLElement).closest("li");
      if (row?.dataset.move) this.onPick(Number(row.dataset.move));
    });
  }

  /** Shows `playback`'s moves, or none. */
  show(playback: Playback | null): void {
    this.playback = playback;
    this.spacer.style.height = `${Math.min(MAX_SPACER, (playback?.length ?? 0) * ROW_HEIGHT)}px`;
    this.container.scrollTop = 0;
    this.shown = -1;
    this.render();
  }

  /** Highlights the move just made (the position's), scrolling it into view. */
  follow(): void {
    const playback = this.playback;
    if (!playback || playback.position === this.shown) return;
    const current = playback.position - 1;
    const [first] = this.window();
    const visible = Math.max(1, Math.floor(this.container.clientHeight / ROW_HEIGHT));
    if (current >= 0 && (current < first || current >= first + visible)) {
      this.container.scrollTop = this.offsetOf(Math.max(0, current - 2));
    }
    this.render();
  }

  /** The first row in view and how many fit. */
  private window(): [number, number] {
    const length = this.playback?.length ?? 0;
    const count = Math.ceil(this.container.clientHeight / ROW_HEIGHT) + 1;
    const spacer = Math.min(MAX_SPACER, length * ROW_HEIGHT);
    const scrollable = Math.max(1, spacer - this.container.clientHeight);
    const first =
      spacer < MAX_SPACER
        ? Math.floor(this.container.scrollTop / ROW_HEIGHT)
        : Math.round((this.container.scrollTop / scrollable) * Math.max(0, length - count + 1));
    return [Math.max(0, Math.min(first, length - 1)), count];
  }

  /** The scroll position that shows `move` first. */
  private offsetOf(move: number): number {
    const length = this.playback?.length ?? 0;
    if (length * ROW_HEIGHT < MAX_SPACER) return move * ROW_HEIGHT;
    const count = Math.ceil(this.container.clientHeight / ROW_HEIGHT) + 1;
    return (move / Math.max(1, length - count + 1)) * (MAX_SPACER - this.container.clientHeight);
  }

  private render(): void {
    const playback = this.playback;
    if (!playback || playback.length === 0) {
      this.rows.replaceChildren();
      return;
    }
    this.shown = playback.position;
    const [first, count] = this.window();
    const last = Math.min(playback.length, first + count);
    const n = playback.board.n;
    const tiles = playback.boardAt(first);
    let blank = tiles.indexOf(0);
    const items: HTMLElement[] = [];
    for (let move = first; move < last; move++) {
      const letter = playback.path[move] as BlankMove;
      const next = neighbour(n, blank, letter);
      const item = document.createElement("li");
      item.dataset.move = String(move + 1);
      item.textContent = `${move + 1}. ${tiles[next]} ${tileDirection(letter)}`;
      if (move === playback.position - 1) item.className = "current";
      items.push(item);
      blank = applyMove(tiles, n, blank, letter);
    }
    this.rows.style.transform = `translateY(${this.container.scrollTop}px)`;
    this.rows.replaceChildren(...items);
  }
}
