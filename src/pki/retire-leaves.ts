/**
 * Leaves that can no longer sign lose their private keys. A leaf signs events dated inside its
 * window, and erx never dates an event before now (nor before the chain's last event), so once
 * now has passed the window's end nothing needs the key; kept, a stolen copy could still sign
 * events dated inside that old window. The certificate stays, for audits.
 */
import type { PkiStorage } from './pki-storage.js';
import { x509 } from './x509.js';

/**
 * Whether a leaf valid until `notAfter` may sign an event dated `at`: not within `renewBeforeMs`
 * of its end, where the signer has already moved to the next leaf.
 */
export function canSignAt(notAfter: Date, at: number, renewBeforeMs: number): boolean {
  return at + renewBeforeMs <= notAfter.getTime();
}

/**
 * Deletes the private key of every stored leaf that can no longer sign at `now` (any root's);
 * returns their ids. Safe to repeat and to run in several instances over one storage at once.
 */
export async function retireEndedLeaves(
  storage: PkiStorage,
  now: number,
  renewBeforeMs: number,
): Promise<string[]> {
  const retired: string[] = [];
  for (const leaf of await storage.loadLeaves()) {
    const { notAfter } = new x509.X509Certificate(leaf.certificatePem);
    if (canSignAt(notAfter, now, renewBeforeMs)) continue;
    await storage.retireLeaf(leaf.id);
    retired.push(leaf.id);
  }
  return retired;
}
