/** The anonymous verify answer for a link (SPEC.md §5: without a token, the short variant). */
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api/http.js';
import { verify } from '../api/prescriptions.js';
import type { VerifyResult } from '../api/types.js';

export type VerifyState =
  | { state: 'checking' }
  | { state: 'unknown' }
  | { state: 'unreachable' }
  | { state: 'answered'; result: VerifyResult };

/** Verifies `link` whenever it changes; undefined link ⇒ nothing is asked. */
export function useVerify(link: string | undefined): VerifyState {
  const [answer, setAnswer] = useState<VerifyState>({ state: 'checking' });
  useEffect(() => {
    if (link === undefined) return;
    let live = true;
    setAnswer({ state: 'checking' });
    verify(link).then(
      (result) => live && setAnswer({ state: 'answered', result }),
      (error: unknown) => {
        if (!live) return;
        const notFound = error instanceof ApiError && error.status === 404;
        setAnswer({ state: notFound ? 'unknown' : 'unreachable' });
      },
    );
    return () => {
      live = false;
    };
  }, [link]);
  return answer;
}
