import { test } from 'node:test';
import assert from 'node:assert/strict';
import { banner } from './banner.js';

const URL_ = 'http://localhost:8080';

function warnings(prescriptionUrl: string): string[] {
  return banner(URL_, undefined, true, undefined, prescriptionUrl)
    .split('\n')
    .filter((line) => line.includes('ERX_PRESCRIPTION_URL'));
}

test('links based at this machine only are warned about once, naming ERX_PRESCRIPTION_URL', () => {
  for (const base of [
    'http://localhost:8080/rx/',
    'http://127.0.0.1:8080/rx/',
    'http://[::1]:8080/rx/',
    'http://LOCALHOST/rx/',
  ]) {
    const found = warnings(base);
    assert.equal(found.length, 1, base);
    assert.match(found[0]!, /phone/);
    assert.ok(found[0]!.includes(base), base);
  }
});

test('links based at an address phones reach are not warned about', () => {
  for (const base of ['https://erx.example.ch/rx/', 'http://192.168.1.20:8080/rx/']) {
    assert.deepEqual(warnings(base), [], base);
  }
  assert.equal(banner(URL_, undefined, true, undefined).includes('ERX_PRESCRIPTION_URL'), false);
});
