/**
 * The prescription of the page's own address: its fragment decoded in the browser. A fragment
 * that holds one part of a prescription on several QR codes waits for the other parts, read from
 * images on this page; the link in one piece they make is then decoded as any other.
 */
import { useEffect, useState } from 'preact/hooks';
import { decodeLink } from '../chmed/decode-link.js';
import type { DecodedLink } from '../chmed/decode-link.js';
import { usePartCollector } from '../components/parts-progress.js';
import type { PartCollector } from '../components/parts-progress.js';

/** The decoded link of `link`; `none` while there is none. */
function useDecodedLink(link: string | undefined): DecodedLink {
  const [decoded, setDecoded] = useState<DecodedLink>({ state: 'decoding' });
  useEffect(() => {
    let current = true;
    if (link === undefined) {
      setDecoded({ state: 'none' });
      return undefined;
    }
    setDecoded({ state: 'decoding' });
    void decodeLink(link).then((result) => {
      if (current) setDecoded(result);
    });
    return () => {
      current = false;
    };
  }, [link]);
  return decoded;
}

/** The decoded link of `location` (or of the parts read), and the reader of further parts. */
export function useDecodedLocation(): { decoded: DecodedLink; parts: PartCollector } {
  const [link, setLink] = useState<string | undefined>(undefined);
  const parts = usePartCollector(setLink);
  useEffect(() => {
    const update = (): void => {
      setLink(undefined);
      parts.reset();
      if (location.hash.length > 1) parts.read(location.href);
    };
    update();
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return { decoded: useDecodedLink(link), parts };
}
