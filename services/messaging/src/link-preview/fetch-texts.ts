/**
 * The link-preview fetcher's refusals (docs/link-previews.md): their errors and their words, for a page (the preview)
 * and for an image (the image proxy). Apart from the fetcher (fetcher.ts) so that the words read as one list.
 */
import { DomainError } from '@ephemera/proto';

export const blocked = (message: string) => new DomainError('LINK_PREVIEW_BLOCKED', message);
export const failed = (message: string) => new DomainError('LINK_PREVIEW_FAILED', message);
export const BLOCKED_ADDRESS = 'Links to local or private network addresses cannot be previewed';
export const BLOCKED_SCHEME = 'Only http and https links can be previewed';
export const BLOCKED_PORT = 'Only links on the standard web ports (80 and 443) can be previewed';

/** The words of the refusals: a page (the preview) or an image (the image proxy). */
export interface Texts {
  blockedAddress: string;
  blockedScheme: string;
  blockedPort: string;
  noLocation: string;
  badLocation: string;
  tooManyRedirects: (n: number) => string;
  status: (s: number) => string;
  wrongType: string;
  tooLarge: (max: number) => string;
  encoding: string;
  unreadable: string;
  slow: string;
  notFound: string;
  tls: string;
  connect: string;
}
export const PAGE_TEXTS: Texts = {
  blockedAddress: BLOCKED_ADDRESS,
  blockedScheme: BLOCKED_SCHEME,
  blockedPort: BLOCKED_PORT,
  noLocation: 'The page redirects without saying where',
  badLocation: 'The page redirects to an invalid address',
  tooManyRedirects: (n) => `The link redirects more than ${n} times`,
  status: (s) => `The page answered with an error (${s})`,
  wrongType: 'The link does not point to a web page',
  tooLarge: () => 'The page is too large',
  encoding: 'The page uses an unsupported encoding',
  unreadable: 'The page could not be read',
  slow: 'The page took too long to answer',
  notFound: 'The address could not be found',
  tls: "The page's secure connection could not be verified",
  connect: 'Could not connect to the page',
};
export const IMAGE_BLOCKED_ADDRESS = 'Images on local or private network addresses are not served';
export const IMAGE_NOT_AN_IMAGE = 'The address does not point to an image';
export const IMAGE_TEXTS: Texts = {
  blockedAddress: IMAGE_BLOCKED_ADDRESS,
  blockedScheme: 'Only http and https images are served',
  blockedPort: 'Only images on the standard web ports (80 and 443) are served',
  noLocation: 'The image redirects without saying where',
  badLocation: 'The image redirects to an invalid address',
  tooManyRedirects: (n) => `The image redirects more than ${n} times`,
  status: (s) => `The image server answered with an error (${s})`,
  wrongType: IMAGE_NOT_AN_IMAGE,
  tooLarge: (max) => `The image is too large (${Math.round(max / 1024 / 1024)} MB max)`,
  encoding: 'The image uses an unsupported encoding',
  unreadable: 'The image could not be read',
  slow: 'The image took too long to load',
  notFound: "The image's address could not be found",
  tls: "The image server's secure connection could not be verified",
  connect: 'Could not connect to the image server',
};
