/** The typed signals of the stores; the service turns them into answers. */

/** The head moved between reading the chain and writing the next event (retry on the new head). */
export class StaleHead extends Error {
  constructor() {
    super('the chain head moved during the append');
    this.name = 'StaleHead';
  }
}

/** A concurrent call with the same `Idempotency-Key` won; the caller replays its answer. */
export class IdempotencyRace extends Error {
  constructor() {
    super('a concurrent call with the same Idempotency-Key was recorded first');
    this.name = 'IdempotencyRace';
  }
}

/** The row to insert exists already: a prescription with this `Id`, or a client with this id. */
export class AlreadyExists extends Error {
  constructor(readonly what: 'prescription' | 'client') {
    super(`a ${what} with this id exists already`);
    this.name = 'AlreadyExists';
  }
}

/** The prescription to append to does not exist (or no longer: a restore without it). */
export class NoSuchPrescription extends Error {
  constructor() {
    super('no prescription with this id');
    this.name = 'NoSuchPrescription';
  }
}
