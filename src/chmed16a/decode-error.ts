/**
 * The typed refusal of a ChTransmissionFormat string (SPEC.md §9).
 */
import { reasonedError } from '../errors.js';

/** Why a ChTransmissionFormat string (CHMED16A or CHMED23A) was refused. */
export type DocumentDecodeReason =
  | 'bad_prefix'
  | 'bad_base64'
  | 'bad_gzip'
  | 'trailing_data'
  | 'too_large'
  | 'bad_utf8'
  | 'bad_json'
  | 'too_deep'
  | 'forbidden_key'
  | 'not_object';

const MESSAGES: Readonly<Record<DocumentDecodeReason, string>> = {
  bad_prefix: 'The prescription data does not start with CHMED16A0, CHMED16A1 or CHMED23A.',
  bad_base64: 'The prescription data is not valid base64',
  bad_gzip: 'The prescription data is not a valid gzip stream',
  trailing_data: 'The prescription data has bytes after its gzip stream',
  too_large: 'The prescription document is larger than 256 KiB',
  bad_utf8: 'The prescription document is not valid UTF-8',
  bad_json: 'The prescription document is not valid JSON',
  too_deep: 'The prescription document is nested more than 32 levels deep',
  forbidden_key: 'The prescription document contains a forbidden key (__proto__ or constructor)',
  not_object: 'The prescription document is not a JSON object',
};

/** A refused CHMED16A string (or a document too large to encode); always `bad_request`. */
export class DocumentDecodeError extends reasonedError<DocumentDecodeReason>(
  'bad_request',
  MESSAGES,
) {}
