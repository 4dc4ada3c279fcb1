/**
 * `ERX_LOG_WITNESSES`: `<vkey>=<URL>` entries separated by whitespace or commas; only Ed25519
 * cosignature vkeys, https URLs (http on loopback), each witness once; through `loadConfig` too.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, test } from 'node:test';
import { cosignerVerifierKey, ed25519VerifierKey } from '../tlog/index.js';
import { loadConfig } from './index.js';
import { parseLogWitnesses } from './log-witnesses.js';

const key = () => generateKeyPairSync('ed25519').publicKey;
const w1 = cosignerVerifierKey('witness.example/w1', key());
const w2 = cosignerVerifierKey('witness.example/w2', key());

describe('ERX_LOG_WITNESSES', () => {
  test('absent or blank: no witness', () => {
    assert.deepEqual(parseLogWitnesses(undefined), []);
    assert.deepEqual(parseLogWitnesses(' \n '), []);
  });

  test('pairs separated by spaces, newlines or commas; the URL without a trailing slash', () => {
    const parsed = parseLogWitnesses(
      `${w1}=https://w1.example/witness/ ,\n ${w2}=http://127.0.0.1:7000`,
    );
    assert.deepEqual(parsed, [
      { vkey: w1, url: 'https://w1.example/witness' },
      { vkey: w2, url: 'http://127.0.0.1:7000' },
    ]);
    assert.ok(Object.isFrozen(parsed) && Object.isFrozen(parsed[0]));
  });

  test('refuses what is not a witness of this kind', () => {
    const logKey = ed25519VerifierKey('log.example', generateKeyPairSync('ed25519').privateKey);
    const refused = [
      w1,
      `${w1}https://w1.example`,
      `${logKey}=https://w1.example`,
      `not+a+vkey=https://w1.example`,
      `${w1}=http://w1.example`,
      `${w1}=https://w1.example/?a=1`,
      `${w1}=https://user:pw@w1.example`,
      `${w1}=https://a.example ${w1}=https://b.example`,
    ];
    for (const raw of refused) {
      assert.throws(
        () => parseLogWitnesses(raw),
        (e: Error) => e.message.startsWith('configuration: ERX_LOG_WITNESSES'),
        raw,
      );
    }
  });

  test('loadConfig reads it, none by default', () => {
    assert.deepEqual(loadConfig({}).logWitnesses, []);
    const config = loadConfig({ ERX_LOG_WITNESSES: `${w2}=https://w2.example` });
    assert.deepEqual(config.logWitnesses, [{ vkey: w2, url: 'https://w2.example' }]);
  });
});
