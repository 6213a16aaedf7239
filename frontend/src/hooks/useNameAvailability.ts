import { useEffect, useState } from 'react';
import { api } from '../lib/api.ts';
import {
  NAME_CHECK_DEBOUNCE_MS,
  NAME_CHECK_TIMEOUT_MS,
  nameAvailabilityFrom,
  shouldCheckName,
  type NameAvailability,
} from '../lib/availability.ts';

/** Room-name availability: checked 1 s after typing stops, for 2+ characters, aborted after 8 s. */
export function useNameAvailability(name: string): NameAvailability {
  const [state, setState] = useState<NameAvailability>({ state: 'idle' });
  useEffect(() => {
    const trimmed = name.trim();
    setState({ state: 'idle' });
    if (!shouldCheckName(trimmed)) return;
    const ctrl = new AbortController();
    const timer = setTimeout(async () => {
      setState({ state: 'checking' });
      const result = await api.checkName(trimmed, { signal: ctrl.signal, timeoutMs: NAME_CHECK_TIMEOUT_MS });
      const next = nameAvailabilityFrom(result);
      if (next && !ctrl.signal.aborted) setState(next);
    }, NAME_CHECK_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      ctrl.abort();
    };
  }, [name]);
  return state;
}
