/**
 * What an action answered, shown next to the button pressed and announced: a confirmation as a
 * polite status, a refusal as an alert, scrolled into view and focused. The region stays in the page while empty, so a screen
 * reader has it registered before the first answer arrives.
 */
import { useEffect, useRef } from 'preact/hooks';
import type { Feedback as Answer, Place } from './use-counter.js';

export function Feedback(props: {
  place: Place;
  feedback: Answer | undefined;
  /** Move focus to a confirmation when it arrives (the result of the action). */
  focus?: boolean;
}) {
  const shown = props.feedback?.place === props.place ? props.feedback : undefined;
  const ok = useRef<HTMLParagraphElement>(null);
  const bad = useRef<HTMLParagraphElement>(null);
  // A refusal (an ended session among them) is brought to where the person is, wherever it was
  // asked from: scrolled into view and focused.
  useEffect(() => {
    if (shown === undefined) return;
    if (shown.kind === 'ok' && props.focus !== true) return;
    const target = (shown.kind === 'ok' ? ok : bad).current;
    target?.scrollIntoView({ block: 'center' });
    target?.focus();
  }, [shown?.seq]);
  return (
    <div class="feedback" data-feedback={props.place}>
      <p class="live" role="status" tabIndex={-1} ref={ok}>
        {shown?.kind === 'ok' ? shown.text : ''}
      </p>
      <p class={shown?.kind === 'error' ? 'error' : 'live'} role="alert" tabIndex={-1} ref={bad}>
        {shown?.kind === 'error' ? shown.text : ''}
      </p>
    </div>
  );
}
