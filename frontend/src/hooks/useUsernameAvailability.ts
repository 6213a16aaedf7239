import { useEffect, useState } from 'react';
import { api } from '../lib/api.ts';
import {
  USERNAME_CHECK_DEBOUNCE_MS,
  shouldCheckUsername,
  usernameAvailabilityFrom,
  type UsernameAvailability,
} from '../lib/availability.ts';

/** Username availability in join mode: idle, checking 500 ms after typing stops, then available or unavailable. */
export function useUsernameAvailability(
  workspaceId: string | null,
  username: string,
  enabled: boolean,
): UsernameAvailability {
  const [state, setState] = useState<UsernameAvailability>({ state: 'idle' });
  useEffect(() => {
    const trimmed = username.trim();
    setState({ state: 'idle' });
    if (!enabled || !workspaceId || !shouldCheckUsername(trimmed)) return;
    const ctrl = new AbortController();
    const timer = setTimeout(async () => {
      setState({ state: 'checking' });
      const result = await api.checkUsername(workspaceId, trimmed, { signal: ctrl.signal, timeoutMs: 10_000 });
      const next = usernameAvailabilityFrom(result);
      if (next && !ctrl.signal.aborted) setState(next);
    }, USERNAME_CHECK_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      ctrl.abort();
    };
  }, [workspaceId, username, enabled]);
  return state;
}
