/**
 * The prescription of a link another service issued (SPEC.md §3 "Links erx did not issue"): who
 * issued it, that it cannot be verified here, and its content as the link carries it. It offers no
 * control: erx holds no record of it, so nothing can be dispensed, locked or cancelled on it here.
 */
import type { ComponentChildren } from 'preact';
import type { ForeignLink } from '../chmed/decode-link.js';
import type { DocumentView } from '../chmed/document-view.js';
import { useI18n } from '../i18n/i18n-context.js';
import { PrescriptionView } from './prescription-view.js';
import { ProductNames } from './product-names.js';

export function ForeignDocument(props: {
  foreign: ForeignLink;
  doc: DocumentView;
  /** What the place says of it beyond its heading (the counter's, the patient's words). */
  children?: ComponentChildren;
}) {
  const { t } = useI18n();
  const { host, issuer } = props.foreign;
  // This page's own address before another issuer's fields (a fragment pasted onto it) names no
  // other service: the heading then says only that this one did not issue it.
  const here = host === location.host;
  return (
    <section class="card foreign-document" data-foreign={host} aria-labelledby="foreign-title">
      <h2 id="foreign-title">{here ? t('foreign.titleHere') : t('foreign.title', { host })}</h2>
      {props.children}
      {issuer !== undefined && (
        <dl class="facts">
          <div class="row">
            <dt>{t('foreign.issuer')}</dt>
            <dd>{issuer}</dd>
          </div>
        </dl>
      )}
      <ProductNames medicaments={props.doc.medicaments}>
        <PrescriptionView doc={props.doc} />
      </ProductNames>
    </section>
  );
}
