import { describe, expect, it } from 'vitest';
import { formatMoney, formatUsd, toAmount } from '../../src/shared/money';

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

  it('writes what Intl.NumberFormat writes for en-US dollars, with and without cents', () => {
    const intl = (fractionDigits: number) =>
      new Intl.NumberFormat('en-US', {
        style: 'currency',
        currency: 'USD',
        minimumFractionDigits: fractionDigits,
        maximumFractionDigits: fractionDigits,
        signDisplay: 'negative',
      });
    const [cents, whole] = [intl(2), intl(0)];
    const samples = [0, 0.004, 0.005, 0.015, 0.125, 0.5, 1.005, 2.5, 8.345, 99.995, 999.995, 1000, 123456.785, 1e-7, 9_999_999.99];
    let seed = 7;
    for (let i = 0; i < 2000; i++) {
      seed = (seed * 48271) % 2147483647;
      samples.push(Math.round((seed / 2147483647) * 1e8) / 1000);
    }
    for (const amount of [...samples, ...samples.map((x) => -x)]) {
      expect(formatUsd(amount, 2), String(amount)).toBe(cents.format(amount));
      expect(formatUsd(amount, 0), String(amount)).toBe(whole.format(amount));
    }
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
