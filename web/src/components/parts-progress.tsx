/**
 * The QR codes of one prescription split over several (CHMED23A parts), read one at a time in
 * any order at the counter and in the patient view: how many are read ("2 of 4 read"), which are
 * still to read, and why a code does not fit those read so far.
 */
import { useRef, useState } from 'preact/hooks';
import { collectPart } from '../chmed/part-collector.js';
import type { Collected } from '../chmed/part-collector.js';
import type { PartsErrorReason } from '../../../src/chmed23a/parts-error.js';
import { useI18n } from '../i18n/i18n-context.js';
import type { MessageKey } from '../i18n/messages-en.js';

/** What the parts read so far show. */
export interface PartsState {
  readonly collected: Collected | undefined;
  readonly missing: readonly number[];
  readonly refusal:
    | { readonly reason: PartsErrorReason; readonly params: Readonly<Record<string, unknown>> }
    | undefined;
}

const EMPTY: PartsState = { collected: undefined, missing: [], refusal: undefined };

export interface PartCollector {
  readonly state: PartsState;
  /**
   * Reads one code's text: a part is kept until every part is read, then `onWhole` gets the
   * whole; anything else goes to `onWhole` at once. True when `onWhole` was called.
   */
  read(text: string): boolean;
  /** Forgets the parts read. */
  reset(): void;
}

/** Collects the parts of one document; `onWhole` gets what is read in one piece. */
export function usePartCollector(onWhole: (text: string) => void): PartCollector {
  const collected = useRef<Collected | undefined>(undefined);
  const [state, setState] = useState<PartsState>(EMPTY);
  const reset = (): void => {
    collected.current = undefined;
    setState(EMPTY);
  };
  const read = (text: string): boolean => {
    const result = collectPart(collected.current, text);
    switch (result.kind) {
      case 'one':
      case 'complete':
        reset();
        onWhole(result.text);
        return true;
      case 'partial':
        collected.current = result.collected;
        setState({ collected: result.collected, missing: result.missing, refusal: undefined });
        return false;
      case 'refused':
        collected.current = result.collected;
        setState((last) => ({
          collected: result.collected,
          missing: result.collected ? last.missing : [],
          refusal: { reason: result.reason, params: result.params },
        }));
        return false;
    }
  };
  return { state, read, reset };
}

/** `1, 3 and 4` in the page's language. */
function listed(numbers: readonly unknown[], and: string): string {
  const words = numbers.map(String);
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} ${and} ${words[words.length - 1]}`;
}

/** Shows the parts read so far, and the refusal of the last code when it did not fit. */
export function PartsProgress(props: { state: PartsState; onReset(): void }) {
  const { t } = useI18n();
  const { collected, missing, refusal } = props.state;
  if (collected === undefined && refusal === undefined) return null;
  const and = t('parts.and');
  const params = refusal && {
    ...refusal.params,
    missing: listed((refusal.params.missing as unknown[] | undefined) ?? [], and),
  };
  return (
    <div class="parts" data-parts-read={collected?.parts.size ?? 0}>
      {collected && (
        <p role="status">
          <strong>
            {t('parts.progress', { read: collected.parts.size, total: collected.total })}
          </strong>{' '}
          {t('parts.missing', { parts: listed(missing, and) })}
        </p>
      )}
      {refusal && params && (
        <p class="error" role="alert">
          {t(`parts.refused.${refusal.reason}` as MessageKey, params as Record<string, string>)}
        </p>
      )}
      <button type="button" onClick={props.onReset}>
        {t('parts.startOver')}
      </button>
    </div>
  );
}
