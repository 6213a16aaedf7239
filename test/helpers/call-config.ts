/** The call settings of the test targets (embedded target, distributed stack), read by the calls suite. */
/** Ring for this long instead of the spec's 30 s, so the unanswered-call test is quick. */
export const CALL_TEST_RING_TIMEOUT_MS = 3000;
/** A TURN entry signed with this secret, so the suite can check the credential's form. */
export const CALL_TEST_ICE = {
  stunUrls: ['stun:127.0.0.1:3478'],
  turnUrls: ['turn:127.0.0.1:3478?transport=udp'],
  turnSecret: 'test-turn-secret',
  turnCredentialTtlSeconds: 600,
};
