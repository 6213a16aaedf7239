/** A room command's answer to its dialog, shared by the command files (its own file so they import it without a cycle). */
export type Result<T = object> = ({ ok: true } & T) | { ok: false; message: string };

export const fail = (message: string): { ok: false; message: string } => ({ ok: false, message });
