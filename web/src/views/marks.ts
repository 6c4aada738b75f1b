// Highlights in the Gantt: the rows of a query's result and of the where
// filter, drawn alike above the window's items — filled in their value's
// colour when they name one, outlined so they stand out of any background.

import type { Mark } from '../query';
import { RectBatch } from './layout';

/** The where filter's rows meeting a window, and whether its limit cut them. */
export interface WhereAnswer { marks: Mark[]; truncated: boolean }
/** Asks the where filter's rows for a window (model times). */
export type WhereSource = (start: number, end: number, signal: AbortSignal) => Promise<WhereAnswer | null>;
/** The where filter: the entities it leaves out are dimmed or hidden. */
export interface Where { mode: 'dim' | 'hide'; source: WhereSource }

/** Where a mark is drawn on the canvas; `color` null: an outline alone. */
export interface MarkBox { x: number; y: number; w: number; h: number; color: string | null }

const OUTLINE = '#ff6a00';

export function drawMarks(ctx: CanvasRenderingContext2D, boxes: MarkBox[]): void {
  const fills = new RectBatch();
  const outline = new Path2D();
  for (const b of boxes) {
    if (b.color) fills.add(b.color, b.x, b.y, b.w, b.h);
    outline.rect(b.x - 0.5, b.y - 0.5, b.w + 1, b.h + 1);
  }
  fills.fill(ctx);
  ctx.strokeStyle = OUTLINE;
  ctx.lineWidth = 1.5;
  ctx.stroke(outline);
  ctx.lineWidth = 1;
}
