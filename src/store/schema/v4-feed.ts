/** Schema version 4: the event feed (`../migrations.ts`; never edited after release). */
import type { Migration } from './migration.js';

/** See the file comment. */
export const V4: Migration = {
  // The event feed: each event's place in commit order (`feed_seq`, 1, 2, 3, … without gaps)
  // and what the feed's visibility is decided from, copied out of the signed body when the event
  // is numbered (`actor`, `type`, and for a cancel the `event_data.EventId` it `cancels`). All
  // nullable, so that older instances, which insert events without them, run beside this schema:
  // SQLite numbers their rows by the trigger, PostgreSQL numbers every row after its commit
  // (`Store.sequenceFeed`). Existing rows are numbered here, each chain in its order. A body that
  // is not JSON (edited) is numbered with none of the copies: only its issuer sees it. No index
  // leads with `actor`: whether a pharmacist acted earlier on a prescription is read along its
  // chain (the primary key), and such an index would cost every append a random insert.
  version: 4,
  sqlite: `
      ALTER TABLE events ADD COLUMN feed_seq INTEGER;
      ALTER TABLE events ADD COLUMN actor TEXT;
      ALTER TABLE events ADD COLUMN type TEXT;
      ALTER TABLE events ADD COLUMN cancels TEXT;
      UPDATE events SET
        feed_seq = numbered.n,
        actor = CASE WHEN json_valid(body) THEN json_extract(body, '$.actor') END,
        type = CASE WHEN json_valid(body) THEN json_extract(body, '$.type') END,
        cancels = CASE WHEN json_valid(body) AND json_extract(body, '$.type') = 'cancel'
          THEN json_extract(body, '$.event_data.EventId') END
      FROM (SELECT rowid AS r, row_number() OVER (ORDER BY prescription_id, seq) AS n FROM events)
        AS numbered
      WHERE events.rowid = numbered.r;
      CREATE UNIQUE INDEX events_feed_seq ON events (feed_seq);
      CREATE INDEX events_cancels ON events (cancels) WHERE cancels IS NOT NULL;
      CREATE INDEX prescriptions_issuer ON prescriptions (issuer_actor, id);
      CREATE TRIGGER events_number_older AFTER INSERT ON events WHEN NEW.feed_seq IS NULL
      BEGIN
        UPDATE events SET
          feed_seq = (SELECT coalesce(max(feed_seq), 0) + 1 FROM events),
          actor = CASE WHEN json_valid(NEW.body) THEN json_extract(NEW.body, '$.actor') END,
          type = CASE WHEN json_valid(NEW.body) THEN json_extract(NEW.body, '$.type') END,
          cancels = CASE WHEN json_valid(NEW.body) AND json_extract(NEW.body, '$.type') = 'cancel'
            THEN json_extract(NEW.body, '$.event_data.EventId') END
        WHERE rowid = NEW.rowid;
      END;
    `,
  // erx_event_facts reads the copies out of a body, and none out of one that is not JSON
  // rather than failing the whole numbering.
  postgres: `
      ALTER TABLE events
        ADD COLUMN feed_seq bigint,
        ADD COLUMN actor text,
        ADD COLUMN type text,
        ADD COLUMN cancels text;
      CREATE FUNCTION erx_event_facts(body text, OUT actor text, OUT type text, OUT cancels text)
      LANGUAGE plpgsql IMMUTABLE AS $facts$
      BEGIN
        SELECT b ->> 'actor', b ->> 'type',
          CASE WHEN b ->> 'type' = 'cancel' THEN b -> 'event_data' ->> 'EventId' END
        INTO actor, type, cancels
        FROM (SELECT body::json AS b) AS parsed;
      EXCEPTION WHEN others THEN
        actor := NULL;
        type := NULL;
        cancels := NULL;
      END
      $facts$;
      UPDATE events e SET
        feed_seq = numbered.n, actor = numbered.actor, type = numbered.type,
        cancels = numbered.cancels
      FROM (
        SELECT ev.prescription_id, ev.seq, f.actor, f.type, f.cancels,
          row_number() OVER (ORDER BY ev.prescription_id, ev.seq) AS n
        FROM events ev, LATERAL erx_event_facts(ev.body) f
      ) AS numbered
      WHERE e.prescription_id = numbered.prescription_id AND e.seq = numbered.seq;
      ALTER TABLE events ADD CONSTRAINT events_feed_seq_key UNIQUE (feed_seq);
      CREATE INDEX events_cancels ON events (cancels) WHERE cancels IS NOT NULL;
      CREATE INDEX prescriptions_issuer ON prescriptions (issuer_actor, id);
    `,
};
