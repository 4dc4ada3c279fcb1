/**
 * The event feed's cursors: opaque strings to a client, a feed position (`FeedStore.read`) to
 * erx. A cursor names the last position its reader has seen; reading after it gives everything
 * later. The version prefix lets the spelling change later without misreading old cursors.
 */
import { ErxError } from '../../errors.js';

const PREFIX = 'f1.';
/** Base 36 digits of a position: no sign, no leading zero (one spelling per position). */
const DIGITS = /^(?:0|[1-9a-z][0-9a-z]{0,10})$/;

/** The cursor of feed position `position` (a non-negative safe integer). */
export function formatCursor(position: number): string {
  return PREFIX + position.toString(36);
}

/**
 * The position a cursor names; anything that is not a cursor erx gave is a 400 naming `name`
 * (the query parameter `after`, or the `Last-Event-ID` header).
 */
export function parseCursor(text: string, name: string): number {
  const digits = text.startsWith(PREFIX) ? text.slice(PREFIX.length) : undefined;
  const position = digits !== undefined && DIGITS.test(digits) ? parseInt(digits, 36) : NaN;
  if (!Number.isSafeInteger(position)) {
    throw new ErxError('bad_request', `${name} is not a cursor of the event feed.`, {
      violations: [
        {
          path: `/${name}`,
          code: 'not_a_cursor',
          message: 'must be a cursor erx answered',
          params: {},
        },
      ],
    });
  }
  return position;
}
