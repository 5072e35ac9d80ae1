// The playback controls: play/pause, step, first/last, speed, the slider that jumps to any
// move, and the animation loop. At a few moves a second each tile slides; faster, as many
// moves are made per frame as the speed asks, and the board is drawn once a frame.

import { neighbour, type BlankMove } from "./puzzle";
import type { Playback } from "./playback";
import type { BoardView } from "./render";
import { MoveList } from "./movelist";

/** Up to this speed each move is animated; above it, moves jump. */
const ANIMATED_SPEED = 20;
/** The speed a solution starts at is the slowest that plays it in about this many seconds… */
const AUTO_SECONDS = 12;
/** …but no slower than this many moves a second. */
const AUTO_MIN_SPEED = 4;

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`the page has no #${id}`);
  return found as T;
}

/** Plays a [`Playback`] on the board view. */
export class Player {
  private playback: Playback | null = null;
  private playing = false;
  private lastFrame = 0;
  private carried = 0;
  private readonly buttons = {
    first: element<HTMLButtonElement>("first"),
    back: element<HTMLButtonElement>("back"),
    play: element<HTMLButtonElement>("play"),
    forward: element<HTMLButtonElement>("forward"),
    last: element<HTMLButtonElement>("last"),
  };
  private readonly seek = element<HTMLInputElement>("seek");
  private readonly position = element<HTMLOutputElement>("position");
  private readonly speed = element<HTMLSelectElement>("speed");
  private readonly list: MoveList;

  constructor(private readonly view: BoardView) {
    this.list = new MoveList(element("moves"), (move) => this.jump(move));
    this.buttons.play.addEventListener("click", () => (this.playing ? this.pause() : this.play()));
    this.buttons.first.addEventListener("click", () => this.jump(0));
    this.buttons.last.addEventListener("click", () => this.jump(this.playback?.length ?? 0));
    this.buttons.back.addEventListener("click", () => this.step(-1));
    this.buttons.forward.addEventListener("click", () => this.step(1));
    this.seek.addEventListener("input", () => this.jump(Number(this.seek.value)));
    element("moves").addEventListener("keydown", (event) => this.key(event));
  }

  /** The move list's keys: up and down step, Home and End jump, space plays or pauses. */
  private key(event: KeyboardEvent): void {
    const playback = this.playback;
    if (!playback) return;
    const actions: Record<string, () => void> = {
      ArrowUp: () => this.step(-1),
      ArrowDown: () => this.step(1),
      Home: () => this.jump(0),
      End: () => this.jump(playback.length),
      " ": () => (this.playing ? this.pause() : this.play()),
    };
    const action = actions[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  }

  /** The solution being shown, if any. */
  get current(): Playback | null {
    return this.playback;
  }

  /** Shows `playback` from its start and plays it; `null` clears the player and its counter. */
  load(playback: Playback | null): void {
    this.stop();
    this.playback = playback;
    this.list.show(playback);
    const length = playback?.length ?? 0;
    this.seek.max = String(length);
    for (const control of [...Object.values(this.buttons), this.seek]) control.disabled = length === 0;
    if (!playback) {
      this.seek.value = "0";
      this.position.value = "0 / 0";
      return;
    }
    const wanted = Math.max(AUTO_MIN_SPEED, length / AUTO_SECONDS);
    const speeds = Array.from(this.speed.options, (option) => Number(option.value));
    this.speed.value = String(speeds.find((speed) => speed >= wanted) ?? speeds[speeds.length - 1]);
    this.render();
    if (length > 0) this.play();
  }

  /** Starts playing from here (from the start when at the end). */
  play(): void {
    const playback = this.playback;
    if (!playback || this.playing) return;
    if (playback.position === playback.length) playback.seek(0);
    this.playing = true;
    this.buttons.play.textContent = "Pause";
    this.buttons.play.setAttribute("aria-label", "Pause");
    this.lastFrame = 0;
    this.carried = 0;
    requestAnimationFrame((now) => this.frame(now));
  }

  /** Stops where it is, the tile that was sliding drawn in its cell. */
  pause(): void {
    const was = this.playing;
    this.stop();
    if (was) this.render();
  }

  /** Stops, drawing nothing. */
  private stop(): void {
    this.playing = false;
    this.buttons.play.textContent = "Play";
    this.buttons.play.setAttribute("aria-label", "Play");
  }

  private step(by: number): void {
    this.pause();
    if (by > 0) this.playback?.forward();
    else this.playback?.back();
    this.render();
  }

  private jump(move: number): void {
    this.pause();
    this.playback?.seek(move);
    this.render();
  }

  private frame(now: number): void {
    const playback = this.playback;
    if (!this.playing || !playback) return;
    const speed = Number(this.speed.value);
    this.carried += this.lastFrame ? ((now - this.lastFrame) / 1000) * speed : 0;
    this.lastFrame = now;
    for (; this.carried >= 1 && playback.position < playback.length; this.carried--) playback.forward();
    if (playback.position === playback.length) {
      this.pause();
      this.render();
      return;
    }
    this.render(speed <= ANIMATED_SPEED ? this.carried : 0);
    requestAnimationFrame((next) => this.frame(next));
  }

  /** Draws the current board, the next move `progress` of the way there, and the controls. */
  private render(progress = 0): void {
    const playback = this.playback;
    if (!playback) return;
    const blank = playback.blankCell;
    const next = playback.path[playback.position] as BlankMove | undefined;
    const from = next && progress > 0 ? neighbour(playback.board.n, blank, next) : -1;
    this.view.draw(playback.board, from >= 0 ? { from, to: blank, progress } : undefined);
    this.seek.value = String(playback.position);
    this.position.value = `${playback.position.toLocaleString()} / ${playback.length.toLocaleString()}`;
    this.list.follow();
  }
}
