/**
 * The types of erx’s HTTP interface, generated from its OpenAPI document (`/openapi.json`) by
 * `npm run build` (scripts/client-types.ts). Do not edit: change the route schemas instead.
 */
export type paths = {
  '/healthz': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Liveness */
    get: operations['checkHealth'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/readyz': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Readiness: store and keys */
    get: operations['checkReadiness'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/REST/v1/OAuth/token': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Issue an access token (OAuth 2.0 client credentials) */
    post: operations['requestToken'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/REST/v1/OAuth/GetTokenInfo': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Token check (seed 4.3): is this token active, and whose is it */
    post: operations['introspectToken'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ePrescription/create': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create a signed prescription link (JSON data, PNG or SVG QR code) */
    post: operations['createPrescription'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ePrescription/verify': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Verify a prescription link; with a bearer token, the variant with transactions */
    post: operations['verifyPrescription'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ePrescription/status': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** The status of a prescription for the holder of its link: validity end and packages left for a genuine link, else the anonymous verify answer */
    post: operations['readPrescriptionStatus'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ePrescription/dispense/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Record a full (no body), partial, substitute or forced dispensation */
    post: operations['dispensePrescription'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ePrescription/revoke/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Revoke a prescription (its issuer only; final) */
    post: operations['revokePrescription'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ePrescription/cancel/{id}/event/{eventId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Cancel one's own dispense event */
    post: operations['cancelEvent'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ePrescription/lock/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Lock a prescription while serving the patient (lapses after ERX_LOCK_TTL) */
    post: operations['lockPrescription'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ePrescription/unlock/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Unlock a prescription (the locking actor or the issuer) */
    post: operations['unlockPrescription'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ePrescription/events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The events the caller may see, in commit order, after a cursor (one page)
     * @description A prescriber sees every event of the prescriptions it issued; a pharmacist its own events and the dispense, lock, unlock, cancel and revoke events of others on prescriptions it had acted on before. Events are shown as verify shows them. Each event is served only when its signature verifies and who sees it follows from signed events; verify checks whole chains. Store `next` and pass it as `after` on the next call: a client that does so never misses and never repeats an event, however many instances append.
     */
    get: operations['listEvents'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ePrescription/events/stream': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The feed as Server-Sent Events, live
     * @description A prescriber sees every event of the prescriptions it issued; a pharmacist its own events and the dispense, lock, unlock, cancel and revoke events of others on prescriptions it had acted on before. Events are shown as verify shows them. Each event is served only when its signature verifies and who sees it follows from signed events; verify checks whole chains. Each message's `id` is the event's cursor and its `data` a `FeedItem`; a reconnecting client sends the last `id` as `Last-Event-ID` and gets exactly the events it missed. Without `Last-Event-ID` or `after`, the stream starts with the events appended from now on. A comment line is sent every 15 s; the stream ends when the token expires. At most 5 streams per client at once (429 beyond).
     */
    get: operations['streamEvents'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ePrescription/prescriptions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The prescriptions the calling prescriber issued, with their state (one page)
     * @description In id order; pass `next` as `after` for the next page. Each prescription shows the flags and medicaments of verify’s variant with transactions, checked from the store alone (the link is not kept): `valid` is the chain and the signed terms; a chain that fails is listed with `valid` false, never refusing the page. Prescribers only.
     */
    get: operations['listPrescriptions'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ePrescription/me': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The signed-in client: role, actor id, name and a prescriber’s profile
     * @description Who the bearer token stands for, as the token service told erx. `profile` is the prescriber profile the operator set (`erx clients profile`), present only for a prescriber that has one with the embedded token service; the desk prefills the document’s `HcPerson`, `HcOrg` and `Auth` from it. `document_format` is the release the desk composes in. Any signed-in client.
     */
    get: operations['readSignedInClient'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ePrescription/catalog': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Search the product catalogue by name
     * @description Articles whose German or French name contains `q`, case and accents ignored; names that start with it first, then in name order. `[]` while no catalogue is loaded (`erx catalog import`). Any signed-in client (prescriber or pharmacist).
     */
    get: operations['searchCatalog'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ePrescription/catalog/names': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The names of products by GTIN
     * @description The articles of the given GTINs that the catalogue knows, in GTIN order; unknown GTINs are left out, and `[]` while no catalogue is loaded. Anyone, without a token (the patient view names the medicaments of a QR code it decoded): public article data, held to the anonymous rate limit per address.
     */
    get: operations['readCatalogNames'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/log/checkpoint': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The newest signed checkpoint
     * @description The newest checkpoint of the transparency log (c2sp.org/tlog-checkpoint) with the witnesses’ cosignatures, as a signed note. `404` while the log is empty.
     */
    get: operations['readLogCheckpoint'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/log/key': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The log’s verifier key
     * @description The key that signs the checkpoints, in c2sp.org/signed-note vkey form.
     */
    get: operations['readLogKey'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/log/tile/{level}/{index}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A tile of the Merkle tree
     * @description c2sp.org/tlog-tiles: `<L>/<N>[.p/<W>]` is the tile of hashes at level L, `entries/<N>[.p/<W>]` the bundle of the events’ hashes of level 0 tile N. Only tiles inside the newest checkpoint’s tree exist (`404` otherwise); a path the spec does not define is `400`. Full tiles are immutable.
     */
    get: operations['readLogTile'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/log/tile/entries/{index}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * An entry bundle
     * @description c2sp.org/tlog-tiles: `<L>/<N>[.p/<W>]` is the tile of hashes at level L, `entries/<N>[.p/<W>]` the bundle of the events’ hashes of level 0 tile N. Only tiles inside the newest checkpoint’s tree exist (`404` otherwise); a path the spec does not define is `400`. Full tiles are immutable.
     */
    get: operations['readLogEntryBundle'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
};
export type webhooks = Record<string, never>;
export type components = {
  schemas: {
    /** @description The request’s trace, also sent as the `traceparent` response header. */
    Trace: {
      /** @description Trace context version, `00`. */
      Version: string;
      /** @description 32 hexadecimal digits. */
      TraceID: string;
      /** @description 16 hexadecimal digits: the span erx answered under. */
      ParentID: string;
      /** @description 2 hexadecimal digits. */
      Flags: string;
    };
    /** @enum {string} */
    ErrorCode:
      | 'bad_request'
      | 'unauthorized'
      | 'forbidden'
      | 'not_found'
      | 'conflict'
      | 'locked'
      | 'payload_too_large'
      | 'unsupported_media_type'
      | 'too_many_requests'
      | 'service_unavailable'
      | 'internal_error';
    Violation: {
      /** @description JSON pointer into the offending body or parameter. */
      path: string;
      /**
       * @description What is broken, for a client to say it in its own language: the schema rule (`required`, `pattern`, `max_length`, ...) or a named one (`gln_digits`: exactly 13 digits, `zip_digits`: 4 or 5 digits, `not_uuid`, ...). A client that does not know a code shows `message`.
       * @enum {string}
       */
      code:
        | 'required'
        | 'not_allowed'
        | 'type'
        | 'const'
        | 'one_of'
        | 'pattern'
        | 'gln_digits'
        | 'zip_digits'
        | 'plain_text'
        | 'min_length'
        | 'max_length'
        | 'min_items'
        | 'max_items'
        | 'minimum'
        | 'maximum'
        | 'format'
        | 'invalid'
        | 'not_uuid'
        | 'nil_uuid'
        | 'repeated_id'
        | 'expired'
        | 'unreadable_date'
        | 'not_percent_encoded'
        | 'given_twice'
        | 'only_with_force'
        | 'unknown_medicament'
        | 'not_a_cursor'
        | 'visible_ascii'
        | 'text_length';
      /** @description The same in English. */
      message: string;
      /** @description The values the wording needs, by name: `limit` (lengths, counts, bounds), `values` (`one_of`), `pattern`, `format`, `type`, `min`/`max`, `expires_at`, ...; `{}` when none. */
      params: {
        [key: string]: (string | number) | (string | number)[];
      };
    };
    ErrorCause: {
      /** @description The HTTP status of the answer. */
      StatusCode: number;
      Message: string;
      /** @description Finer reason, e.g. `unknown_error` (seed §7: already fully dispensed), `revoked`, `wrong_role`, `not_owner`, `invalid_document`, `idempotency_key_reused`. */
      Code: string;
      Trace: components['schemas']['Trace'];
    };
    /** @description The error body (seed §7). */
    ErrorBody: {
      error_code: components['schemas']['ErrorCode'];
      /** @description Human-readable text. */
      message: string;
      trace: components['schemas']['Trace'];
      cause: components['schemas']['ErrorCause'];
      violations?: components['schemas']['Violation'][];
      /** @description The values `message` names, by name, for a client that words the refusal by `cause.Code`: `holder` and `since` (`locked`, `already_locked`), `expires_at` (`expired`), `medicament`, `amount`, `remaining`, `prescribed` (`quantity_exceeded`, `substitution_not_allowed`), `host` (`foreign_link`: the host of a link another service issued), `limit` (`chain_full`, `too_many_events`) and `window_s` (`too_many_events`). */
      params?: {
        [key: string]: (string | number) | (string | number)[];
      };
    };
    /** @description The error body (seed §7) with `error` and `error_description` (RFC 6749 §5.2), so a stock OAuth 2.0 client reads the refusal. */
    TokenErrorBody: {
      error_code: components['schemas']['ErrorCode'];
      /** @description Human-readable text. */
      message: string;
      trace: components['schemas']['Trace'];
      cause: components['schemas']['ErrorCause'];
      violations?: components['schemas']['Violation'][];
      /** @description The values `message` names, by name, for a client that words the refusal by `cause.Code`: `holder` and `since` (`locked`, `already_locked`), `expires_at` (`expired`), `medicament`, `amount`, `remaining`, `prescribed` (`quantity_exceeded`, `substitution_not_allowed`), `host` (`foreign_link`: the host of a link another service issued), `limit` (`chain_full`, `too_many_events`) and `window_s` (`too_many_events`). */
      params?: {
        [key: string]: (string | number) | (string | number)[];
      };
      /**
       * @description RFC 6749 §5.2.
       * @enum {string}
       */
      error:
        | 'invalid_request'
        | 'invalid_client'
        | 'invalid_grant'
        | 'unauthorized_client'
        | 'unsupported_grant_type'
        | 'invalid_scope';
      /** @description The same text as `message`. */
      error_description: string;
    };
    DispenseItem: {
      /** @description The `Id` of a medicament of the prescription. No control characters. */
      id: string;
      /** @description Quantity dispensed. */
      amount: number;
      /** @description Identifier of the substitute medication dispensed instead. No control or bidirectional control characters. */
      substitute?: string;
      /**
       * @description 1 free text (extemporaneous preparation), 2 GTIN, 3 pharmacy product code.
       * @enum {integer}
       */
      substitute_id_type?: 1 | 2 | 3;
    } & (unknown & unknown);
    /** @description The items dispensed together (a partial or substitute dispensation). Send no body for a full dispensation. */
    DispenseBody: components['schemas']['DispenseItem'][];
    /** @description The reason, as the query parameter `reason` carries it; send one or the other. */
    ReasonBody: {
      /** @description Why, as shown to whoever reads the history; recorded in `event_data.reason` (of a dispense, only with `force=true`). No control or bidirectional control characters. */
      reason?: string;
    };
    /** @enum {string} */
    EventType:
      'create' | 'partial_dispense' | 'full_dispense' | 'revoke' | 'cancel' | 'lock' | 'unlock';
    /** @description `event_data` of `create`, `revoke` events: always `{}`. */
    EmptyEventData: Record<string, never>;
    /** @description `event_data` of `cancel` events. */
    CancelEventData: {
      /** @description The id of the event this cancel undoes. */
      EventId: string;
    };
    /** @description `event_data` of `lock` events. */
    LockEventData: {
      /** @description Why, as the caller gave it. */
      reason?: string;
      /** @description When the lock lapses unless renewed. Date-time, UTC with fractional seconds. */
      expires_at?: string;
    };
    /** @description `event_data` of `unlock` events. */
    UnlockEventData: {
      /** @description Why, as the caller gave it. */
      reason?: string;
    };
    /** @description `event_data` of `partial_dispense`, `full_dispense` events: `{}`, or on a forced one `force`, `overrides` and the `reason` if given. */
    DispenseEventData: {
      /**
       * @description Present on a forced dispensation.
       * @enum {boolean}
       */
      force?: true;
      /** @description The refusals the forced dispensation overrode. */
      overrides?: (
        'already_dispensed' | 'quantity_exceeded' | 'substitution_not_allowed' | 'expired'
      )[];
      /** @description Why, as the caller gave it. */
      reason?: string;
    };
    /** @description One event of a prescription’s log (seed §2.5); a call that changes a prescription answers the event it appended, with its `receipt`. */
    EventView: {
      id: string;
      type: components['schemas']['EventType'];
      /** @description The prescription id. */
      reference: string;
      /** @description What the event records beyond its fields; its shape depends on `type`. */
      event_data:
        | components['schemas']['EmptyEventData']
        | components['schemas']['CancelEventData']
        | components['schemas']['LockEventData']
        | components['schemas']['UnlockEventData']
        | components['schemas']['DispenseEventData'];
      /** @description On dispense events that carry items. */
      dispenses?: components['schemas']['DispenseItem'][];
      /** @description Date-time, UTC with fractional seconds. */
      timestamp: string;
      actor: string;
      actor_name: string;
      cancellable: boolean;
      /** @description 64 hexadecimal characters (SHA-256). Absent on the create event. */
      hash?: string;
      /** @description 64 hexadecimal characters (SHA-256). The preceding event's hash; absent on create. */
      parent_hash?: string;
      /** @description Compact JWS (ES384, x5c) over `hash`. Absent on the create event. */
      signature?: string;
      /** @description 64 hexadecimal characters (SHA-256). Of the link's CHMED16A1 string; create event only. */
      prescription_hash?: string;
      /** @description Only in the answer of the call that appended it. The appended event’s receipt: a C2SP tlog-proof@v1 text (its `extra` line the event’s JWS, then its leaf index, the inclusion proof and the signed checkpoint that includes it), checkable offline with `erx receipt verify`. Absent when no checkpoint included the event within ERX_LOG_RECEIPT_WAIT. */
      receipt?: string;
    };
    PartialDispensation: {
      amount: number;
      /** @description Date-time, UTC with fractional seconds. */
      timestamp: string;
      /** @description The actor id of the pharmacy that dispensed (e.g. `HIN|pharma1`, as HIN answers). */
      dispensed_by: string;
      medicine_id: string;
      substitute: string;
      /** @description As in DispenseItem; 0 without substitute. */
      substitute_id_type: number;
    };
    /** @description An event as verify shows it (seed §2.5), served only when its signature verifies (verify checks whole chains). On the stream, each message’s `data` is one of these and its `id` the `cursor`. */
    FeedItem: {
      /** @description Opaque; names this event’s place in the feed. Reading after it gives the events after it. */
      cursor: string;
      prescription_id: string;
      event: components['schemas']['EventView'];
    };
    /** @description The events the caller may see after `after`: a prescriber every event of the prescriptions it issued; a pharmacist its own events and the dispense, lock, unlock, cancel and revoke events of others on prescriptions it had acted on before. */
    FeedPage: {
      /** @description In commit order, at most `limit`. */
      events: components['schemas']['FeedItem'][];
      /** @description Store it and read after it next time: every event up to it has been answered, also when `events` is empty. A full page may be followed by more at once. */
      next: string;
    };
    /** @description Server-Sent Events: `retry: <ms>` first, then one message per event, `id: <cursor>` and `data: <FeedItem as JSON>`; lines starting with `:` are heartbeats. */
    EventStream: string;
    /** @description One Server-Sent Events message of the stream: its `id` line and its `data` line parsed as JSON. */
    EventStreamMessage: {
      /** @description The event’s cursor: send it as `Last-Event-ID` to resume. */
      id: string;
      data: components['schemas']['FeedItem'];
    };
    TamperingDetectionResult: {
      prescription_url_valid: boolean;
      prescription_hash_check_passed: boolean;
      logs_check_passed: boolean;
    };
    MedicamentStatus: {
      /** @description The medicament `Id` of the document. */
      id: string;
      /** @description Packages: (NbPack ?? 1) × (1 + (Rep ?? 0)); CHMED23A: nbPack × (1 + reps.v), see docs/decisions.md. */
      prescribed: number;
      /** @description Packages dispensed by the events that stand. */
      dispensed: number;
      /** @description Packages left; never below 0. */
      remaining: number;
      /** @description False when the document says `Subs: 1` (CHMED23A `isNotSub: true`). */
      substitution_allowed: boolean;
    };
    /** @description The complete QR code string (the link), sent as it stands (raw, even under application/json) or as a JSON string. A CHMED23A link on several QR codes may be sent as its part links instead, in any order: one on each line of the raw text, or a JSON array of strings; missing or repeated parts are refused with 400, naming them in `params`. */
    VerifyBody: string;
    /** @description The verify result without transactions: no bearer token, or one of neither a pharmacist nor the issuing prescriber. A link whose signature fails has valid, revoked and dispensed false, whether its id exists or not. */
    VerifyShort: {
      prescription_id: string;
      /** @description Date-time with UTC offset. */
      issued_at: string;
      /** @description Issuer label. */
      issued_by: string;
      valid: boolean;
      revoked: boolean;
      dispensed: boolean;
    };
    /** @description The verify result with transactions: for a pharmacist or the issuing prescriber. */
    VerifyFull: {
      prescription_id: string;
      /** @description Date-time with UTC offset. */
      issued_at: string;
      /** @description Issuer label. */
      issued_by: string;
      valid: boolean;
      revoked: boolean;
      dispensed: boolean;
      /** @description When dispensed: the time of the event that completed it, UTC. */
      dispensed_at?: string;
      /** @description When dispensed: the actor id of the event that completed it (e.g. `HIN|pharma1`, as HIN answers). */
      dispensed_by?: string;
      locked: boolean;
      /** @description Time of the lock event, UTC; present when locked. */
      locked_at?: string;
      /** @description The lock holder (actor name); present when locked. */
      locked_by?: string;
      /** @description When the prescription expires, UTC (SPEC.md §10). */
      expires_at: string;
      expired: boolean;
      /** @description In document order. */
      medicaments: components['schemas']['MedicamentStatus'][];
      partial_dispensations: components['schemas']['PartialDispensation'][];
      events: components['schemas']['EventView'][];
      tampering_detection_result: components['schemas']['TamperingDetectionResult'];
    };
    /** @description The verify result (seed §2.3): `VerifyFull` (with `tampering_detection_result` and the transactions) for a pharmacist or the issuing prescriber, else `VerifyShort`. */
    VerifyResult: components['schemas']['VerifyFull'] | components['schemas']['VerifyShort'];
    PackagesLeft: {
      /** @description The medicament `Id` of the document. */
      id: string;
      /** @description Packages: (NbPack ?? 1) × (1 + (Rep ?? 0)); CHMED23A: nbPack × (1 + reps.v), see docs/decisions.md. */
      prescribed: number;
      /** @description Packages dispensed by the events that stand. */
      dispensed: number;
      /** @description Packages left; never below 0. */
      remaining: number;
    };
    /** @description For a link whose signature verifies, whose document hash is the recorded one and whose chain passes its checks: what its holder may know of the prescription. */
    PrescriptionStatus: {
      prescription_id: string;
      /** @description Date-time with UTC offset. */
      issued_at: string;
      /** @description Issuer label. */
      issued_by: string;
      valid: boolean;
      revoked: boolean;
      dispensed: boolean;
      /** @description When the prescription expires, UTC (SPEC.md §10). */
      expires_at: string;
      expired: boolean;
      /** @description In document order. */
      medicaments: components['schemas']['PackagesLeft'][];
    };
    /** @description The status for the holder of a genuine link; for any other link exactly what the anonymous verify answers (a link whose signature fails: every flag false, nothing read). */
    StatusResult:
      components['schemas']['PrescriptionStatus'] | components['schemas']['VerifyShort'];
    /** @description The patient. Fields beyond those listed are accepted and kept in the link as sent (SPEC.md §4: real CHMED16A documents carry more, e.g. `Patient.City`, `Pos.DtFrom`). */
    Patient: {
      FName: string;
      LName: string;
      BDt: string;
      /** @enum {integer} */
      Gender?: 1 | 2;
      Street?: string;
      Zip?: string;
      Ids?: unknown[];
    } & {
      [key: string]: unknown;
    };
    /** @description The prescribing person. Fields beyond those listed are accepted and kept in the link as sent (SPEC.md §4: real CHMED16A documents carry more, e.g. `Patient.City`, `Pos.DtFrom`). */
    HcPerson: {
      Gln: string;
      FName: string;
      LName: string;
      Zsr?: string;
    } & {
      [key: string]: unknown;
    };
    /** @description The practice. Fields beyond those listed are accepted and kept in the link as sent (SPEC.md §4: real CHMED16A documents carry more, e.g. `Patient.City`, `Pos.DtFrom`). */
    HcOrg: {
      Name: string;
      NameAffix?: string;
      Street: string;
      Zip: string;
      City: string;
      Country?: string;
      Zsr?: string;
      Phone?: string;
      Email?: string;
    } & {
      [key: string]: unknown;
    };
    /** @description One posology. Fields beyond those listed are accepted and kept in the link as sent (SPEC.md §4: real CHMED16A documents carry more, e.g. `Patient.City`, `Pos.DtFrom`). */
    Pos: {
      D: number[];
      /** Format: date */
      DtTo?: string;
    } & {
      [key: string]: unknown;
    };
    /** @description One prescribed medicament. Fields beyond those listed are accepted and kept in the link as sent (SPEC.md §4: real CHMED16A documents carry more, e.g. `Patient.City`, `Pos.DtFrom`). */
    Medicament: {
      Id: string;
      /** @enum {integer} */
      IdType: 1 | 2 | 3;
      Pos?: components['schemas']['Pos'][];
      Unit?: string;
      AppInstr?: string;
      Rep?: number;
      NbPack?: number;
      /** @enum {integer} */
      Subs?: 0 | 1;
    } & {
      [key: string]: unknown;
    };
    Prescription: {
      rev?: number;
      Patient: components['schemas']['Patient'];
      HcPerson?: components['schemas']['HcPerson'];
      HcOrg?: components['schemas']['HcOrg'];
      Medicaments: components['schemas']['Medicament'][];
      /** @enum {number} */
      MedType: 3;
      Id: string;
      Auth: string;
      Zsr?: string;
      /** Format: date-time */
      Dt: string;
      Rmk?: string;
      PFields?: unknown[];
      PSchema?: string;
    };
    /** @description A CHMED23A prescription (IG eMediplan), as erx creates from it. Fields beyond those listed are accepted and kept in the link as sent, as the IG asks of readers. */
    Chmed23aPrescription: {
      patient: {
        fName: string;
        lName: string;
        /**
         * Format: date
         * @description Date of birth, `yyyy-mm-dd`.
         */
        bdt: string;
        /**
         * @description 1 male, 2 female, 3 other.
         * @enum {integer}
         */
        gender: 1 | 2 | 3;
        street?: string;
        zip?: string;
        city?: string;
        country?: string;
        lng?: string;
        ids: {
          /** @enum {integer} */
          type: 1 | 2;
          sId?: string;
          val: string;
        }[];
        exts?: {
          nm: string;
          val?: string;
          schema: string;
          exts?: Record<string, never>[];
        }[];
        mData?: Record<string, never>;
        phones?: string[];
        emails?: string[];
      };
      hcPerson: {
        gln: string;
        fName: string;
        lName: string;
        zsr?: string;
      };
      hcOrg: {
        gln?: string;
        name: string;
        street: string;
        zip: string;
        city: string;
        country?: string;
        zsr?: string;
      };
      meds: {
        id: string;
        /**
         * @description 1 none (free text in `id`), 2 GTIN, 3 Pharmacode (4 is not for prescriptions).
         * @enum {integer}
         */
        idType: 1 | 2 | 3;
        pos?: {
          dtFrom?: string;
          dtTo?: string;
          /** @description Reserve medication. */
          inRes?: boolean;
          /** @description A posology detail: 1 daily (`ds`: morning, noon, evening, night), 2 free text, 3 single application, 4 cyclic, 5 sequence of posologies and pauses. */
          po: {
            /** @enum {integer} */
            t: 1 | 2 | 3 | 4 | 5;
          } & (unknown & unknown & unknown & unknown & unknown);
          /**
           * @description 1 before, 2 during, 3 after a meal.
           * @enum {integer}
           */
          relMeal?: 1 | 2 | 3;
          unit?: string;
          appInstr?: string;
          roa?: string;
          moa?: string;
        }[];
        rsn?: string;
        autoMed?: boolean;
        prscbBy?: string;
        /** @description Repetitions: 1 a count `v`, 2 a duration `d` `u`, 3 both. Absent means `{"t":1,"v":1}`. */
        reps?: {
          /** @enum {integer} */
          t: 1 | 2 | 3;
        } & (unknown & unknown & unknown);
        /** @description True: must not be substituted. */
        isNotSub?: boolean;
        sic?: boolean;
        /** @description Packages to deliver, whole; default 1. */
        nbPack?: number;
        exts?: {
          nm: string;
          val?: string;
          schema: string;
          exts?: Record<string, never>[];
        }[];
      }[];
      exts?: {
        nm: string;
        val?: string;
        schema: string;
        exts?: Record<string, never>[];
      }[];
      /** @enum {number} */
      medType: 3;
      /** @description A UUID (erx requires it: ids must be unguessable). */
      id: string;
      /** @enum {number} */
      auth: 1;
      rec?: string;
      /**
       * Format: date-time
       * @description The prescription date.
       */
      dt: string;
      rmk?: string;
    };
    /** @description The document as its ChTransmissionFormat string, `CHMED16A0…`, `CHMED16A1…` or `CHMED23A.…` (the prefix in any case; raw with `text/plain`, or as a JSON string); the release is read from the prefix. A CHMED23A string is carried in the link exactly as sent. */
    TransmissionString: string;
    /** @description The prescription document in one of two releases, exactly one of: `Prescription` (CHMED16A, seed §2.1: requires `Medicaments` and `MedType`, no other top-level fields), `Chmed23aPrescription` (CHMED23A, IG eMediplan: requires `meds` and `medType`; a JSON object is read as CHMED23A when it has `meds` or `medType` and neither `Medicaments` nor `MedType`) or `TransmissionString` (either release as its string). */
    CreateBody:
      | components['schemas']['Prescription']
      | components['schemas']['Chmed23aPrescription']
      | components['schemas']['TransmissionString'];
    /** @description The signed link and the prescription id. */
    CreateResult: {
      /** @description The link, the content of the QR code. */
      SignedPrescriptionData: string;
      /** @description Only for a CHMED23A link too large for one QR code: the link as part links, in order, each the content of one QR code (`…#CHMED23A.k/n.<slice>&i=…&t=…&s=…`, the same `i`, `t` and `s` as the link, whose signature covers the whole). Verify takes them in any order. */
      SignedPrescriptionParts?: string[];
      prescription_id: string;
      /** @description The appended event’s receipt: a C2SP tlog-proof@v1 text (its `extra` line the event’s JWS, then its leaf index, the inclusion proof and the signed checkpoint that includes it), checkable offline with `erx receipt verify`. Absent when no checkpoint included the event within ERX_LOG_RECEIPT_WAIT. */
      receipt?: string;
    };
    /** @description The link as a QR code. A link too large for one code: the codes of its part links in one image, stacked in order, `k/N` under each, each `size` pixels wide. */
    QrCodePng: string;
    /** @description The link as a QR code. A link too large for one code: the codes of its part links in one image, stacked in order, `k/N` under each, each `size` pixels wide. */
    QrCodeSvg: string;
    TokenForm: {
      /** @description `client_credentials`. */
      grant_type?: string;
      client_id?: string;
      client_secret?: string;
    };
    TokenInfoForm: {
      /** @description The token to check. */
      token?: string;
      client_id?: string;
      client_secret?: string;
    };
    /** @description An access token (RFC 6749 §5.1). */
    TokenResult: {
      access_token: string;
      /** @enum {string} */
      token_type: 'Bearer';
      /** @description Lifetime in seconds. */
      expires_in: number;
    };
    ActiveTokenInfo: {
      /** @enum {boolean} */
      active: true;
      description: string;
      /** @description Expiry, seconds since the epoch. */
      exp: number;
      /** @description Remaining lifetime in seconds. */
      expires_in: number;
      /** @description Expiry date-time in UTC. */
      expires_on: string;
      name: string;
      client_id: string;
      /**
       * @description The role.
       * @enum {string}
       */
      scope: 'prescriber' | 'pharmacist';
      /** @description The actor id events carry. */
      sub: string;
    };
    InactiveTokenInfo: {
      /** @enum {boolean} */
      active: false;
    };
    /** @description The token information (seed §2.6); `{"active": false}` for an invalid token. */
    TokenInfo:
      components['schemas']['ActiveTokenInfo'] | components['schemas']['InactiveTokenInfo'];
    /** @description The service is alive, or ready. */
    HealthStatus: {
      /** @description `ok` (liveness) or `ready` (readiness). */
      status: string;
    };
    /** @description A prescription the caller issued, with the flags of verify’s variant with transactions. A chain that fails its checks is listed with `valid` false and the state its readable events show. */
    ListedPrescription: {
      prescription_id: string;
      /** @description Date-time with UTC offset, as verify shows it. */
      issued_at: string;
      /** @description When the prescription expires, UTC (SPEC.md §10). */
      expires_at: string;
      /** @description The chain passes every check of `logs_check_passed` and the stored terms (medicaments, expiry, issuer) are the signed ones of its create event: what the store alone can check of verify’s `valid`. Says nothing of revoked or expired (see those flags); verify with the link remains the full check. */
      valid: boolean;
      /** @description The chain’s hashes, links, signatures and head check (SPEC.md §6). */
      logs_check_passed: boolean;
      revoked: boolean;
      dispensed: boolean;
      /** @description When dispensed: the time of the event that completed it, UTC. */
      dispensed_at?: string;
      /** @description When dispensed: the actor id of the event that completed it (e.g. `HIN|pharma1`, as HIN answers). */
      dispensed_by?: string;
      locked: boolean;
      /** @description Time of the lock event, UTC; present when locked. */
      locked_at?: string;
      /** @description The lock holder (actor name); present when locked. */
      locked_by?: string;
      expired: boolean;
      /** @description In document order. */
      medicaments: components['schemas']['MedicamentStatus'][];
    };
    /** @description The prescriptions the calling prescriber issued, one page. */
    PrescriptionList: {
      /** @description In id order. */
      prescriptions: components['schemas']['ListedPrescription'][];
      /** @description Pass as `after` for the next page; absent when no prescription is left. */
      next?: string;
    };
    /** @description A product of the public article list: its GTIN and names. */
    CatalogArticle: {
      /** @description GTIN-13, check digit verified at import. */
      gtin: string;
      /** @description The Pharmacode, when the imported list has one. */
      pharmacode?: string;
      /** @description German name (the French one where the list has none). */
      name_de: string;
      /** @description French name (the German one where the list has none). */
      name_fr: string;
    };
    /** @description The articles found; `[]` when none is, or no catalogue is loaded. */
    CatalogArticles: components['schemas']['CatalogArticle'][];
    /** @description The practice a prescriber issues from. */
    PracticeAddress: {
      /** @description `HcOrg.Name`. */
      name: string;
      /** @description `HcOrg.Street`. */
      street: string;
      /** @description `HcOrg.Zip`, 4 or 5 digits. */
      zip: string;
      /** @description `HcOrg.City`. */
      city: string;
      /** @description `HcOrg.Phone`. */
      phone?: string;
    };
    /** @description What a prescriber’s documents name, set by the operator (`erx clients profile`). A convenience for filling in the document: erx signs the document as sent, whatever it names. */
    PrescriberProfile: {
      /** @description `HcPerson.FName`. */
      first_name: string;
      /** @description `HcPerson.LName`. */
      last_name: string;
      /** @description `HcPerson.Gln` and the document’s `Auth`: 13 digits, check digit verified. */
      gln: string;
      /** @description `HcPerson.Zsr`: one letter and six digits (`A123456`). */
      zsr?: string;
      practice?: components['schemas']['PracticeAddress'];
    };
    /** @description The client the bearer token was issued to, as the token service knows it; `profile` only for a prescriber that has one, registered with the embedded token service. */
    SignedInClient: {
      client_id: string;
      /**
       * @description The role.
       * @enum {string}
       */
      role: 'prescriber' | 'pharmacist';
      /** @description Actor id: event `actor` of the caller’s events. */
      sub: string;
      /** @description Display name: event `actor_name`. */
      name: string;
      profile?: components['schemas']['PrescriberProfile'];
      /**
       * @description The release the desk composes prescriptions in, as the operator chose it (`ERX_DOCUMENT_FORMAT`); create takes both.
       * @enum {string}
       */
      document_format: 'CHMED16A' | 'CHMED23A';
    };
    /** @description The newest checkpoint (c2sp.org/tlog-checkpoint) as a signed note (c2sp.org/signed-note): origin, tree size and base64 root hash, a blank line, the log’s Ed25519 signature line and the witnesses’ cosignature lines (c2sp.org/tlog-cosignature). */
    LogCheckpointNote: string;
    /** @description The verifier key of the log’s checkpoints in c2sp.org/signed-note vkey form (`<origin>+<key ID>+<base64 key>`), followed by a newline. */
    LogVerifierKey: string;
    /** @description A Merkle tree tile (256, or for a partial tile `W`, SHA-256 hashes of 32 bytes) or an entry bundle (each entry a big-endian uint16 length and the 32 raw bytes of a ledger event’s hash). */
    LogTile: string;
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
};
export type $defs = Record<string, never>;
export interface operations {
  checkHealth: {
    parameters: {
      query?: never;
      header?: {
        /** @description W3C Trace Context: the answer carries the same trace id (in `traceparent` and in error bodies), so a call can be found in erx’s log. */
        traceparent?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The service is alive, or ready. */
      200: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['HealthStatus'];
        };
      };
      /** @description `internal_error`: an unexpected failure; details stay in the service’s log. */
      500: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  checkReadiness: {
    parameters: {
      query?: never;
      header?: {
        /** @description W3C Trace Context: the answer carries the same trace id (in `traceparent` and in error bodies), so a call can be found in erx’s log. */
        traceparent?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The service is alive, or ready. */
      200: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['HealthStatus'];
        };
      };
      /** @description `internal_error`: an unexpected failure; details stay in the service’s log. */
      500: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `service_unavailable`: erx is at capacity or a service it depends on is down; retry. */
      503: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  requestToken: {
    parameters: {
      query?: never;
      header?: {
        /** @description W3C Trace Context: the answer carries the same trace id (in `traceparent` and in error bodies), so a call can be found in erx’s log. */
        traceparent?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/x-www-form-urlencoded': components['schemas']['TokenForm'];
      };
    };
    responses: {
      /** @description An access token (RFC 6749 §5.1). */
      200: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TokenResult'];
        };
      };
      /** @description `invalid_request` or `unsupported_grant_type` (RFC 6749 §5.2): a bad form. */
      400: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TokenErrorBody'];
        };
      };
      /** @description `invalid_client` (RFC 6749 §5.2): the client credentials do not authenticate. */
      401: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TokenErrorBody'];
        };
      };
      /** @description `payload_too_large`: the body is over 64 KiB. */
      413: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `unsupported_media_type`: this `Content-Type` is not accepted here. */
      415: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `too_many_requests`: over the rate limit; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `internal_error`: an unexpected failure; details stay in the service’s log. */
      500: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `service_unavailable`: erx is at capacity or a service it depends on is down; retry. */
      503: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  introspectToken: {
    parameters: {
      query?: never;
      header?: {
        /** @description W3C Trace Context: the answer carries the same trace id (in `traceparent` and in error bodies), so a call can be found in erx’s log. */
        traceparent?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/x-www-form-urlencoded': components['schemas']['TokenInfoForm'];
      };
    };
    responses: {
      /** @description The token information (seed §2.6); `{"active": false}` for an invalid token. */
      200: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TokenInfo'];
        };
      };
      /** @description `invalid_request` or `unsupported_grant_type` (RFC 6749 §5.2): a bad form. */
      400: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TokenErrorBody'];
        };
      };
      /** @description `invalid_client` (RFC 6749 §5.2): the client credentials do not authenticate. */
      401: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TokenErrorBody'];
        };
      };
      /** @description `payload_too_large`: the body is over 64 KiB. */
      413: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `unsupported_media_type`: this `Content-Type` is not accepted here. */
      415: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `too_many_requests`: over the rate limit; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `internal_error`: an unexpected failure; details stay in the service’s log. */
      500: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `service_unavailable`: erx is at capacity or a service it depends on is down; retry. */
      503: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  createPrescription: {
    parameters: {
      query?: {
        /** @description `data`: JSON; `qrcode` (default): PNG; `svg`: SVG. A link that needs several QR codes (`SignedPrescriptionParts`) is one image of all of them, stacked in order, `k/N` under each. */
        'output-format'?: 'data' | 'qrcode' | 'svg';
        /** @description PNG width in pixels, 64..2048 */
        size?: number;
      };
      header?: {
        /** @description W3C Trace Context: the answer carries the same trace id (in `traceparent` and in error bodies), so a call can be found in erx’s log. */
        traceparent?: string;
        /** @description The kind of a plain `Bearer <token>` (SPEC.md §10); not needed with `Bearer acs:` or `Bearer oauth:`. */
        'Token-Type'?: 'HIN_ACS' | 'HIN_JWT' | 'OAUTH';
        /** @description Names this call: a retry with the same key (and the same request) answers the first answer and changes nothing; keep it across the retries of one call (SPEC.md §5). */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateBody'];
        'text/plain': components['schemas']['CreateBody'];
      };
    };
    responses: {
      /** @description The link as JSON (`data`), or its QR code as PNG (default) or SVG. */
      200: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description With `output-format` `qrcode` or `svg`: the receipt (`receipt` of the `data` answer), base64. */
          'Erx-Receipt'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CreateResult'];
          'image/png': components['schemas']['QrCodePng'];
          'image/svg+xml': components['schemas']['QrCodeSvg'];
        };
      };
      /** @description `bad_request`: a malformed body, parameter or link; `violations` says what. */
      400: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `unauthorized`: no bearer token, or an inactive one (with `WWW-Authenticate`). */
      401: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `forbidden`: the caller’s role or identity may not do this, or the state forbids it. */
      403: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `conflict`: the call conflicts with the prescription’s state or an `Idempotency-Key`. */
      409: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `payload_too_large`: the body is over 64 KiB. */
      413: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `unsupported_media_type`: this `Content-Type` is not accepted here. */
      415: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `too_many_requests`: over the rate limit; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `internal_error`: an unexpected failure; details stay in the service’s log. */
      500: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `service_unavailable`: erx is at capacity or a service it depends on is down; retry. */
      503: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  verifyPrescription: {
    parameters: {
      query?: never;
      header?: {
        /** @description W3C Trace Context: the answer carries the same trace id (in `traceparent` and in error bodies), so a call can be found in erx’s log. */
        traceparent?: string;
        /** @description The kind of a plain `Bearer <token>` (SPEC.md §10); not needed with `Bearer acs:` or `Bearer oauth:`. */
        'Token-Type'?: 'HIN_ACS' | 'HIN_JWT' | 'OAUTH';
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'text/plain': components['schemas']['VerifyBody'];
        'application/json': components['schemas']['VerifyBody'];
      };
    };
    responses: {
      /** @description The verify result (seed §2.3): `VerifyFull` (with `tampering_detection_result` and the transactions) for a pharmacist or the issuing prescriber, else `VerifyShort`. */
      200: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['VerifyResult'];
        };
      };
      /** @description `bad_request`: a malformed body, parameter or link; `violations` says what. */
      400: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `unauthorized`: no bearer token, or an inactive one (with `WWW-Authenticate`). */
      401: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `not_found`: no such prescription or event. */
      404: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `payload_too_large`: the body is over 64 KiB. */
      413: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `unsupported_media_type`: this `Content-Type` is not accepted here. */
      415: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `too_many_requests`: over the rate limit; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `internal_error`: an unexpected failure; details stay in the service’s log. */
      500: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `service_unavailable`: erx is at capacity or a service it depends on is down; retry. */
      503: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  readPrescriptionStatus: {
    parameters: {
      query?: never;
      header?: {
        /** @description W3C Trace Context: the answer carries the same trace id (in `traceparent` and in error bodies), so a call can be found in erx’s log. */
        traceparent?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'text/plain': components['schemas']['VerifyBody'];
        'application/json': components['schemas']['VerifyBody'];
      };
    };
    responses: {
      /** @description The status for the holder of a genuine link; for any other link exactly what the anonymous verify answers (a link whose signature fails: every flag false, nothing read). */
      200: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['StatusResult'];
        };
      };
      /** @description `bad_request`: a malformed body, parameter or link; `violations` says what. */
      400: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `unauthorized`: no bearer token, or an inactive one (with `WWW-Authenticate`). */
      401: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `not_found`: no such prescription or event. */
      404: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `payload_too_large`: the body is over 64 KiB. */
      413: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `unsupported_media_type`: this `Content-Type` is not accepted here. */
      415: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `too_many_requests`: over the rate limit; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `internal_error`: an unexpected failure; details stay in the service’s log. */
      500: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `service_unavailable`: erx is at capacity or a service it depends on is down; retry. */
      503: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  dispensePrescription: {
    parameters: {
      query?: {
        /** @description `true` (also `1`, any case) dispenses although the prescription is fully dispensed, expired, or the items exceed the prescribed packages or substitute what must not be substituted; the event records what was overridden (`event_data.force`, `overrides`). `false` or `0` is the same as leaving it out. */
        force?: boolean;
        /** @description Why, as shown to whoever reads the history; recorded in `event_data.reason` (of a dispense, only with `force=true`). No control or bidirectional control characters. */
        reason?: string;
      };
      header?: {
        /** @description W3C Trace Context: the answer carries the same trace id (in `traceparent` and in error bodies), so a call can be found in erx’s log. */
        traceparent?: string;
        /** @description The kind of a plain `Bearer <token>` (SPEC.md §10); not needed with `Bearer acs:` or `Bearer oauth:`. */
        'Token-Type'?: 'HIN_ACS' | 'HIN_JWT' | 'OAUTH';
        /** @description Names this call: a retry with the same key (and the same request) answers the first answer and changes nothing; keep it across the retries of one call (SPEC.md §5). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description The prescription id. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        'application/json': components['schemas']['DispenseBody'];
      };
    };
    responses: {
      /** @description One event of a prescription’s log (seed §2.5); a call that changes a prescription answers the event it appended, with its `receipt`. */
      200: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EventView'];
        };
      };
      /** @description `bad_request`: a malformed body, parameter or link; `violations` says what. */
      400: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `unauthorized`: no bearer token, or an inactive one (with `WWW-Authenticate`). */
      401: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `forbidden`: the caller’s role or identity may not do this, or the state forbids it. */
      403: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `not_found`: no such prescription or event. */
      404: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `conflict`: the call conflicts with the prescription’s state or an `Idempotency-Key`. */
      409: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `payload_too_large`: the body is over 64 KiB. */
      413: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `unsupported_media_type`: this `Content-Type` is not accepted here. */
      415: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `locked`: locked by someone else; `message` names the lock holder. */
      423: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `too_many_requests`: over the rate limit; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `internal_error`: an unexpected failure; details stay in the service’s log. */
      500: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `service_unavailable`: erx is at capacity or a service it depends on is down; retry. */
      503: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  revokePrescription: {
    parameters: {
      query?: never;
      header?: {
        /** @description W3C Trace Context: the answer carries the same trace id (in `traceparent` and in error bodies), so a call can be found in erx’s log. */
        traceparent?: string;
        /** @description The kind of a plain `Bearer <token>` (SPEC.md §10); not needed with `Bearer acs:` or `Bearer oauth:`. */
        'Token-Type'?: 'HIN_ACS' | 'HIN_JWT' | 'OAUTH';
        /** @description Names this call: a retry with the same key (and the same request) answers the first answer and changes nothing; keep it across the retries of one call (SPEC.md §5). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description The prescription id. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One event of a prescription’s log (seed §2.5); a call that changes a prescription answers the event it appended, with its `receipt`. */
      200: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EventView'];
        };
      };
      /** @description `bad_request`: a malformed body, parameter or link; `violations` says what. */
      400: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `unauthorized`: no bearer token, or an inactive one (with `WWW-Authenticate`). */
      401: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `forbidden`: the caller’s role or identity may not do this, or the state forbids it. */
      403: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `not_found`: no such prescription or event. */
      404: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `conflict`: the call conflicts with the prescription’s state or an `Idempotency-Key`. */
      409: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `payload_too_large`: the body is over 64 KiB. */
      413: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `unsupported_media_type`: this `Content-Type` is not accepted here. */
      415: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `too_many_requests`: over the rate limit; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `internal_error`: an unexpected failure; details stay in the service’s log. */
      500: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `service_unavailable`: erx is at capacity or a service it depends on is down; retry. */
      503: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  cancelEvent: {
    parameters: {
      query?: never;
      header?: {
        /** @description W3C Trace Context: the answer carries the same trace id (in `traceparent` and in error bodies), so a call can be found in erx’s log. */
        traceparent?: string;
        /** @description The kind of a plain `Bearer <token>` (SPEC.md §10); not needed with `Bearer acs:` or `Bearer oauth:`. */
        'Token-Type'?: 'HIN_ACS' | 'HIN_JWT' | 'OAUTH';
        /** @description Names this call: a retry with the same key (and the same request) answers the first answer and changes nothing; keep it across the retries of one call (SPEC.md §5). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description The prescription id. */
        id: string;
        eventId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One event of a prescription’s log (seed §2.5); a call that changes a prescription answers the event it appended, with its `receipt`. */
      200: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EventView'];
        };
      };
      /** @description `bad_request`: a malformed body, parameter or link; `violations` says what. */
      400: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `unauthorized`: no bearer token, or an inactive one (with `WWW-Authenticate`). */
      401: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `forbidden`: the caller’s role or identity may not do this, or the state forbids it. */
      403: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `not_found`: no such prescription or event. */
      404: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `conflict`: the call conflicts with the prescription’s state or an `Idempotency-Key`. */
      409: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `payload_too_large`: the body is over 64 KiB. */
      413: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `unsupported_media_type`: this `Content-Type` is not accepted here. */
      415: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `locked`: locked by someone else; `message` names the lock holder. */
      423: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `too_many_requests`: over the rate limit; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `internal_error`: an unexpected failure; details stay in the service’s log. */
      500: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `service_unavailable`: erx is at capacity or a service it depends on is down; retry. */
      503: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  lockPrescription: {
    parameters: {
      query?: {
        /** @description Why, as shown to whoever reads the history; recorded in `event_data.reason` (of a dispense, only with `force=true`). No control or bidirectional control characters. */
        reason?: string;
      };
      header?: {
        /** @description W3C Trace Context: the answer carries the same trace id (in `traceparent` and in error bodies), so a call can be found in erx’s log. */
        traceparent?: string;
        /** @description The kind of a plain `Bearer <token>` (SPEC.md §10); not needed with `Bearer acs:` or `Bearer oauth:`. */
        'Token-Type'?: 'HIN_ACS' | 'HIN_JWT' | 'OAUTH';
        /** @description Names this call: a retry with the same key (and the same request) answers the first answer and changes nothing; keep it across the retries of one call (SPEC.md §5). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description The prescription id. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        'application/json': components['schemas']['ReasonBody'];
      };
    };
    responses: {
      /** @description One event of a prescription’s log (seed §2.5); a call that changes a prescription answers the event it appended, with its `receipt`. */
      200: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EventView'];
        };
      };
      /** @description `bad_request`: a malformed body, parameter or link; `violations` says what. */
      400: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `unauthorized`: no bearer token, or an inactive one (with `WWW-Authenticate`). */
      401: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `forbidden`: the caller’s role or identity may not do this, or the state forbids it. */
      403: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `not_found`: no such prescription or event. */
      404: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `conflict`: the call conflicts with the prescription’s state or an `Idempotency-Key`. */
      409: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `payload_too_large`: the body is over 64 KiB. */
      413: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `unsupported_media_type`: this `Content-Type` is not accepted here. */
      415: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `too_many_requests`: over the rate limit; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `internal_error`: an unexpected failure; details stay in the service’s log. */
      500: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `service_unavailable`: erx is at capacity or a service it depends on is down; retry. */
      503: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  unlockPrescription: {
    parameters: {
      query?: {
        /** @description Why, as shown to whoever reads the history; recorded in `event_data.reason` (of a dispense, only with `force=true`). No control or bidirectional control characters. */
        reason?: string;
      };
      header?: {
        /** @description W3C Trace Context: the answer carries the same trace id (in `traceparent` and in error bodies), so a call can be found in erx’s log. */
        traceparent?: string;
        /** @description The kind of a plain `Bearer <token>` (SPEC.md §10); not needed with `Bearer acs:` or `Bearer oauth:`. */
        'Token-Type'?: 'HIN_ACS' | 'HIN_JWT' | 'OAUTH';
        /** @description Names this call: a retry with the same key (and the same request) answers the first answer and changes nothing; keep it across the retries of one call (SPEC.md §5). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description The prescription id. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        'application/json': components['schemas']['ReasonBody'];
      };
    };
    responses: {
      /** @description One event of a prescription’s log (seed §2.5); a call that changes a prescription answers the event it appended, with its `receipt`. */
      200: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EventView'];
        };
      };
      /** @description `bad_request`: a malformed body, parameter or link; `violations` says what. */
      400: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `unauthorized`: no bearer token, or an inactive one (with `WWW-Authenticate`). */
      401: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `forbidden`: the caller’s role or identity may not do this, or the state forbids it. */
      403: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `not_found`: no such prescription or event. */
      404: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `conflict`: the call conflicts with the prescription’s state or an `Idempotency-Key`. */
      409: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `payload_too_large`: the body is over 64 KiB. */
      413: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `unsupported_media_type`: this `Content-Type` is not accepted here. */
      415: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `too_many_requests`: over the rate limit; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `internal_error`: an unexpected failure; details stay in the service’s log. */
      500: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `service_unavailable`: erx is at capacity or a service it depends on is down; retry. */
      503: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  listEvents: {
    parameters: {
      query?: {
        /** @description Start after this cursor (an event’s `cursor` or a page’s `next`, as answered); without it, from the first event. */
        after?: string;
        /** @description At most this many events, 1 to 500 (default 100). */
        limit?: number;
      };
      header?: {
        /** @description W3C Trace Context: the answer carries the same trace id (in `traceparent` and in error bodies), so a call can be found in erx’s log. */
        traceparent?: string;
        /** @description The kind of a plain `Bearer <token>` (SPEC.md §10); not needed with `Bearer acs:` or `Bearer oauth:`. */
        'Token-Type'?: 'HIN_ACS' | 'HIN_JWT' | 'OAUTH';
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The events the caller may see after `after`: a prescriber every event of the prescriptions it issued; a pharmacist its own events and the dispense, lock, unlock, cancel and revoke events of others on prescriptions it had acted on before. */
      200: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['FeedPage'];
        };
      };
      /** @description `bad_request`: a malformed body, parameter or link; `violations` says what. */
      400: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `unauthorized`: no bearer token, or an inactive one (with `WWW-Authenticate`). */
      401: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `payload_too_large`: the body is over 64 KiB. */
      413: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `unsupported_media_type`: this `Content-Type` is not accepted here. */
      415: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `too_many_requests`: over the rate limit; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `internal_error`: an unexpected failure; details stay in the service’s log. */
      500: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `service_unavailable`: erx is at capacity or a service it depends on is down; retry. */
      503: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  streamEvents: {
    parameters: {
      query?: {
        /** @description Start after this cursor when no `Last-Event-ID` header is sent; without either, with the events appended from now on. */
        after?: string;
      };
      header?: {
        /** @description The `id` of the last message received: resume after it. */
        'last-event-id'?: string;
        /** @description W3C Trace Context: the answer carries the same trace id (in `traceparent` and in error bodies), so a call can be found in erx’s log. */
        traceparent?: string;
        /** @description The kind of a plain `Bearer <token>` (SPEC.md §10); not needed with `Bearer acs:` or `Bearer oauth:`. */
        'Token-Type'?: 'HIN_ACS' | 'HIN_JWT' | 'OAUTH';
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description An endless `text/event-stream`, one message per event. */
      200: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'text/event-stream': components['schemas']['EventStream'];
        };
      };
      /** @description `bad_request`: a malformed body, parameter or link; `violations` says what. */
      400: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `unauthorized`: no bearer token, or an inactive one (with `WWW-Authenticate`). */
      401: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `payload_too_large`: the body is over 64 KiB. */
      413: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `unsupported_media_type`: this `Content-Type` is not accepted here. */
      415: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `too_many_requests`: over the rate limit; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `internal_error`: an unexpected failure; details stay in the service’s log. */
      500: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `service_unavailable`: erx is at capacity or a service it depends on is down; retry. */
      503: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  listPrescriptions: {
    parameters: {
      query?: {
        /** @description Start after this prescription id (the `next` of the previous page). */
        after?: string;
        /** @description At most this many prescriptions, 1 to 100 (default 20). */
        limit?: number;
        /** @description Only prescriptions whose flag of this name is true; `open`: neither revoked, nor dispensed, nor expired. A page scans at most 5 × `limit` prescriptions, so it may hold fewer than `limit` and still have a `next`. */
        state?: 'open' | 'dispensed' | 'revoked' | 'expired';
      };
      header?: {
        /** @description W3C Trace Context: the answer carries the same trace id (in `traceparent` and in error bodies), so a call can be found in erx’s log. */
        traceparent?: string;
        /** @description The kind of a plain `Bearer <token>` (SPEC.md §10); not needed with `Bearer acs:` or `Bearer oauth:`. */
        'Token-Type'?: 'HIN_ACS' | 'HIN_JWT' | 'OAUTH';
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The prescriptions the calling prescriber issued, one page. */
      200: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PrescriptionList'];
        };
      };
      /** @description `bad_request`: a malformed body, parameter or link; `violations` says what. */
      400: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `unauthorized`: no bearer token, or an inactive one (with `WWW-Authenticate`). */
      401: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `forbidden`: the caller’s role or identity may not do this, or the state forbids it. */
      403: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `payload_too_large`: the body is over 64 KiB. */
      413: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `unsupported_media_type`: this `Content-Type` is not accepted here. */
      415: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `too_many_requests`: over the rate limit; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `internal_error`: an unexpected failure; details stay in the service’s log. */
      500: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `service_unavailable`: erx is at capacity or a service it depends on is down; retry. */
      503: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  readSignedInClient: {
    parameters: {
      query?: never;
      header?: {
        /** @description W3C Trace Context: the answer carries the same trace id (in `traceparent` and in error bodies), so a call can be found in erx’s log. */
        traceparent?: string;
        /** @description The kind of a plain `Bearer <token>` (SPEC.md §10); not needed with `Bearer acs:` or `Bearer oauth:`. */
        'Token-Type'?: 'HIN_ACS' | 'HIN_JWT' | 'OAUTH';
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The client the bearer token was issued to, as the token service knows it; `profile` only for a prescriber that has one, registered with the embedded token service. */
      200: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SignedInClient'];
        };
      };
      /** @description `unauthorized`: no bearer token, or an inactive one (with `WWW-Authenticate`). */
      401: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `payload_too_large`: the body is over 64 KiB. */
      413: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `unsupported_media_type`: this `Content-Type` is not accepted here. */
      415: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `too_many_requests`: over the rate limit; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `internal_error`: an unexpected failure; details stay in the service’s log. */
      500: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `service_unavailable`: erx is at capacity or a service it depends on is down; retry. */
      503: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  searchCatalog: {
    parameters: {
      query: {
        /** @description Text found anywhere in the German or French name, case and accents ignored (`dafal` finds `DAFALGAN`, `creme` finds `crème`). Names that start with it come first. */
        q: string;
        /** @description At most this many articles, 1 to 50 (default 10). */
        limit?: number;
      };
      header?: {
        /** @description W3C Trace Context: the answer carries the same trace id (in `traceparent` and in error bodies), so a call can be found in erx’s log. */
        traceparent?: string;
        /** @description The kind of a plain `Bearer <token>` (SPEC.md §10); not needed with `Bearer acs:` or `Bearer oauth:`. */
        'Token-Type'?: 'HIN_ACS' | 'HIN_JWT' | 'OAUTH';
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The articles found; `[]` when none is, or no catalogue is loaded. */
      200: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CatalogArticles'];
        };
      };
      /** @description `bad_request`: a malformed body, parameter or link; `violations` says what. */
      400: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `unauthorized`: no bearer token, or an inactive one (with `WWW-Authenticate`). */
      401: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `payload_too_large`: the body is over 64 KiB. */
      413: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `unsupported_media_type`: this `Content-Type` is not accepted here. */
      415: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `too_many_requests`: over the rate limit; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `internal_error`: an unexpected failure; details stay in the service’s log. */
      500: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `service_unavailable`: erx is at capacity or a service it depends on is down; retry. */
      503: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  readCatalogNames: {
    parameters: {
      query: {
        /** @description The GTINs to name, one parameter each (`gtin=…&gtin=…`), at most 50. */
        gtin: string[];
      };
      header?: {
        /** @description W3C Trace Context: the answer carries the same trace id (in `traceparent` and in error bodies), so a call can be found in erx’s log. */
        traceparent?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The articles found; `[]` when none is, or no catalogue is loaded. */
      200: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CatalogArticles'];
        };
      };
      /** @description `bad_request`: a malformed body, parameter or link; `violations` says what. */
      400: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `unauthorized`: no bearer token, or an inactive one (with `WWW-Authenticate`). */
      401: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `payload_too_large`: the body is over 64 KiB. */
      413: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `unsupported_media_type`: this `Content-Type` is not accepted here. */
      415: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `too_many_requests`: over the rate limit; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `internal_error`: an unexpected failure; details stay in the service’s log. */
      500: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `service_unavailable`: erx is at capacity or a service it depends on is down; retry. */
      503: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  readLogCheckpoint: {
    parameters: {
      query?: never;
      header?: {
        /** @description W3C Trace Context: the answer carries the same trace id (in `traceparent` and in error bodies), so a call can be found in erx’s log. */
        traceparent?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The signed checkpoint note. */
      200: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'text/plain': components['schemas']['LogCheckpointNote'];
        };
      };
      /** @description `unauthorized`: no bearer token, or an inactive one (with `WWW-Authenticate`). */
      401: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `not_found`: no such prescription or event. */
      404: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `payload_too_large`: the body is over 64 KiB. */
      413: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `unsupported_media_type`: this `Content-Type` is not accepted here. */
      415: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `too_many_requests`: over the rate limit; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `internal_error`: an unexpected failure; details stay in the service’s log. */
      500: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `service_unavailable`: erx is at capacity or a service it depends on is down; retry. */
      503: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  readLogKey: {
    parameters: {
      query?: never;
      header?: {
        /** @description W3C Trace Context: the answer carries the same trace id (in `traceparent` and in error bodies), so a call can be found in erx’s log. */
        traceparent?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The verifier key and a newline. */
      200: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'text/plain': components['schemas']['LogVerifierKey'];
        };
      };
      /** @description `unauthorized`: no bearer token, or an inactive one (with `WWW-Authenticate`). */
      401: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `payload_too_large`: the body is over 64 KiB. */
      413: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `unsupported_media_type`: this `Content-Type` is not accepted here. */
      415: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `too_many_requests`: over the rate limit; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `internal_error`: an unexpected failure; details stay in the service’s log. */
      500: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `service_unavailable`: erx is at capacity or a service it depends on is down; retry. */
      503: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  readLogTile: {
    parameters: {
      query?: never;
      header?: {
        /** @description W3C Trace Context: the answer carries the same trace id (in `traceparent` and in error bodies), so a call can be found in erx’s log. */
        traceparent?: string;
      };
      path: {
        /** @description The tile’s level `L`, 0 to 63. */
        level: number;
        /** @description The tile index `N` in c2sp.org/tlog-tiles form (`x001/x234/067`, three digits a segment), with `.p/<W>` for a partial tile; its `/` may be sent percent-encoded. */
        index: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The tile’s bytes. */
      200: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/octet-stream': components['schemas']['LogTile'];
        };
      };
      /** @description `bad_request`: a malformed body, parameter or link; `violations` says what. */
      400: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `unauthorized`: no bearer token, or an inactive one (with `WWW-Authenticate`). */
      401: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `not_found`: no such prescription or event. */
      404: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `payload_too_large`: the body is over 64 KiB. */
      413: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `unsupported_media_type`: this `Content-Type` is not accepted here. */
      415: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `too_many_requests`: over the rate limit; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `internal_error`: an unexpected failure; details stay in the service’s log. */
      500: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `service_unavailable`: erx is at capacity or a service it depends on is down; retry. */
      503: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  readLogEntryBundle: {
    parameters: {
      query?: never;
      header?: {
        /** @description W3C Trace Context: the answer carries the same trace id (in `traceparent` and in error bodies), so a call can be found in erx’s log. */
        traceparent?: string;
      };
      path: {
        /** @description The tile index `N` in c2sp.org/tlog-tiles form (`x001/x234/067`, three digits a segment), with `.p/<W>` for a partial tile; its `/` may be sent percent-encoded. */
        index: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The tile’s bytes. */
      200: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/octet-stream': components['schemas']['LogTile'];
        };
      };
      /** @description `bad_request`: a malformed body, parameter or link; `violations` says what. */
      400: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `unauthorized`: no bearer token, or an inactive one (with `WWW-Authenticate`). */
      401: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `not_found`: no such prescription or event. */
      404: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `payload_too_large`: the body is over 64 KiB. */
      413: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `unsupported_media_type`: this `Content-Type` is not accepted here. */
      415: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `too_many_requests`: over the rate limit; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `internal_error`: an unexpected failure; details stay in the service’s log. */
      500: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `service_unavailable`: erx is at capacity or a service it depends on is down; retry. */
      503: {
        headers: {
          /** @description The trace of this call (W3C Trace Context). */
          traceparent?: string;
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
}
