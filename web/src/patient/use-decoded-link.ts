/** The prescription of the page's own address: its fragment decoded in the browser. */
import { useEffect, useState } from 'preact/hooks';
import { decodeLink } from '../chmed/decode-link.js';
import type { DecodedLink } from '../chmed/decode-link.js';

/** The decoded link of `location`, updated when the fragment changes. */
export function useDecodedLocation(): DecodedLink {
  const [decoded, setDecoded] = useState<DecodedLink>({ state: 'decoding' });
  useEffect(() => {
    let current = 0;
    const update = (): void => {
      const run = ++current;
      if (location.hash.length <= 1) {
        setDecoded({ state: 'none' });
        return;
      }
      setDecoded({ state: 'decoding' });
      void decodeLink(location.href).then((result) => {
        if (run === current) setDecoded(result);
      });
    };
    update();
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return decoded;
}
