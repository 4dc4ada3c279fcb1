/**
 * The events of a prescription as a timeline (seed §2.5, SPEC.md §7), oldest first, with the
 * cancellation of one's own dispense events where the service says they are cancellable.
 */
import type { LedgerEvent, VerifyResult } from '../api/types.js';
import { idTypeLabel } from '../components/medicament-label.js';
import { useI18n } from '../i18n/i18n-context.js';
import type { I18n } from '../i18n/i18n-context.js';
import type { MessageKey } from '../i18n/messages-en.js';
import { cancelledEventIds } from './dispensed-amounts.js';

const EVENT_KEYS: Readonly<Record<string, MessageKey>> = {
  create: 'event.create',
  partial_dispense: 'event.partial_dispense',
  full_dispense: 'event.full_dispense',
  revoke: 'event.revoke',
  cancel: 'event.cancel',
  lock: 'event.lock',
  unlock: 'event.unlock',
};

function typeLabel(type: string, t: I18n['t']): string {
  const key = EVENT_KEYS[type];
  return key === undefined ? type : t(key);
}

function Details(props: { event: LedgerEvent; byId: ReadonlyMap<string, LedgerEvent> }) {
  const { t, dateTime, number } = useI18n();
  const e = props.event;
  const reason = e.event_data.reason;
  const target = e.event_data.EventId;
  const cancelled = typeof target === 'string' ? props.byId.get(target) : undefined;
  return (
    <>
      {typeof reason === 'string' && reason !== '' && <p>{t('event.reason', { reason })}</p>}
      {cancelled && (
        <p>
          {t('event.cancels', {
            type: typeLabel(cancelled.type, t),
            time: dateTime(cancelled.timestamp),
          })}
        </p>
      )}
      {e.dispenses && e.dispenses.length > 0 && (
        <ul class="items">
          {e.dispenses.map((d, i) => (
            <li key={i}>
              {t('event.item', { amount: number(d.amount), id: d.id })}
              {d.substitute !== undefined &&
                ` — ${t('event.substitute', {
                  id: d.substitute,
                  type: idTypeLabel(d.substitute_id_type, t),
                })}`}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

export function Timeline(props: {
  result: VerifyResult;
  /** The signed-in actor (`sub`); undefined when unknown, then the service decides. */
  me: string | undefined;
  busy: boolean;
  onCancel(eventId: string): void;
}) {
  const { t, dateTime } = useI18n();
  const events = props.result.events ?? [];
  const cancelled = cancelledEventIds(props.result);
  const byId = new Map(events.map((e) => [e.id, e]));
  return (
    <section class="card" aria-labelledby="timeline-title">
      <h2 id="timeline-title">{t('counter.timeline')}</h2>
      <ol class="timeline">
        {events.map((e) => {
          const isCancelled = cancelled.has(e.id);
          const mine = props.me === undefined || e.actor === props.me;
          return (
            <li
              key={e.id}
              class={`event event-${e.type}${isCancelled ? ' event-cancelled' : ''}`}
              data-event-type={e.type}
              data-event-id={e.id}
              data-cancelled={isCancelled ? 'true' : undefined}
            >
              <p class="event-head">
                <strong>{typeLabel(e.type, t)}</strong>
                {isCancelled && <span class="badge">{t('event.cancelled')}</span>}
              </p>
              <p class="muted">
                <time dateTime={e.timestamp}>{dateTime(e.timestamp)}</time>
                {e.actor_name && ` · ${t('event.by', { name: e.actor_name })}`}
              </p>
              <Details event={e} byId={byId} />
              {e.cancellable && mine && (
                <button
                  type="button"
                  class="small-button"
                  disabled={props.busy}
                  onClick={() => props.onCancel(e.id)}
                  aria-label={`${t('event.cancelAction')}: ${typeLabel(e.type, t)}, ${dateTime(e.timestamp)}`}
                >
                  {t('event.cancelAction')}
                </button>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
