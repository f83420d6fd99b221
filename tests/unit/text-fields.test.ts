import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { INVALID_PHONE, optionalLine, optionalPhone, requiredLine, requiredPhone, requiredText } from '../../src/shared/schemas/fields';

// The text rules every form shares: something visible must be written (white space and invisible
// characters alone are blank), and a single-line field holds no line break or control character.

const messages = (schema: z.ZodType, value: string) => {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
};

describe('requiredText', () => {
  const name = requiredText('Name', 100);

  it('takes visible text, trimmed, emoji and accents included', () => {
    expect(name.parse('  Zoë 👨‍👩‍👧 ')).toBe('Zoë 👨‍👩‍👧');
    expect(requiredText('Message', 500).parse('Hello,\nsee you soon')).toBe('Hello,\nsee you soon');
  });

  it('finds blank what is only white space or invisible characters, with one message', () => {
    // Zero-width characters, Hangul fillers, the blank braille pattern, a mark on nothing.
    for (const blank of ['', '   ', '\u200B', ' \u200B\u2060\uFEFF ', '\u200D', '\u3164\u3164', '\u2800', '\u0301', '\u115F\uFFA0']) {
      expect(messages(name, blank), JSON.stringify(blank)).toEqual(['Name is required']);
    }
  });
});

describe('requiredLine', () => {
  const subject = requiredLine('Subject', 200);

  it('refuses a line break or another control character', () => {
    for (const value of ['Hi\nBcc: someone@example.com', 'Hi\rthere', 'tab\there', 'bell\u0007', 'line\u2028break', 'para\u2029graph']) {
      expect(messages(subject, value), JSON.stringify(value)).toEqual(['Subject must be a single line of text']);
    }
    expect(subject.parse('Order TL-1001: wrong size')).toBe('Order TL-1001: wrong size');
  });
});

describe('optionalLine', () => {
  const phone = optionalLine('Phone', 40);

  it('takes a blank or absent value as empty, and refuses a line break like a required line', () => {
    expect(phone.parse(undefined)).toBe('');
    expect(phone.parse('  ')).toBe('');
    expect(phone.parse(' (512) 555-0100 ')).toBe('(512) 555-0100');
    expect(messages(phone, '1\n2')).toEqual(['Phone must be a single line of text']);
  });
});

describe('phone numbers', () => {
  const required = requiredPhone();
  const optional = optionalPhone();

  it('takes the ways people write a number: separators, a leading +, an extension', () => {
    for (const value of [
      '555-0100',
      '(512) 555-0100',
      '+44 20 7946 0958',
      '512.555.0100',
      '+1 (512) 555-0100 ext. 42',
      '5125550100x7',
      '030/1234567',
    ]) {
      expect(required.parse(` ${value} `), value).toBe(value);
      expect(optional.parse(value), value).toBe(value);
    }
    expect(optional.parse(undefined)).toBe('');
    expect(optional.parse(' ')).toBe('');
  });

  it('refuses what cannot be dialled, with one message each', () => {
    for (const value of [
      '📞📞📞📞📞📞📞',
      'call me',
      '555-01',
      '+1 512 555 0100 1234 5678',
      '555-0100 ask for Jo',
      '++1 555 0100',
      '５５５０１００1',
    ]) {
      expect(messages(required, value), value).toEqual([INVALID_PHONE]);
      expect(messages(optional, value), value).toEqual([INVALID_PHONE]);
    }
    expect(messages(required, ' ')).toEqual(['Phone is required']);
    expect(messages(optional, '555\n0100')).toEqual(['Phone must be a single line of text']);
    // Too long for the pattern to be tried: a long run of spaces would keep it busy for minutes.
    expect(messages(required, `1${' '.repeat(100_000)}a`)).toEqual(['Phone must be at most 40 characters']);
  });
});
