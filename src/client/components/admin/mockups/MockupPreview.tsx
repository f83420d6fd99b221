import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { artBox, moveTo, MOVE_STEP, previewScale, printArea, type ArtPosition, type Size } from '../../../../shared/placement';

// The browser preview: the template at most 500 px high (and as wide as the column allows), the
// 12 x 16 inch print area outlined, and the artwork placed with the same math the server render
// uses. When `onMove` is given the artwork can be dragged, or moved with the arrow keys.

export interface MockupPreviewProps {
  templateUrl: string;
  templateSize: Size;
  artUrl: string;
  artSize: Size;
  position: ArtPosition;
  /** Width available to the preview, in CSS pixels. */
  maxWidth: number;
  label: string;
  onMove?: (position: ArtPosition) => void;
}

export function MockupPreview({ templateUrl, templateSize, artUrl, artSize, position, maxWidth, label, onMove }: MockupPreviewProps) {
  const scale = previewScale(templateSize, maxWidth);
  const display = { width: templateSize.width * scale, height: templateSize.height * scale };
  const box = artBox(display, artSize, position);
  const area = printArea(display);
  const drag = useRef<{ dx: number; dy: number } | null>(null);
  const frame = useRef<HTMLDivElement>(null);

  const pointerPercent = (event: PointerEvent) => {
    const rect = frame.current!.getBoundingClientRect();
    return { x: ((event.clientX - rect.left) / rect.width) * 100, y: ((event.clientY - rect.top) / rect.height) * 100 };
  };
  const onPointerDown = (event: PointerEvent<HTMLImageElement>) => {
    if (!onMove) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    const at = pointerPercent(event);
    // Keeps the point that was grabbed under the pointer.
    drag.current = { dx: position.x - at.x, dy: position.y - at.y };
  };
  const onPointerMove = (event: PointerEvent<HTMLImageElement>) => {
    if (!onMove || !drag.current) return;
    const at = pointerPercent(event);
    onMove(moveTo(position, at.x + drag.current.dx, at.y + drag.current.dy));
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (!onMove) return;
    const moves: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    onMove(moveTo(position, position.x + move[0] * MOVE_STEP, position.y + move[1] * MOVE_STEP));
  };

  return (
    <div
      ref={frame}
      className="relative mx-auto touch-none overflow-hidden rounded-lg bg-white ring-1 ring-stone-200 select-none focus-visible:ring-3 focus-visible:ring-accent-600/40 focus-visible:outline-none"
      style={{ width: display.width, height: display.height }}
      data-testid="mockup-preview"
      {...(onMove
        ? {
            tabIndex: 0,
            role: 'group',
            'aria-roledescription': 'artwork placement',
            'aria-label': `${label}. Use the arrow keys to move the artwork.`,
            onKeyDown,
          }
        : { role: 'img', 'aria-label': label })}
    >
      <img src={templateUrl} alt="" className="absolute inset-0 size-full" draggable={false} />
      <div
        className="pointer-events-none absolute border-2 border-dashed border-sky-600/70"
        style={{ left: area.left, top: area.top, width: area.width, height: area.height }}
        data-testid="print-area"
      >
        <span className="absolute top-1 left-1 rounded bg-sky-700 px-1.5 py-0.5 text-[10px] font-semibold text-white">
          Print area 12 × 16 in
        </span>
      </div>
      <img
        src={artUrl}
        alt=""
        draggable={false}
        data-testid="mockup-art"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={() => (drag.current = null)}
        onPointerCancel={() => (drag.current = null)}
        className={`absolute max-w-none ${onMove ? 'cursor-move outline-1 outline-accent-600/60 outline-dashed' : ''}`}
        style={{ left: box.left, top: box.top, width: box.width, height: box.height, transform: `rotate(${position.rotation}deg)` }}
      />
    </div>
  );
}
