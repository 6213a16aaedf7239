/**
 * The browser's entry to the contracts: constants and plain functions only, no zod (the schemas stay on the server;
 * zod would add ~25 KB gzipped to the initial JavaScript). Types come from '@ephemera/proto' with `import type`,
 * which is erased. test: proto/test/client-entry.test.ts checks that nothing reachable from here imports zod.
 */
export * from './limits.ts';
export * from './names.ts';
export * from './paths.ts';
export * from './account-paths.ts';
export * from './tiers.ts';
export * from './plans.ts';
export * from './payment-paths.ts';
export * from './contact-paths.ts';
export { ERRORS, DomainError, statusFor } from './errors.ts';
export * from './admin-paths.ts';
export * from './links.ts';
export * from './markdown.ts';
export * from './mentions.ts';
export * from './service-texts.ts';
