// Highlights in the Gantt: the rows of a query's result and of the where
// filter, drawn alike above the window's items — filled in their value's
// colour when they name one, outlined so they stand out of any background;
// and the analyses' overlays (wait states, critical paths).

import type { Connector, Overlay, Rect } from '../overlay';
import type { Mark } from '../query';
import { hatch } from './canvas';
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

/**
 * An analysis drawn over the diagram (overlay.ts): waits as hatched marks
 * in their pattern's colour over a light wash of it; a path as a thick
 * outline along each segment and a vertical connector at each jump.
 */
export function drawOverlay(ctx: CanvasRenderingContext2D, overlay: Overlay, rects: Rect[], connectors: Connector[]): void {
  if (overlay.kind === 'waits') {
    for (const r of rects) {
      const color = overlay.spans[r.span].color;
      ctx.globalAlpha = 0.25;
      ctx.fillStyle = color;
      ctx.fillRect(r.x, r.y, r.w, r.h);
      ctx.globalAlpha = 1;
      ctx.fillStyle = hatch(ctx, color);
      ctx.fillRect(r.x, r.y, r.w, r.h);
      ctx.strokeStyle = color;
      ctx.lineWidth = 1;
      ctx.strokeRect(r.x + 0.5, r.y + 0.5, Math.max(1, r.w - 1), r.h - 1);
    }
    return;
  }
  ctx.lineWidth = 3;
  ctx.lineJoin = 'round';
  for (const r of rects) {
    ctx.strokeStyle = overlay.spans[r.span].color;
    ctx.strokeRect(r.x + 1.5, r.y + 1.5, Math.max(1, r.w - 3), r.h - 3);
  }
  ctx.strokeStyle = ctx.fillStyle = '#1f2430';
  ctx.lineWidth = 2;
  ctx.beginPath();
  for (const c of connectors) {
    ctx.moveTo(c.x, c.y0);
    ctx.lineTo(c.x, c.y1);
  }
  ctx.stroke();
  // A dot where the path lands on its new line.
  for (const c of connectors) {
    ctx.beginPath();
    ctx.arc(c.x, c.y1, 3, 0, 2 * Math.PI);
    ctx.fill();
  }
  ctx.lineWidth = 1;
}
