import { describe, expect, it } from 'vitest';
import {
  artBox,
  clampPercent,
  dpiLevel,
  effectiveDpi,
  moveTo,
  normalizePosition,
  normalizeRotation,
  normalizeSize,
  placedWidthInches,
  previewScale,
  printArea,
  renderSize,
  rotatedBounds,
  stepRotation,
  stepSize,
  withSize,
} from '../../src/shared/placement';

const TEMPLATE = { width: 1000, height: 1200 };
const SQUARE_ART = { width: 1200, height: 1200 };

describe('editor steps (docs/PRODUCT.md § Validation)', () => {
  it('clamps positions to 0-100 percent', () => {
    expect(clampPercent(-3)).toBe(0);
    expect(clampPercent(104)).toBe(100);
    expect(clampPercent(42.5)).toBe(42.5);
    expect(moveTo({ x: 50, y: 50, width: 30, height: 30, rotation: 0 }, 120, -8)).toMatchObject({ x: 100, y: 0 });
  });

  it('sizes from 5 to 100 percent in steps of 5', () => {
    expect(stepSize(30, 1)).toBe(35);
    expect(stepSize(30, -1)).toBe(25);
    expect(stepSize(100, 1)).toBe(100);
    expect(stepSize(5, -1)).toBe(5);
    expect(normalizeSize(33)).toBe(35);
    expect(normalizeSize(0)).toBe(5);
    expect(normalizeSize(250)).toBe(100);
    expect(withSize({ x: 50, y: 30, width: 30, height: 40, rotation: 0 }, 62)).toMatchObject({ width: 60, height: 60 });
  });

  it('rotates in steps of 5 degrees, wrapping at 360', () => {
    expect(stepRotation(355, 1)).toBe(0);
    expect(stepRotation(0, -1)).toBe(355);
    expect(stepRotation(90, 1)).toBe(95);
    expect(normalizeRotation(-90)).toBe(270);
    expect(normalizeRotation(722)).toBe(0);
    expect(normalizeRotation(363)).toBe(5);
  });

  it('normalizes a whole position', () => {
    expect(normalizePosition({ x: -1, y: 101, width: 2, height: 103, rotation: -5 })).toEqual({
      x: 0,
      y: 100,
      width: 5,
      height: 100,
      rotation: 355,
    });
  });
});

describe('artwork box', () => {
  it('fits the artwork inside width% x height% of the template, centred on x, y (as the demo seed does)', () => {
    // 30 % of 1000 = 300 wide, 30 % of 1200 = 360 high: a square art is limited by the width.
    expect(artBox(TEMPLATE, SQUARE_ART, { x: 50, y: 30, width: 30, height: 30, rotation: 0 })).toEqual({
      left: 350,
      top: 210,
      width: 300,
      height: 300,
      centerX: 500,
      centerY: 360,
    });
  });

  it('keeps the aspect ratio of tall artwork, limited by the box height', () => {
    const box = artBox(TEMPLATE, { width: 100, height: 400 }, { x: 50, y: 50, width: 50, height: 50, rotation: 0 });
    expect(box.height).toBe(600);
    expect(box.width).toBe(150);
    expect(box.left).toBe(425);
  });

  it('gives the bounds of a turned rectangle', () => {
    const quarter = rotatedBounds(300, 100, 90);
    expect(quarter.width).toBeCloseTo(100);
    expect(quarter.height).toBeCloseTo(300);
    expect(rotatedBounds(100, 100, 45).width).toBeCloseTo(141.42, 1);
  });
});

describe('preview canvas', () => {
  it('is at most 500 px high and never enlarged', () => {
    expect(previewScale(TEMPLATE)).toBeCloseTo(500 / 1200);
    expect(previewScale({ width: 300, height: 200 })).toBe(1);
    // A narrow screen limits by width.
    expect(previewScale(TEMPLATE, 300)).toBeCloseTo(0.3);
  });
});

describe('print area and DPI', () => {
  it('maps the template width to the 12-inch print area width', () => {
    expect(placedWidthInches(TEMPLATE, SQUARE_ART, { x: 50, y: 50, width: 50, height: 50, rotation: 0 })).toBeCloseTo(6);
    expect(placedWidthInches(TEMPLATE, SQUARE_ART, { x: 50, y: 50, width: 100, height: 100, rotation: 0 })).toBeCloseTo(12);
  });

  it('centres the 12 x 16 inch area on the template, cut to its height', () => {
    expect(printArea({ width: 1200, height: 2000 })).toEqual({ left: 0, top: 200, width: 1200, height: 1600 });
    expect(printArea(TEMPLATE)).toEqual({ left: 0, top: 0, width: 1000, height: 1200 });
  });

  it('computes the artwork pixels per printed inch and grades them', () => {
    // 1200 px over 6 in = 200 DPI; over 3 in = 400 DPI; over 12 in = 100 DPI.
    expect(effectiveDpi(TEMPLATE, SQUARE_ART, { x: 50, y: 50, width: 50, height: 50, rotation: 0 })).toBeCloseTo(200);
    expect(effectiveDpi(TEMPLATE, SQUARE_ART, { x: 50, y: 50, width: 25, height: 25, rotation: 0 })).toBeCloseTo(400);
    expect(effectiveDpi(TEMPLATE, SQUARE_ART, { x: 50, y: 50, width: 100, height: 100, rotation: 0 })).toBeCloseTo(100);
    expect(dpiLevel(400)).toBe('ok');
    expect(dpiLevel(300)).toBe('ok');
    expect(dpiLevel(299.9)).toBe('warn');
    expect(dpiLevel(150)).toBe('warn');
    expect(dpiLevel(149.9)).toBe('refuse');
  });

  it('does not depend on the template resolution', () => {
    const position = { x: 50, y: 50, width: 40, height: 40, rotation: 0 };
    expect(effectiveDpi({ width: 3600, height: 4320 }, SQUARE_ART, position)).toBeCloseTo(effectiveDpi(TEMPLATE, SQUARE_ART, position));
  });

  it('renders the print area at 300 pixels per inch', () => {
    expect(renderSize(TEMPLATE)).toEqual({ width: 3600, height: 4320 });
  });
});
