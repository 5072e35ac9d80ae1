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
    this.chart.clear();
  }

  /** A better solution is known (an `improved` event). */
  improved(moves: number): void {
    this.best = moves;
  }

  /** Shows a progress message. */
  show(progress: Progress): void {
    this.best = progress.bestMoves || this.best;
    this.figures(Number(progress.nodesExpanded), Number(progress.elapsedMicros) / 1e6, progress.priority);
  }

  /** Shows the answer's final figures: what it proved and what it found. */
  answered(solution: Solution): void {
    if (!solution.solvable) return;
    this.best = solution.moves;
    const stats = solution.stats;
    const seconds = Number(stats?.elapsedMicros ?? 0) / 1e6;
    this.figures(Number(stats?.nodesExpanded ?? 0), Math.max(seconds, this.last?.seconds ?? 0), solution.lowerBound);
  }

  private figures(nodes: number, seconds: number, bound: number): void {
    const last = this.last;
    const rate = last && seconds > last.seconds ? (nodes - last.nodes) / (seconds - last.seconds) : seconds > 0 ? nodes / seconds : 0;
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
    this.chart.add(seconds, bound, this.best);
  }
}

/** "1 move", "2 moves". */
function moves(count: number): string {
  return `${count.toLocaleString()} move${count === 1 ? "" : "s"}`;
}

/** The gap between the best known and the bound, in moves and as a share of the best. */
function gap(best: number, bound: number): string {
  const moves = Math.max(0, best - bound);
  return `${moves.toLocaleString()} (${((moves / best) * 100).toFixed(1)}%)`;
}
