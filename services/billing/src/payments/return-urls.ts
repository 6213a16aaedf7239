/**
 * Where the provider's pages send the payer back (docs/product/security.md: no open redirect): a path of this site or
 * an absolute address on its origin, never a request's Origin or Host. The payment calls (service.ts) build every
 * return link through these.
 */
import { DomainError, SERVICE_TEXTS } from '@ephemera/proto';

/** The origin every return link must be on (PaymentsDeps.siteUrl); none configured: PAYMENTS_NOT_CONFIGURED. */
export function siteOrigin(siteUrl: string | null): string {
  if (!siteUrl) throw new DomainError('PAYMENTS_NOT_CONFIGURED');
  return new URL(siteUrl).origin;
}

/** A path of this site, or an absolute address on its origin; anything else is refused (no open redirect). */
export function returnUrlOn(given: string | undefined, fallback: string, base: string): string {
  const wanted = given ?? fallback;
  if (wanted.startsWith('//') || wanted.startsWith('/\\'))
    throw new DomainError('VALIDATION', SERVICE_TEXTS.returnAddressOffSite);
  let url: URL;
  try {
    url = new URL(wanted, base);
  } catch {
    throw new DomainError('VALIDATION', SERVICE_TEXTS.returnAddressOffSite);
  }
  if (url.origin !== base) throw new DomainError('VALIDATION', SERVICE_TEXTS.returnAddressOffSite);
  return url.href;
}

/** The provider puts the session id in the success address (Stripe: {CHECKOUT_SESSION_ID}, unencoded). */
export function withSessionId(url: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}session_id={CHECKOUT_SESSION_ID}`;
}
