/**
 * Mutated prescription links (SPEC.md §3): bad base64, truncated or concatenated gzip members,
 * wrong prefixes, huge `t`, non-hex `s`, unicode in `i`, random edits of a valid link, and
 * well-signed links over hostile documents (signed with the server's own key, so that the
 * checks after the signature are reached too).
 */
import { gzipSync } from 'node:zlib';
import { mutateBytes, mutateTextTimes } from './mutate.js';
import type { Prng } from './prng.js';
import { nested, rawDocument } from './documents.js';
import { rep } from './repeat.js';

/** Signs the part of a link up to `&s=` with the server's link key; answers lowercase hex. */
export type LinkSign = (signedPart: string) => string;

interface LinkParts {
  base: string;
  chmed: string;
  i: string;
  t: string;
  s: string;
}

function split(link: string): LinkParts {
  const hash = link.indexOf('#');
  const [chmed = '', i = 'i=', t = 't=', s = 's='] = link.slice(hash + 1).split('&');
  return { base: link.slice(0, hash), chmed, i: i.slice(2), t: t.slice(2), s: s.slice(2) };
}

function join(p: LinkParts): string {
  return `${p.base}#${p.chmed}&i=${p.i}&t=${p.t}&s=${p.s}`;
}

/** The gzip bytes of a `CHMED16A1` part (empty when it is not valid base64). */
function gzipOf(chmed: string): Buffer {
  return Buffer.from(chmed.slice(9), 'base64');
}

const PREFIXES = [
  'CHMED16A2',
  'CHMED16B1',
  'CHMED16A',
  'chmed16a1',
  'ChMeD16a1',
  'CHMED16A0',
  'XCHMED16A1',
  'CHMED16A11',
  'CHMED 16A1',
  '\uff23\uff28\uff2d\uff25\uff24\uff11\uff16A1',
  '',
  'CHMED15A1',
  'CHMED16\u0130',
  'CHMED16A1CHMED16A1',
];

const TIMES = [
  '99999999999999999999',
  '1e10',
  '-1',
  '0x10',
  '',
  '00',
  '9999999999',
  '10000000000',
  '1.5',
  ' 1',
  'NaN',
  'Infinity',
  rep('9', 1000),
  '0',
  '1\u0661',
  '+1',
  '1_000',
];

const ISSUER_JUNK = [
  'Z\u00fcrich',
  '\u{1f48a}',
  '\ud800',
  '\u202e',
  '%00',
  '%C3%28',
  '%uD800',
  '%ED%A0%80',
  '%',
  '%%',
  '%zz',
  '%E2%80%AE',
  '+',
  '%0A',
  '\u0000',
  '%F0%9F%92%8A',
  '(',
  '#',
  '=',
  rep('x', 600),
  rep('%41', 600),
];

type Edit = (rng: Prng, p: LinkParts) => string;

const EDITS: readonly (readonly [number, Edit])[] = [
  // Bad base64: a foreign character, wrong padding, the URL-safe alphabet.
  [
    3,
    (rng, p) => {
      const data = p.chmed.slice(9);
      const at = rng.int(data.length + 1);
      const junk = rng.pick(['!', '-', '_', ' ', '\n', '*', '\u00e9', '=', '==', '.', '\u0000']);
      const variants = [
        data.slice(0, at) + junk + data.slice(at),
        data.replace(/=+$/, ''),
        `${data}=`,
        data.replaceAll('+', '-').replaceAll('/', '_'),
        data.toLowerCase(),
        data.slice(0, data.length - rng.range(1, 3)),
      ];
      return join({ ...p, chmed: p.chmed.slice(0, 9) + rng.pick(variants) });
    },
  ],
  // Truncated gzip, valid base64.
  [
    2,
    (rng, p) => {
      const gz = gzipOf(p.chmed);
      const cut = gz.subarray(0, rng.int(gz.length));
      return join({ ...p, chmed: `CHMED16A1${cut.toString('base64')}` });
    },
  ],
  // Concatenated members, trailing zeros or garbage after the member.
  [
    2,
    (rng, p) => {
      const gz = gzipOf(p.chmed);
      const tail = rng.pick([
        gz,
        gzipSync(Buffer.from('{}')),
        Buffer.alloc(rng.range(1, 64)),
        rng.bytes(rng.range(1, 64)),
        gzipSync(Buffer.alloc(0)),
      ]);
      return join({ ...p, chmed: `CHMED16A1${Buffer.concat([gz, tail]).toString('base64')}` });
    },
  ],
  // Gzip bytes edited (CRC, size, header flags), valid base64.
  [
    2,
    (rng, p) => {
      const gz = mutateBytes(rng, gzipOf(p.chmed));
      return join({ ...p, chmed: `CHMED16A1${gz.toString('base64')}` });
    },
  ],
  [2, (rng, p) => join({ ...p, chmed: rng.pick(PREFIXES) + p.chmed.slice(9) })],
  [2, (rng, p) => join({ ...p, t: rng.pick(TIMES) })],
  // Non-hex, uppercase, short or long signatures.
  [
    2,
    (rng, p) => {
      const at = rng.int(p.s.length);
      const s = rng.pick([
        p.s.slice(0, at) + rng.pick(['g', 'G', 'Z', '\u00e9', ' ', '%']) + p.s.slice(at + 1),
        p.s.toUpperCase(),
        p.s.slice(1),
        `${p.s}0`,
        p.s + p.s,
        '',
        rep('0', 128),
      ]);
      return join({ ...p, s });
    },
  ],
  // Unicode and percent junk in the issuer.
  [
    2,
    (rng, p) => {
      const at = rng.int(p.i.length + 1);
      return join({ ...p, i: p.i.slice(0, at) + rng.pick(ISSUER_JUNK) + p.i.slice(at) });
    },
  ],
  // Field order, duplicates, extra fields, fragments and base addresses.
  [
    2,
    (rng, p) =>
      rng.pick([
        `${p.base}#${p.chmed}&t=${p.t}&i=${p.i}&s=${p.s}`,
        `${p.base}#${p.chmed}&i=${p.i}&i=${p.i}&t=${p.t}&s=${p.s}`,
        `${join(p)}&x=1`,
        `${p.base}#${p.chmed}&i=${p.i}&s=${p.s}`,
        `${p.base}#${join(p)}`,
        `${join(p)}#`,
        join({
          ...p,
          base: rng.pick(['', 'ftp:x', 'http://erx.test/rx', 'javascript:x', ' ', '1:']),
        }),
        `${p.base}${p.chmed}&i=${p.i}&t=${p.t}&s=${p.s}`,
        `\ufeff\r\n ${join(p)} \t\r\n`,
        `${join(p)}\u0000`,
        join(p).replaceAll('&', '&amp;'),
      ]),
  ],
  // Random edits of the whole link.
  [5, (rng, p) => mutateTextTimes(rng, join(p), 4)],
];

/** A mutation of the valid `link`. */
export function mutateLink(rng: Prng, link: string): string {
  return rng.weighted(EDITS)(rng, split(link));
}

/** A link carrying `chmed`, signed with the server's key unless `sign` is omitted. */
export function signedLink(base: string, chmed: string, issuer: string, sign?: LinkSign): string {
  const part = `${chmed}&i=${issuer}&t=${Math.floor(Date.now() / 1000)}`;
  return `${base}#${part}&s=${sign ? sign(part) : rep('a', 128)}`;
}

/**
 * A well-signed link over a hostile document: odd `Id` types, prototype keys, deep or wide JSON,
 * an existing id with other content, `CHMED16A0` with raw JSON.
 */
export function hostileSignedLink(
  rng: Prng,
  base: string,
  knownId: string | undefined,
  sign: LinkSign,
): string {
  const json = rawDocument(rng, knownId);
  const chmed = rng.chance(0.3)
    ? `CHMED16A0${json}`
    : `CHMED16A1${gzipSync(Buffer.from(json, 'utf8')).toString('base64')}`;
  return signedLink(base, chmed, 'Dr%20Fuzz%20(HIN%7Cfuzz)', sign);
}

/** A link whose document is `depth` levels of nesting, plain or gzip. */
export function nestedLink(base: string, depth: number, gzip: boolean): string {
  const json = `{"Id":${nested(depth - 1)}}`;
  const chmed = gzip
    ? `CHMED16A1${gzipSync(Buffer.from(json)).toString('base64')}`
    : `CHMED16A0${json}`;
  return signedLink(base, chmed, 'x');
}
