/**
 * Opening a signed checkpoint under a trust policy: the log's key must have signed it, every
 * known signature must verify, the origin must be the log's, and at least `minCosignatures` of
 * the trusted witnesses must have cosigned it (c2sp.org/tlog-checkpoint, tlog-cosignature).
 */
import type { Checkpoint } from './checkpoint.js';
import { parseCheckpoint } from './checkpoint.js';
import { openNote } from './note.js';
import type { NoteVerifier, OpenedNote } from './note.js';
import { TlogError } from './tlog-error.js';

/** Whom a checkpoint must come from. */
export interface CheckpointPolicy {
  /** The log's origin line. */
  origin: string;
  /** The log's keys (one of them must have signed; more while a key is being rotated). */
  log: readonly NoteVerifier[];
  /** Trusted witnesses (cosigners); their signatures are verified when present. */
  witnesses?: readonly NoteVerifier[];
  /** How many distinct witnesses must have cosigned (default 0). */
  minCosignatures?: number;
}

/** A checkpoint that passed its policy. */
export interface OpenedCheckpoint {
  checkpoint: Checkpoint;
  note: OpenedNote;
  /** Names of the trusted witnesses whose cosignatures verified. */
  cosignedBy: string[];
}

/** Verifies `note` under `policy`; throws a {@link TlogError} saying what failed. */
export function openCheckpoint(note: string, policy: CheckpointPolicy): OpenedCheckpoint {
  const witnesses = policy.witnesses ?? [];
  const opened = openNote(note, [...policy.log, ...witnesses]);
  const by = (list: readonly NoteVerifier[]) =>
    opened.verified.filter((s) => list.some((v) => v.name === s.name && v.keyId === s.keyId));
  if (by(policy.log).length === 0) throw new TlogError('unverified_note', 'no log signature');
  const checkpoint = parseCheckpoint(opened.text);
  if (checkpoint.origin !== policy.origin) throw new TlogError('wrong_origin', checkpoint.origin);
  const cosignedBy = [...new Set(by(witnesses).map((s) => s.name))];
  if (cosignedBy.length < (policy.minCosignatures ?? 0)) {
    throw new TlogError('too_few_cosignatures', `${cosignedBy.length} cosignatures`);
  }
  return { checkpoint, note: opened, cosignedBy };
}
