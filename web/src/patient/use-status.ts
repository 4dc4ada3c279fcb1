/**
 * The status of the page's link (SPEC.md §10 "Who sees what": a genuine link's holder learns the
 * validity end and the packages left), asked again when the person asks to check again.
 */
import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api/http.js';
import { status } from '../api/prescriptions.js';
import type { StatusResult } from '../api/types.js';

export type StatusState =
  | { state: 'checking' }
  | { state: 'unknown' }
  | { state: 'unreachable' }
  | { state: 'answered'; result: StatusResult };

/** The status of `link` and a way to ask again; undefined link ⇒ nothing is asked. */
export function useStatus(link: string | undefined): {
  answer: StatusState;
  retry: () => void;
} {
  const [answer, setAnswer] = useState<StatusState>({ state: 'checking' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (link === undefined) return;
    let live = true;
    setAnswer({ state: 'checking' });
    status(link).then(
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
  }, [link, attempt]);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { answer, retry };
}
