/** Every violation of a refused document, each a link that moves focus to its field. */
import { useEffect, useRef } from 'preact/hooks';
import { useI18n } from '../i18n/i18n-context.js';
import { labelFor } from './field-labels.js';
import { controlId } from './violations.js';
import type { Violations } from './violations.js';

export function ViolationSummary(props: { violations: Violations }) {
  const { t } = useI18n();
  const box = useRef<HTMLDivElement>(null);
  // Focus moves here after a refused create, so the list is read out first.
  // A change of language rewords the list but does not move focus: only a new answer does.
  useEffect(() => box.current?.focus(), [props.violations.all]);
  if (props.violations.empty) return null;
  return (
    <div class="violations" role="alert" tabIndex={-1} ref={box}>
      <p>{t('desk.violations')}</p>
      <ul>
        {props.violations.all.map((v, i) => (
          <li key={i}>
            <a
              href={`#${controlId(v.path)}`}
              onClick={(event) => {
                // The staff screens route by fragment: move focus without changing it.
                event.preventDefault();
                document.getElementById(controlId(v.path))?.focus();
              }}
            >
              {labelFor(v.path, t)}
            </a>
            {t('list.colon')}
            {props.violations.word(v)}
          </li>
        ))}
      </ul>
    </div>
  );
}
