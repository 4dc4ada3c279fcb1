/**
 * The one entry point to `@peculiar/x509`: its dependency container needs the Reflect metadata
 * polyfill loaded before the library itself, and it must use Node's WebCrypto. Every erx module
 * that builds or reads certificates imports `x509` from here, never from the package directly.
 */
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(globalThis.crypto);

export { x509 };
