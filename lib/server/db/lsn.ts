/**
 * PostgreSQL write-ahead-log positions ("16/B374D848": two hex halves of a
 * 64-bit byte offset) as bigints, for comparing a replica's replay position
 * with the position a write committed at.
 */
const LSN = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/;

/** The position, or null when `text` is not an LSN (an untrusted header or cookie). */
export function parseLsn(text: string | null | undefined): bigint | null {
  const match = LSN.exec(text?.trim() ?? "");
  if (!match) return null;
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

export function formatLsn(lsn: bigint): string {
  return `${(lsn >> 32n).toString(16).toUpperCase()}/${(lsn & 0xffffffffn).toString(16).toUpperCase()}`;
}
