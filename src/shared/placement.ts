import type { ArtPosition } from './constants';

// Mockup placement math (docs/PRODUCT.md § Validation and Limits; docs/ARCHITECTURE.md § Files), shared by the browser preview and
// the server render so both put the artwork in the same place.
//
// Model: x, y are the artwork's centre in percent of the template's width and height. The artwork
// keeps its aspect ratio and is fitted inside a box of width% of the template's width by height%
// of its height, then turned by `rotation` degrees (clockwise) about its centre. This is the same
// rule the demo seed uses to draw its mockups (src/server/seed/images.ts). The size control sets
// width and height together, so for artwork at least as wide as that box `size` is exactly the
// artwork's width in percent of the template's width.
//
// Print area: the template's width stands for the 12-inch width of the 12 x 16 inch print area;
// the area is centred on the template (and cut off where a template is shorter than 16 inches).
// So an artwork placed across p percent of the template is printed p% of 12 inches wide, and its
// effective DPI is its own pixel width divided by those inches.

export type { ArtPosition };

const SIZE_MIN = 5;
const SIZE_MAX = 100;
const SIZE_STEP = 5;
const ROTATION_STEP = 5;
/** Percent moved by one press of an arrow button. */
export const MOVE_STEP = 1;
/** The preview canvas is never taller than this (docs/PRODUCT.md § Limits). */
const PREVIEW_MAX_HEIGHT = 500;
const PRINT_AREA_INCHES = { width: 12, height: 16 } as const;
/** Below this the preview warns that the print may look soft. */
export const DPI_WARN = 300;
/** Below this a side cannot be saved (browser and server). */
export const DPI_MIN = 150;
/** Server renders are made so that the print area comes out at this many pixels per inch. */
const RENDER_DPI = 300;

export interface Size {
  width: number;
  height: number;
}

export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
/** Rounds away floating-point dust (e.g. 0.1 + 0.2) so stored percentages stay readable. */
const tidy = (value: number) => Math.round(value * 1000) / 1000;

/** A position coordinate clamped to 0-100 percent. */
export function clampPercent(value: number): number {
  return Number.isFinite(value) ? tidy(clamp(value, 0, 100)) : 50;
}

/** A size snapped to the 5 % grid within 5-100 %. */
export function normalizeSize(value: number): number {
  if (!Number.isFinite(value)) return SIZE_MIN;
  return clamp(Math.round(value / SIZE_STEP) * SIZE_STEP, SIZE_MIN, SIZE_MAX);
}

/** The next size up (+1) or down (-1): 5 % per step, held within 5-100 %. */
export function stepSize(value: number, direction: 1 | -1): number {
  return normalizeSize(normalizeSize(value) + direction * SIZE_STEP);
}

/** A rotation snapped to 5 degrees and wrapped into 0-355. */
export function normalizeRotation(value: number): number {
  if (!Number.isFinite(value)) return 0;
  const snapped = Math.round(value / ROTATION_STEP) * ROTATION_STEP;
  return ((snapped % 360) + 360) % 360;
}

/** Turns by 5 degrees: 355 + 5 gives 0 and 0 - 5 gives 355. */
export function stepRotation(value: number, direction: 1 | -1): number {
  return normalizeRotation(normalizeRotation(value) + direction * ROTATION_STEP);
}

/** Every rule at once: what a position must look like before it is previewed, rendered or stored. */
export function normalizePosition(position: ArtPosition): ArtPosition {
  return {
    x: clampPercent(position.x),
    y: clampPercent(position.y),
    width: normalizeSize(position.width),
    height: normalizeSize(position.height),
    rotation: normalizeRotation(position.rotation),
  };
}

/** The size control: width and height together. */
export function withSize(position: ArtPosition, size: number): ArtPosition {
  const snapped = normalizeSize(size);
  return { ...position, width: snapped, height: snapped };
}

/** Moves the centre to x, y (percent), clamped. */
export function moveTo(position: ArtPosition, x: number, y: number): ArtPosition {
  return { ...position, x: clampPercent(x), y: clampPercent(y) };
}

/**
 * The artwork's rectangle on a template of the given pixel size, before rotation: fitted inside
 * width% x height% of the template with its aspect ratio kept, centred on (x, y). Fractional
 * pixels; a renderer rounds them.
 */
export function artBox(template: Size, art: Size, position: ArtPosition): Rect & { centerX: number; centerY: number } {
  const boxWidth = (template.width * position.width) / 100;
  const boxHeight = (template.height * position.height) / 100;
  const scale = Math.min(boxWidth / art.width, boxHeight / art.height);
  const width = art.width * scale;
  const height = art.height * scale;
  const centerX = (template.width * position.x) / 100;
  const centerY = (template.height * position.y) / 100;
  return { left: centerX - width / 2, top: centerY - height / 2, width, height, centerX, centerY };
}

/** Width and height of the box that holds a width x height rectangle turned by `degrees`. */
export function rotatedBounds(width: number, height: number, degrees: number): Size {
  const radians = (degrees * Math.PI) / 180;
  const cos = Math.abs(Math.cos(radians));
  const sin = Math.abs(Math.sin(radians));
  return { width: width * cos + height * sin, height: width * sin + height * cos };
}

/** Scale of the preview: the template shown at most 500 px high and at most `maxWidth` wide, never enlarged. */
export function previewScale(template: Size, maxWidth: number = Number.POSITIVE_INFINITY, maxHeight = PREVIEW_MAX_HEIGHT): number {
  return Math.min(1, maxHeight / template.height, maxWidth / template.width);
}

/** Template pixels per printed inch: the template's width is the print area's 12 inches. */
function pixelsPerInch(template: Size): number {
  return template.width / PRINT_AREA_INCHES.width;
}

/** The 12 x 16 inch print area on the template, in template pixels (centred, cut to the template). */
export function printArea(template: Size): Rect {
  const fullHeight = pixelsPerInch(template) * PRINT_AREA_INCHES.height;
  const height = Math.min(template.height, fullHeight);
  return { left: 0, top: (template.height - height) / 2, width: template.width, height };
}

/** Printed width in inches of the artwork placed with `position`. */
export function placedWidthInches(template: Size, art: Size, position: ArtPosition): number {
  return artBox(template, art, position).width / pixelsPerInch(template);
}

/** The artwork's own pixels per printed inch at its placed size. */
export function effectiveDpi(template: Size, art: Size, position: ArtPosition): number {
  return art.width / placedWidthInches(template, art, position);
}

export type DpiLevel = 'ok' | 'warn' | 'refuse';

export function dpiLevel(dpi: number): DpiLevel {
  if (dpi < DPI_MIN) return 'refuse';
  if (dpi < DPI_WARN) return 'warn';
  return 'ok';
}

/** Output size of a server render: the template scaled so that the print area is at RENDER_DPI. */
export function renderSize(template: Size): Size {
  const width = PRINT_AREA_INCHES.width * RENDER_DPI;
  return { width, height: Math.round((template.height * width) / template.width) };
}
