import { describe, expect, it } from 'vitest';
import { formatMoney, toAmount } from '../../src/shared/money';

describe('formatMoney', () => {
  it('formats server money strings as USD with two decimals', () => {
    expect(formatMoney('24.99')).toBe('$24.99');
    expect(formatMoney('30')).toBe('$30.00');
    expect(formatMoney('0.5')).toBe('$0.50');
    expect(formatMoney('0.00')).toBe('$0.00');
  });

  it('accepts numbers', () => {
    expect(formatMoney(24.99)).toBe('$24.99');
    expect(formatMoney(7)).toBe('$7.00');
    expect(formatMoney(0)).toBe('$0.00');
  });

  it('rounds to cents and groups thousands', () => {
    expect(formatMoney(19.999)).toBe('$20.00');
    expect(formatMoney(1.005)).toBe('$1.01');
    expect(formatMoney('1250')).toBe('$1,250.00');
    expect(formatMoney(1234567.891)).toBe('$1,234,567.89');
  });

  it('shows negative amounts with a minus sign and never "-$0.00"', () => {
    expect(formatMoney('-5')).toBe('-$5.00');
    expect(formatMoney(-0)).toBe('$0.00');
    expect(formatMoney('-0.001')).toBe('$0.00');
  });

  it('treats unparseable input as zero', () => {
    expect(formatMoney('')).toBe('$0.00');
    expect(formatMoney('abc')).toBe('$0.00');
    expect(formatMoney(Number.NaN)).toBe('$0.00');
    expect(formatMoney(Number.POSITIVE_INFINITY)).toBe('$0.00');
  });
});

describe('toAmount', () => {
  it('parses strings with surrounding spaces', () => {
    expect(toAmount(' 24.99 ')).toBe(24.99);
    expect(toAmount('  ')).toBe(0);
  });
});
