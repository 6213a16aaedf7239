/**
 * Availability checks of the landing form (room name) and the join overlay (username), as pure mappings
 * from an HTTP answer to a display state (docs/product/rooms.md R4, R8).
 */
import { LIMITS } from '@ephemera/proto/client';
import type { CheckNameAnswer, CheckUsernameAnswer } from '@ephemera/proto';
import type { ApiResult } from './api.ts';

export const NAME_CHECK_DEBOUNCE_MS = 1000;
export const NAME_CHECK_TIMEOUT_MS = 8000;
export const USERNAME_CHECK_DEBOUNCE_MS = 500;

export const MSG_CHECK_TIMED_OUT = 'Check timed out';
export const MSG_CHECK_UNAVAILABLE = 'Unable to check availability';
export const MSG_USERNAME_CHECK_FAILED = 'Failed to check username';
export const MSG_USERNAME_NETWORK = 'Network error checking username';

export type NameAvailability =
  | { state: 'idle' }
  | { state: 'checking' }
  | { state: 'available'; message: string }
  | { state: 'taken'; message: string }
  | { state: 'unknown'; message: string };

export type UsernameAvailability =
  | { state: 'idle' }
  | { state: 'checking' }
  | { state: 'available'; message: string }
  | { state: 'unavailable'; message: string };

/** The name check runs only for names of 2 or more characters (after trimming). */
export function shouldCheckName(name: string): boolean {
  return name.trim().length >= LIMITS.roomNameCheckMin;
}

export function shouldCheckUsername(username: string): boolean {
  return username.trim().length >= LIMITS.usernameMin;
}

export function nameAvailabilityFrom(result: ApiResult<CheckNameAnswer>): NameAvailability | null {
  if (result.ok) {
    return result.data.available
      ? { state: 'available', message: result.data.message || 'Available!' }
      : { state: 'taken', message: result.data.message || 'Room name is already taken' };
  }
  switch (result.kind) {
    case 'aborted':
      return null; // superseded by a newer check
    case 'timeout':
      return { state: 'unknown', message: MSG_CHECK_TIMED_OUT };
    case 'network':
      return { state: 'unknown', message: MSG_CHECK_UNAVAILABLE };
    case 'http':
      // a refused name (invalid characters, reserved, taken) cannot be created: show the server's reason
      if (result.message && (result.status === 400 || result.status === 409 || result.status === 422)) {
        return { state: 'taken', message: result.message };
      }
      return { state: 'unknown', message: `${MSG_CHECK_UNAVAILABLE} (HTTP error ${result.status})` };
  }
}

export function usernameAvailabilityFrom(result: ApiResult<CheckUsernameAnswer>): UsernameAvailability | null {
  if (result.ok) {
    return result.data.available
      ? { state: 'available', message: result.data.message || 'Username is available' }
      : { state: 'unavailable', message: result.data.message || 'Username is already taken' };
  }
  switch (result.kind) {
    case 'aborted':
      return null;
    case 'http':
      return { state: 'unavailable', message: result.message || MSG_USERNAME_CHECK_FAILED };
    case 'network':
    case 'timeout':
      return { state: 'unavailable', message: MSG_USERNAME_NETWORK };
  }
}

export function canCreateRoom(a: NameAvailability): boolean {
  return a.state === 'available';
}
