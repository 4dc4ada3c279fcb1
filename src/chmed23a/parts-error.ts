/**
 * The refusal of a set of CHMED23A parts that do not make one document: it names the parts
 * (which are missing, which came twice), so the one who scanned them knows which code to scan.
 */
import { ErxError } from '../errors.js';

/** Why the parts do not make one document. */
export type PartsErrorReason =
  | 'too_many_parts'
  | 'part_out_of_range'
  | 'mixed_parts'
  | 'inconsistent_parts'
  | 'different_links'
  | 'duplicate_part'
  | 'missing_parts';

/** `1, 3 and 4`: numbers in order, for a message. */
function listed(numbers: readonly number[]): string {
  if (numbers.length === 1) return String(numbers[0]);
  return `${numbers.slice(0, -1).join(', ')} and ${numbers[numbers.length - 1]}`;
}

/** A set of parts refused; always `bad_request`, with the numbers in `params`. */
export class PartsError extends ErxError {
  readonly reason: PartsErrorReason;

  private constructor(
    reason: PartsErrorReason,
    message: string,
    params: Record<string, number | number[]>,
  ) {
    super('bad_request', message, { params });
    this.reason = reason;
  }

  /** More parts than a document may have (`max`). */
  static tooMany(max: number): PartsError {
    return new PartsError('too_many_parts', `A CHMED23A document has at most ${max} parts.`, {
      max,
    });
  }

  /** A part numbered beyond its own total. */
  static outOfRange(index: number, total: number): PartsError {
    return new PartsError(
      'part_out_of_range',
      `Part ${index} of ${total} cannot exist: a part's number is at most the total.`,
      { index, total },
    );
  }

  /** A document in one piece (CHMED16A, or CHMED23A without a part number) given with others. */
  static mixed(): PartsError {
    return new PartsError(
      'mixed_parts',
      'Only numbered CHMED23A parts are read together: a document in one piece came with others.',
      {},
    );
  }

  /** Parts that say different totals or sub-versions: they belong to different documents. */
  static inconsistent(totals: readonly number[]): PartsError {
    const message =
      totals.length > 1
        ? `The parts belong to different documents: they say ${listed(totals)} parts in all.`
        : 'The parts belong to different documents: their CHMED23 versions differ.';
    return new PartsError('inconsistent_parts', message, { totals: [...totals] });
  }

  /** Parts of signed links whose address, issuer, time or signature differ. */
  static differentLinks(): PartsError {
    return new PartsError(
      'different_links',
      'The parts belong to different prescriptions: their links differ after the document.',
      {},
    );
  }

  /** The same part given twice. */
  static duplicate(index: number, total: number): PartsError {
    return new PartsError('duplicate_part', `Part ${index} of ${total} was given more than once.`, {
      index,
      total,
    });
  }

  /** Parts not given. */
  static missing(missing: readonly number[], total: number): PartsError {
    const what = missing.length === 1 ? 'Part' : 'Parts';
    return new PartsError(
      'missing_parts',
      `${what} ${listed(missing)} of ${total} ${missing.length === 1 ? 'is' : 'are'} missing.`,
      { missing: [...missing], total },
    );
  }
}
