/** The S3-compatible test server (versitygw): deploy/local/versitygw.ts, shared with the local stack. */
export { startVersitygw, versitygwBinary, type S3Server } from '../../deploy/local/versitygw.ts';
