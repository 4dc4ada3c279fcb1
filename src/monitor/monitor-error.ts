/**
 * What `erx log monitor` finds wrong: the log misbehaving (a fork, a rollback, tiles or entries
 * that do not match its signed checkpoint) is `conflict`; a state file or key that cannot be used is
 * `bad_request`; a log that cannot be reached is `service_unavailable`.
 */
import type { ErrorCode } from '../errors.js';
import { ReasonedError } from '../errors.js';

/** Why a monitor run failed. */
export type MonitorReason =
  /** Same size, another root; or the old tree is not a prefix of the new one. */
  | 'fork'
  /** The new checkpoint's tree is smaller than the one seen before. */
  | 'rollback'
  /** The served tiles do not hash to the signed root (a rewritten hash or leaf). */
  | 'inconsistent_tiles'
  /** An entry bundle does not hash to its leaves in the verified tiles (a rewritten entry). */
  | 'rewritten_entry'
  /** Two different leaves for one place of one chain (rewritten, re-positioned or truncated). */
  | 'forked_chain'
  /** The checkpoint's signature does not verify with the trusted key. */
  | 'bad_checkpoint'
  /** The state file or the key given is malformed. */
  | 'bad_state'
  /** The log could not be fetched, or answered something other than its resources. */
  | 'unreachable'
  /** SIGINT or SIGTERM ended the run; the state is the one of the last complete run. */
  | 'interrupted';

const MESSAGES: Record<MonitorReason, string> = {
  fork: 'The log forked: the new checkpoint does not extend the tree seen before.',
  rollback: 'The log rolled back: the new checkpoint’s tree is smaller than the one seen before.',
  inconsistent_tiles:
    'The log’s tiles do not match its signed checkpoint: a leaf or hash was rewritten.',
  rewritten_entry: 'An entry the log serves does not hash to its leaf: the entry was rewritten.',
  forked_chain:
    'The log holds two different leaves for one place of one chain: the chain was rewritten or truncated.',
  bad_checkpoint: 'The checkpoint is not signed by the log’s key.',
  bad_state: 'The state file or the log key is malformed.',
  unreachable: 'The log could not be read.',
  interrupted: 'The run was stopped by a signal; the state file was left as it was.',
};

const CODES: Record<MonitorReason, ErrorCode> = {
  fork: 'conflict',
  rollback: 'conflict',
  inconsistent_tiles: 'conflict',
  rewritten_entry: 'conflict',
  forked_chain: 'conflict',
  bad_checkpoint: 'conflict',
  bad_state: 'bad_request',
  unreachable: 'service_unavailable',
  interrupted: 'service_unavailable',
};

/** A failed monitor run with a typed `reason`; `detail` says exactly what, sizes included. */
export class MonitorError extends ReasonedError<MonitorReason> {
  constructor(reason: MonitorReason, detail?: string) {
    super(CODES[reason], reason, MESSAGES, { causeCode: `monitor_${reason}`, detail });
  }
}
