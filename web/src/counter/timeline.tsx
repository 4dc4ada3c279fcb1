/**
 * The events of a prescription as a timeline (seed §2.5, SPEC.md §7), oldest first, with the
 * cancellation of one's own dispense events where the service says they are cancellable (asked
 * for confirmation first). A forced dispensation is marked as forced, with the rules it overrode
 * and its reason (SPEC.md §10 `event_data.overrides`).
 */
import { useState } from 'preact/hooks';
import { OVERRIDE_CODES } from '../../../src/ledger/event.js';
import type { EventType } from '../../../src/ledger/event.js';
import type { LedgerEvent, VerifyResult } from '../api/types.js';
import { idTypeLabel } from '../components/medicament-label.js';
import { MedicamentName } from '../components/product-names.js';
import { useI18n } from '../i18n/i18n-context.js';
import type { I18n } from '../i18n/i18n-context.js';
import type { MessageKey } from '../i18n/messages-en.js';
import type { OverrideRule } from './counter-state.js';
import { cancelledEventIds, fullDispensationItems } from './dispensed-amounts.js';
import { Feedback } from './feedback.js';
import { RULE_KEYS } from './force-confirm.js';
import { Modal } from './modal.js';
import type { StoredMedicament } from './stored-medicaments.js';
import type { Feedback as Answer } from './use-counter.js';

/** Each event kind's label: a new kind is a compile error until it is worded. */
const EVENT_KEYS: Readonly<Record<EventType, MessageKey>> = {
  create: 'event.create',
  partial_dispense: 'event.partial_dispense',
  full_dispense: 'event.full_dispense',
  revoke: 'event.revoke',
  cancel: 'event.cancel',
  lock: 'event.lock',
  unlock: 'event.unlock',
};

function typeLabel(type: EventType, t: I18n['t']): string {
  return t(EVENT_KEYS[type]);
}

function Details(props: {
  event: LedgerEvent;
  byId: ReadonlyMap<string, LedgerEvent>;
  /** What the event handed out, when it is a full dispensation without items of its own. */
  handed: readonly { id: string; amount: number }[] | undefined;
  idTypes: ReadonlyMap<string, number | undefined>;
}) {
  const { t, dateTime, number } = useI18n();
  const e = props.event;
  const items = e.dispenses && e.dispenses.length > 0 ? e.dispenses : props.handed;
  const reason = e.event_data.reason;
  const target = e.event_data.EventId;
  const cancelled = typeof target === 'string' ? props.byId.get(target) : undefined;
  const overrides = forcedRules(e);
  return (
    <>
      {overrides && (
        <p class="forced-rules" data-overrides={overrides.join(' ')}>
          {t('counter.forced.overrides', {
            rules: overrides.map((rule) => t(RULE_KEYS[rule])).join(', ') || '–',
          })}
        </p>
      )}
      {typeof reason === 'string' && reason !== '' && <p>{t('event.reason', { reason })}</p>}
      {cancelled && (
        <p>
          {t('event.cancels', {
            type: typeLabel(cancelled.type, t),
            time: dateTime(cancelled.timestamp),
          })}
        </p>
      )}
      {items && items.length > 0 && (
        <ul class="items">
          {items.map(
            (
              d: { id: string; amount: number; substitute?: string; substitute_id_type?: number },
              i,
            ) => (
              <li key={i} data-item={d.id} data-amount={d.amount}>
                {number(d.amount)} × <MedicamentName id={d.id} idType={props.idTypes.get(d.id)} />
                {d.substitute !== undefined &&
                  ` — ${t('event.substitute', {
                    id: d.substitute,
                    type: idTypeLabel(d.substitute_id_type, t),
                  })}`}
              </li>
            ),
          )}
        </ul>
      )}
      {items && items.length === 0 && <p class="items-none">{t('event.nothingMore')}</p>}
    </>
  );
}

/** The rules a forced event overrode, or undefined for an event that was not forced. */
function forcedRules(e: LedgerEvent): OverrideRule[] | undefined {
  if (e.event_data.force !== true) return undefined;
  const listed = e.event_data.overrides;
  const codes = Array.isArray(listed) ? listed : [];
  return OVERRIDE_CODES.filter((rule) => codes.includes(rule));
}

/** Asks before a dispensation is cancelled: its packages go back, and that cannot be undone. */
function CancelConfirm(props: {
  event: LedgerEvent;
  busy: boolean;
  onConfirm(): void;
  onAbort(): void;
}) {
  const { t, dateTime } = useI18n();
  // Cancelling a cancellation undoes it (SPEC.md §5): the question says so.
  const undo = props.event.type === 'cancel';
  return (
    <Modal
      labelledBy="cancel-title"
      describedBy="cancel-text"
      role="alertdialog"
      onClose={props.onAbort}
    >
      <h2 id="cancel-title">{t(undo ? 'counter.cancel.undoTitle' : 'counter.cancel.title')}</h2>
      <p id="cancel-text">
        {t(undo ? 'counter.cancel.undoText' : 'counter.cancel.text', {
          type: typeLabel(props.event.type, t),
          time: dateTime(props.event.timestamp),
        })}
      </p>
      <div class="actions">
        <button type="button" class="danger" disabled={props.busy} onClick={props.onConfirm}>
          {t('counter.cancel.yes')}
        </button>
        {/* The safe choice has focus: Enter on opening keeps the dispensation. */}
        <button type="button" disabled={props.busy} onClick={props.onAbort} autofocus>
          {t('counter.cancel.no')}
        </button>
      </div>
    </Modal>
  );
}

export function Timeline(props: {
  result: VerifyResult;
  /** The stored medicaments, for the names of what each dispensation handed out. */
  medicaments: readonly StoredMedicament[];
  /** The signed-in actor (`sub`); undefined when unknown, then the service decides. */
  me: string | undefined;
  busy: boolean;
  /** Why the service would refuse a cancel now, if it would. */
  cancelRefused: string | undefined;
  feedback: Answer | undefined;
  /** A dialog opens: earlier answers no longer apply. */
  onAsk(): void;
  onCancel(eventId: string): void;
}) {
  const { t, dateTime } = useI18n();
  const [asking, setAsking] = useState<LedgerEvent | undefined>(undefined);
  const events = props.result.events ?? [];
  const cancelled = cancelledEventIds(props.result);
  const byId = new Map(events.map((e) => [e.id, e]));
  const handed = fullDispensationItems(props.result);
  const idTypes = new Map(props.medicaments.map((m) => [m.id, m.idType]));
  return (
    <section class="card" aria-labelledby="timeline-title">
      <h2 id="timeline-title">{t('counter.timeline')}</h2>
      <ol class="timeline">
        {events.map((e) => {
          const isCancelled = cancelled.has(e.id);
          const forced = e.event_data.force === true;
          const mine = props.me === undefined || e.actor === props.me;
          return (
            <li
              key={e.id}
              class={`event event-${e.type}${isCancelled ? ' event-cancelled' : ''}${forced ? ' event-forced' : ''}`}
              data-event-type={e.type}
              data-event-id={e.id}
              data-cancelled={isCancelled ? 'true' : undefined}
              data-forced={forced ? 'true' : undefined}
            >
              <p class="event-head">
                <strong>{typeLabel(e.type, t)}</strong>
                {forced && <span class="badge badge-forced">{t('counter.forced.badge')}</span>}
                {isCancelled && <span class="badge">{t('event.cancelled')}</span>}
              </p>
              <p class="muted">
                <time dateTime={e.timestamp}>{dateTime(e.timestamp)}</time>
                {e.actor_name && ` · ${t('event.by', { name: e.actor_name })}`}
              </p>
              <Details event={e} byId={byId} handed={handed.get(e.id)} idTypes={idTypes} />
              {e.cancellable && mine && (
                <p class="action-with-reason">
                  <button
                    type="button"
                    class="small-button"
                    disabled={props.busy || props.cancelRefused !== undefined}
                    onClick={() => {
                      props.onAsk();
                      setAsking(e);
                    }}
                    aria-label={`${t('event.cancelAction')}: ${typeLabel(e.type, t)}, ${dateTime(e.timestamp)}`}
                  >
                    {t('event.cancelAction')}
                  </button>
                  {props.cancelRefused && <span class="why">{props.cancelRefused}</span>}
                </p>
              )}
            </li>
          );
        })}
      </ol>
      <Feedback place="timeline" feedback={props.feedback} />
      {asking && (
        <CancelConfirm
          event={asking}
          busy={props.busy}
          onConfirm={() => {
            setAsking(undefined);
            props.onCancel(asking.id);
          }}
          onAbort={() => setAsking(undefined)}
        />
      )}
    </section>
  );
}
