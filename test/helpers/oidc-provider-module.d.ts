// oidc-provider ships no type declarations; the test helper uses a handful of its calls (helpers/oidc-provider.ts).
declare module 'oidc-provider';
