// The live figures of a running search: nodes expanded, nodes per second, elapsed time, the
// proven bound, and the best known length and the gap once a solution is known.

import type { Progress, Solution } from "./gen/npuzzle_pb";
import { Chart } from "./chart";

/** The figures in `#progress` and the chart under them. */
export class ProgressView {
  private readonly chart: Chart;
  private best = 0;
  private last: { nodes: number; seconds: number } | null = null;

  constructor(
    private readonly list: HTMLElement,
    chart: HTMLCanvasElement,
  ) {
    this.chart = new Chart(chart);
  }

  /** A new search. */
  clear(): void {
    this.best = 0;
    this.last = null;
    this.list.replaceChildren();
    delete this.list.dataset.nodes;
    delete this.list.dataset.rate;
    delete this.list.dataset.seconds;
    this.chart.clear();
  }

  /** A better solution is known (an `improved` event). */
  improved(moves: number): void {
    this.best = moves;
  }

  /** Shows a progress message. */
  show(progress: Progress): void {
    this.best = progress.bestMoves || this.best;
    this.figures(Number(progress.nodesExpanded), Number(progress.elapsedMicros) / 1e6, progress.priority, false);
  }

  /**
   * Shows the answer's final figures: what it proved and what it found, and the rate over the
   * whole search (total nodes over total time), not over the last interval.
   */
  answered(solution: Solution): void {
    if (!solution.solvable) return;
    this.best = solution.moves;
    const stats = solution.stats;
    const seconds = Number(stats?.elapsedMicros ?? 0) / 1e6;
    this.figures(Number(stats?.nodesExpanded ?? 0), Math.max(seconds, this.last?.seconds ?? 0), solution.lowerBound, true);
  }

  private figures(nodes: number, seconds: number, bound: number, final: boolean): void {
    const last = this.last;
    const rate =
      !final && last && seconds > last.seconds
        ? (nodes - last.nodes) / (seconds - last.seconds)
        : seconds > 0
          ? nodes / seconds
          : 0;
    this.last = { nodes, seconds };
    const figures: [string, string][] = [
      ["Nodes expanded", nodes.toLocaleString()],
      ["Nodes/s", Math.round(Math.max(0, rate)).toLocaleString()],
      ["Elapsed", `${seconds.toFixed(1)} s`],
      ["Proven bound", bound ? `≥ ${moves(bound)}` : "—"],
      ["Best known", this.best ? moves(this.best) : "—"],
      ["Gap", this.best && bound ? gap(this.best, bound) : "—"],
    ];
    this.list.replaceChildren(
      ...figures.map(([name, value]) => {
        const item = document.createElement("div");
        const [term, detail] = [document.createElement("dt"), document.createElement("dd")];
        term.textContent = name;
        detail.textContent = value;
        item.append(term, detail);
        return item;
      }),
    );
    this.list.dataset.nodes = String(nodes);
    this.list.dataset.rate = String(Math.round(Math.max(0, rate)));
    this.list.dataset.seconds = String(seconds);
    this.chart.add(seconds, bound, this.best);
  }
}

/** What a Progress says of the search in a line: the bound, the best known, the forecast. */
export function searching(progress: Progress): string {
  const parts = [progress.priority ? `at least ${moves(progress.priority)} (proven)` : "no bound proven yet"];
  if (progress.bestMoves) parts.push(`best known ${moves(progress.bestMoves)}`);
  const forecast = Number(progress.proofForecastMs);
  if (forecast > 0) parts.push(`proof needs about ${duration(forecast)}`);
  return `Searching: ${parts.join("; ")}…`;
}

/** A duration in milliseconds as a person reads it: "under a second", "40 s", "3 min", "2 h", "5 days". */
export function duration(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 1) return "under a second";
  if (seconds < 90) return `${Math.round(seconds)} s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`;
  if (seconds < 36 * 3600) return `${Math.round(seconds / 3600)} h`;
  if (seconds < 2 * 365 * 86400) return `${Math.round(seconds / 86400).toLocaleString()} days`;
  return `${Math.round(seconds / (365 * 86400)).toLocaleString()} years`;
}

/** "1 move", "2 moves". */
export function moves(count: number): string {
  return `${count.toLocaleString()} move${count === 1 ? "" : "s"}`;
}

/** The gap between the best known and the bound, in moves and as a share of the best. */
function gap(best: number, bound: number): string {
  const moves = Math.max(0, best - bound);
  return `${moves.toLocaleString()} (${((moves / best) * 100).toFixed(1)}%)`;
}
