import { useMutation as useQueryMutation, type DefaultError, type UseMutationOptions, type UseMutationResult } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';

/**
 * TanStack Query's useMutation, except that a call made again while the same call (the same
 * variables) is still running joins it instead of being sent twice. A double click reaches the
 * handler twice before the re-render that disables its button: without this, a contact message
 * went out twice, and a membership was skipped and then told it was "already skipped". Different
 * calls (another row's toggle) still run side by side. eslint.config.js sends every import here.
 */
export function useMutation<TData = unknown, TError = DefaultError, TVariables = void, TContext = unknown>(
  options: UseMutationOptions<TData, TError, TVariables, TContext>,
): UseMutationResult<TData, TError, TVariables, TContext> {
  const mutation = useQueryMutation(options);
  const running = useRef(new Map<string, Promise<TData>>());
  const { mutateAsync: send } = mutation;
  const mutateAsync = useCallback(
    (...args: Parameters<typeof send>): Promise<TData> => {
      const call = JSON.stringify(args[0]) ?? '';
      const joined = running.current.get(call);
      if (joined) return joined;
      const sent = send(...args).finally(() => running.current.delete(call));
      running.current.set(call, sent);
      return sent;
    },
    [send],
  );
  const mutate = useCallback(
    (...args: Parameters<typeof send>) => {
      // A failure shows through the mutation's state and its onError, as TanStack's own mutate does.
      mutateAsync(...args).catch(() => undefined);
    },
    [mutateAsync],
  );
  return { ...mutation, mutate, mutateAsync };
}
