// The search over time on a small canvas: the proven bound climbing and the best known length
// falling, so the gap between them is seen closing.

/** One progress sample. */
interface Sample {
  readonly seconds: number;
  readonly bound: number;
  /** 0 = no solution known yet. */
  readonly best: number;
}

const BOUND_COLOUR = "#4f9cf9";
const BEST_COLOUR = "#f59e0b";

/** The chart and its samples. */
export class Chart {
  private samples: Sample[] = [];

  constructor(private readonly canvas: HTMLCanvasElement) {}

  /** Starts a new search. */
  clear(): void {
    this.samples = [];
    this.draw();
  }

  /** Adds a sample and redraws. */
  add(seconds: number, bound: number, best: number): void {
    this.samples.push({ seconds, bound, best });
    this.draw();
  }

  private draw(): void {
    const ratio = window.devicePixelRatio || 1;
    const [width, height] = [this.canvas.clientWidth * ratio, this.canvas.clientHeight * ratio];
    if (this.canvas.width !== width || this.canvas.height !== height) {
      this.canvas.width = width;
      this.canvas.height = height;
    }
    const context = this.canvas.getContext("2d");
    if (!context) return;
    context.clearRect(0, 0, width, height);
    const samples = this.samples;
    this.canvas.dataset.points = String(samples.length);
    if (samples.length === 0) return;
    const seconds = Math.max(samples[samples.length - 1].seconds, 1e-3);
    const values = samples.flatMap((s) => [s.bound, s.best]).filter((value) => value > 0);
    if (values.length === 0) return;
    const [low, high] = [Math.min(...values), Math.max(...values)];
    const span = Math.max(1, high - low);
    const pad = 6 * ratio;
    const x = (s: Sample) => pad + (s.seconds / seconds) * (width - 2 * pad);
    const y = (value: number) => height - pad - ((value - low) / span) * (height - 2 * pad);
    const line = (colour: string, value: (s: Sample) => number) => {
      context.strokeStyle = colour;
      context.lineWidth = 2 * ratio;
      context.beginPath();
      let drawn: Sample | null = null;
      for (const sample of samples) {
        const v = value(sample);
        if (v <= 0) continue;
        if (drawn) context.lineTo(x(sample), y(v));
        else context.moveTo(x(sample), y(v));
        drawn = sample;
      }
      context.stroke();
      // The latest point as a dot: the only mark when the answer came at once.
      if (drawn) {
        context.fillStyle = colour;
        context.beginPath();
        context.arc(x(drawn), y(value(drawn)), 3 * ratio, 0, 2 * Math.PI);
        context.fill();
      }
    };
    line(BOUND_COLOUR, (s) => s.bound);
    line(BEST_COLOUR, (s) => s.best);
    context.fillStyle = "#9aa4b2";
    context.font = `${11 * ratio}px system-ui, sans-serif`;
    context.fillText(String(high), pad, pad + 10 * ratio);
    context.fillText(String(low), pad, height - pad);
  }
}
