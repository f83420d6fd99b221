import { describe, expect, it } from 'vitest';
import { addCycles, dayOfMonth, daysBetween, today } from '../../src/server/subscriptions/dates';

// The subscription calendar: cycles advance by the plan's interval and stay on the member's day.

describe('addCycles', () => {
  it('keeps the member on their day of the month, falling back to the last day of a shorter month', () => {
    const jan31 = '2027-01-31';
    const feb = addCycles(jan31, 'monthly', 1, 31);
    expect(feb).toBe('2027-02-28');
    // From February's short date the anchor brings March back to the 31st.
    expect(addCycles(feb, 'monthly', 1, 31)).toBe('2027-03-31');
    expect(addCycles('2027-03-31', 'monthly', 1, 31)).toBe('2027-04-30');
    expect(addCycles('2028-01-30', 'monthly', 1, 30)).toBe('2028-02-29');
  });

  it('advances quarterly by three months and yearly by twelve, across years', () => {
    expect(addCycles('2026-11-30', 'quarterly', 1, 30)).toBe('2027-02-28');
    expect(addCycles('2027-02-28', 'quarterly', 1, 30)).toBe('2027-05-30');
    expect(addCycles('2026-12-15', 'monthly', 1, 15)).toBe('2027-01-15');
    expect(addCycles('2028-02-29', 'yearly', 1, 29)).toBe('2029-02-28');
    expect(addCycles('2029-02-28', 'yearly', 1, 29)).toBe('2030-02-28');
    expect(addCycles('2028-02-29', 'yearly', 4, 29)).toBe('2032-02-29');
  });

  it('moves several cycles at once, as a pause of three cycles does', () => {
    expect(addCycles('2027-01-31', 'monthly', 3, 31)).toBe('2027-04-30');
    expect(addCycles('2027-01-31', 'monthly', 0, 31)).toBe('2027-01-31');
    // Back in time too, as an early resume looks for the member's next day.
    expect(addCycles('2027-03-31', 'monthly', -1, 31)).toBe('2027-02-28');
    expect(addCycles('2027-01-31', 'monthly', -1, 31)).toBe('2026-12-31');
  });

  it('refuses what is not a calendar day', () => {
    expect(() => addCycles('31/01/2027', 'monthly', 1, 31)).toThrow('Not a calendar day');
  });
});

describe('calendar helpers', () => {
  it('reads the day by the clock in UTC, counts days and the day of the month', () => {
    expect(today({ now: () => new Date('2027-03-01T23:59:59-05:00') })).toBe('2027-03-02');
    expect(daysBetween('2027-02-25', '2027-03-04')).toBe(7);
    expect(daysBetween('2027-03-04', '2027-02-25')).toBe(-7);
    expect(dayOfMonth('2027-03-04')).toBe(4);
  });
});
