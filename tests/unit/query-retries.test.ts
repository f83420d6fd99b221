import { TRPCClientError } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../../src/client/trpc';

// When a failed read is tried again: once in the browser unless the server refused it, never
// while a page renders on the server (React Query would wait a second first).

const failure = (httpStatus: number) =>
  TRPCClientError.from({ error: { code: -32600, message: 'failed', data: { code: 'X', httpStatus } } });

async function callsUntilGivenUp(renders: 'in-browser' | 'on-server', error: Error) {
  let calls = 0;
  const queryFn = () => {
    calls++;
    throw error;
  };
  await createQueryClient(renders)
    .fetchQuery({ queryKey: ['read'], queryFn, retryDelay: 0 })
    .catch(() => undefined);
  return calls;
}

describe('query retries', () => {
  it('tries a failed read once more in the browser, but not a refused one', async () => {
    expect(await callsUntilGivenUp('in-browser', failure(500))).toBe(2);
    expect(await callsUntilGivenUp('in-browser', new TypeError('Failed to fetch'))).toBe(2);
    expect(await callsUntilGivenUp('in-browser', failure(400))).toBe(1);
    expect(await callsUntilGivenUp('in-browser', failure(404))).toBe(1);
  });

  it('does not try again while rendering on the server', async () => {
    expect(await callsUntilGivenUp('on-server', failure(500))).toBe(1);
  });
});
