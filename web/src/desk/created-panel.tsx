/**
 * A created prescription: its QR code large enough to scan from screen or paper (a CHMED23A link
 * too large for one code: every part's code, in order, "1 of N" under each), the link, PNG and
 * SVG downloads of a single code, printing (see the print rules in `app.css`; practice header and
 * signature line in `print-sheet.tsx`), and revocation.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { DocumentView } from '../chmed/document-view.js';
import { PrescriptionView } from '../components/prescription-view.js';
import { ProductNames } from '../components/product-names.js';
import { useI18n } from '../i18n/i18n-context.js';
import { renderQr } from '../qr/render.js';
import type { RenderedQr } from '../qr/render.js';
import { PrintHeader, PrintSignature } from './print-sheet.js';

export interface Created {
  id: string;
  link: string;
  /** The link's part links, in order, when it needs several QR codes (create's answer). */
  parts?: readonly string[] | undefined;
  doc: DocumentView;
}

function svgDataUrl(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

export function CreatedPanel(props: {
  created: Created;
  revoked: boolean;
  /** False for a fully dispensed prescription: nothing is left to revoke. */
  canRevoke: boolean;
  busy: boolean;
  onRevoke(): void;
  onNew(): void;
}) {
  const { t } = useI18n();
  const { id, link, parts } = props.created;
  // What each QR code holds: the link, or its parts in order.
  const codes = parts ?? [link];
  const [qrs, setQrs] = useState<readonly RenderedQr[] | undefined>(undefined);
  // Downloads are of one image: offered when the link is one code.
  const qr = codes.length === 1 ? qrs?.[0] : undefined;
  const [confirming, setConfirming] = useState(false);
  const [copied, setCopied] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const section = useRef<HTMLElement>(null);
  // Asked to confirm a revocation, focus goes to the safe choice: Enter must not revoke.
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) keep.current?.focus();
  }, [confirming]);
  // Focus moves to the result, so a screen reader announces it and Tab continues from here.
  useEffect(() => heading.current?.focus(), [id]);
  // Revoked from this panel, its buttons are gone: focus goes to the heading that says so. (From
  // the list, focus stays there.)
  useEffect(() => {
    const active = document.activeElement;
    const lost = active === null || active === document.body;
    if (props.revoked && (lost || section.current?.contains(active))) heading.current?.focus();
  }, [props.revoked]);

  useEffect(() => {
    let live = true;
    setQrs(undefined);
    void Promise.all(codes.map(renderQr)).then((rendered) => live && setQrs(rendered));
    return () => {
      live = false;
    };
  }, [link, parts]);

  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
    } catch {
      // Without clipboard access (plain http) the link stays selectable in its field.
      (document.getElementById('created-link') as HTMLTextAreaElement | null)?.select();
    }
  };

  return (
    <section
      class="created"
      aria-labelledby="created-title"
      data-prescription-id={id}
      data-revoked={props.revoked ? 'true' : 'false'}
      ref={section}
    >
      <h2 id="created-title" class="no-print" tabIndex={-1} ref={heading}>
        {t(props.revoked ? 'desk.createdRevoked' : 'desk.created')}
      </h2>
      {!props.revoked && <PrintHeader doc={props.created.doc} />}
      <div class="created-grid">
        <div class="qr-codes">
          {qrs &&
            !props.revoked &&
            qrs.length > 1 &&
            qrs.map((part, i) => (
              <figure class="qr qr-part" key={i}>
                <img
                  src={part.pngDataUrl}
                  alt={t('desk.qrPartAlt', { id, k: i + 1, n: qrs.length })}
                  width={440}
                  height={440}
                />
                <figcaption class="qr-part-number">
                  {t('desk.partOf', { k: i + 1, n: qrs.length })}
                </figcaption>
              </figure>
            ))}
          <figure class="qr">
            {qr && !props.revoked && (
              <img src={qr.pngDataUrl} alt={t('desk.qrAlt', { id })} width={440} height={440} />
            )}
            <figcaption>
              {t('doc.id')}
              {t('list.colon')}
              <code>{id}</code>
            </figcaption>
          </figure>
        </div>
        <div class="created-actions no-print">
          {props.revoked && (
            <p class="notice notice-bad" data-state="revoked">
              {t('list.noQr')}
            </p>
          )}
          {props.revoked && (
            // The patient view still opens: it says the prescription is revoked.
            <div class="actions">
              <a class="button" href={link} target="_blank" rel="noopener noreferrer">
                {t('desk.openPatient')}
              </a>
            </div>
          )}
          {/* A revoked prescription's QR code is neither shown, copied, downloaded nor printed. */}
          {!props.revoked && (
            <>
              <div class="field">
                <label for="created-link">{t('desk.link')}</label>
                <textarea id="created-link" readOnly rows={4} value={link} spellcheck={false} />
              </div>
              <div class="actions">
                <button type="button" onClick={() => void copy()}>
                  {t('desk.copy')}
                </button>
                {qr && (
                  <>
                    <a class="button" href={qr.pngDataUrl} download={`erx-${id}.png`}>
                      {t('desk.png')}
                    </a>
                    <a class="button" href={svgDataUrl(qr.svg)} download={`erx-${id}.svg`}>
                      {t('desk.svg')}
                    </a>
                  </>
                )}
                <button type="button" onClick={() => window.print()}>
                  {t('desk.print')}
                </button>
                <a class="button" href={link} target="_blank" rel="noopener noreferrer">
                  {t('desk.openPatient')}
                </a>
              </div>
              <p class="live" role="status">
                {copied ? t('desk.copied') : ''}
              </p>
            </>
          )}
          <div class="actions">
            {!props.revoked &&
              props.canRevoke &&
              (confirming ? (
                <div class="confirm" role="alertdialog" aria-labelledby="revoke-question">
                  <p id="revoke-question">{t('desk.revokeConfirm')}</p>
                  <div class="actions">
                    <button
                      type="button"
                      class="danger"
                      disabled={props.busy}
                      onClick={() => {
                        setConfirming(false);
                        props.onRevoke();
                      }}
                    >
                      {t('desk.revokeYes')}
                    </button>
                    <button type="button" ref={keep} onClick={() => setConfirming(false)}>
                      {t('desk.revokeNo')}
                    </button>
                  </div>
                </div>
              ) : (
                <button type="button" class="danger" onClick={() => setConfirming(true)}>
                  {t('desk.revoke')}
                </button>
              ))}
            <button type="button" class="primary" onClick={props.onNew}>
              {t('desk.new')}
            </button>
          </div>
        </div>
      </div>
      {!props.revoked && (
        <div class="print-only">
          <ProductNames medicaments={props.created.doc.medicaments}>
            <PrescriptionView doc={props.created.doc} />
          </ProductNames>
        </div>
      )}
      {!props.revoked && <PrintSignature doc={props.created.doc} />}
    </section>
  );
}
