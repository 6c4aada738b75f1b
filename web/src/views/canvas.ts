// Canvas plumbing shared by every view: sharp drawing on high-density
// screens, a hatch pattern for aggregated marks, and a drag gesture.

export function fitCanvas(canvas: HTMLCanvasElement): CanvasRenderingContext2D {
  const ratio = window.devicePixelRatio || 1;
  const width = Math.max(1, canvas.clientWidth);
  const height = Math.max(1, canvas.clientHeight);
  if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
  }
  const ctx = canvas.getContext('2d')!;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, width, height);
  return ctx;
}

const hatches = new Map<string, CanvasPattern | null>();

/** Diagonal stripes of `color` on transparent: marks what stands for many. */
export function hatch(ctx: CanvasRenderingContext2D, color: string): CanvasPattern | string {
  let pattern = hatches.get(color);
  if (pattern === undefined) {
    const tile = document.createElement('canvas');
    tile.width = tile.height = 6;
    const t = tile.getContext('2d')!;
    t.strokeStyle = color;
    t.lineWidth = 1.5;
    t.beginPath();
    t.moveTo(-1, 7); t.lineTo(7, -1);
    t.moveTo(5, 7); t.lineTo(7, 5);
    t.moveTo(-1, 1); t.lineTo(1, -1);
    t.stroke();
    pattern = ctx.createPattern(tile, 'repeat');
    hatches.set(color, pattern);
  }
  return pattern ?? color;
}

export interface DragHandlers {
  /** Return false to refuse the gesture (e.g. wrong button or modifier). */
  start(x: number, y: number, event: PointerEvent): boolean;
  move(x: number, y: number, event: PointerEvent): void;
  end(x: number, y: number, moved: boolean, event: PointerEvent): void;
}

/** Pointer drag in element coordinates, with the pointer captured so a drag
 * that leaves the element still ends. */
export function onDrag(element: HTMLElement, h: DragHandlers): void {
  let active = false;
  let moved = false;
  let x0 = 0;
  let y0 = 0;
  const local = (e: PointerEvent): [number, number] => {
    const r = element.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  };
  element.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return;
    const [x, y] = local(e);
    if (!h.start(x, y, e)) return;
    active = true; moved = false; x0 = x; y0 = y;
    element.setPointerCapture(e.pointerId);
    e.preventDefault();
  });
  element.addEventListener('pointermove', (e) => {
    if (!active) return;
    const [x, y] = local(e);
    if (Math.abs(x - x0) + Math.abs(y - y0) > 3) moved = true;
    h.move(x, y, e);
  });
  const finish = (e: PointerEvent) => {
    if (!active) return;
    active = false;
    const [x, y] = local(e);
    h.end(x, y, moved, e);
  };
  element.addEventListener('pointerup', finish);
  element.addEventListener('pointercancel', finish);
}
