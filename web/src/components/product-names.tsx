/**
 * Product names beside GTINs, where the service's catalogue knows them (`erx catalog import`):
 * {@link ProductNames} asks the service once for the GTINs of a prescription's medicaments, and
 * {@link MedicamentName} shows a medicament as "name (GTIN …)", or as before ("GTIN …") when
 * the catalogue does not know it, has not answered, or is not loaded. Asked without a token: the
 * patient view has none, and the GTINs are already in the link that verify is sent.
 */
import type { ComponentChildren } from 'preact';
import { createContext } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import { gtin13 } from '../../../src/catalog/gtin.js';
import { productNames } from '../api/catalog.js';
import type { CatalogArticle } from '../api/types.js';
import { useI18n } from '../i18n/i18n-context.js';
import { medicamentLabel } from './medicament-label.js';

/** The names the catalogue answered, by GTIN-13. */
type Names = ReadonlyMap<string, CatalogArticle>;

const NONE: Names = new Map();

const NamesContext = createContext<Names>(NONE);

/** The valid GTINs among `medicaments` (id type 2), each once, in a stable order. */
function gtinsOf(medicaments: readonly { id: string; idType?: number | undefined }[]): string[] {
  const gtins = new Set<string>();
  for (const m of medicaments) {
    const gtin = m.idType === 2 ? gtin13(m.id) : undefined;
    if (gtin !== undefined) gtins.add(gtin);
  }
  return [...gtins].sort();
}

/** Looks up the names of the GTINs of `medicaments` for the medicaments shown in `children`. */
export function ProductNames(props: {
  medicaments: readonly { id: string; idType?: number | undefined }[];
  children: ComponentChildren;
}) {
  const gtins = gtinsOf(props.medicaments);
  const key = gtins.join(',');
  const [found, setFound] = useState<{ key: string; names: Names }>({ key: '', names: NONE });
  useEffect(() => {
    if (key === '') return;
    let live = true;
    productNames(key.split(',')).then(
      (articles) => live && setFound({ key, names: new Map(articles.map((a) => [a.gtin, a])) }),
      // No answer: the GTINs show as they always did.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [key]);
  const names = found.key === key ? found.names : NONE;
  return <NamesContext.Provider value={names}>{props.children}</NamesContext.Provider>;
}

/** The name of an article in the page's language (French in French, else German). */
export function articleName(article: CatalogArticle, lang: string): string {
  return lang === 'fr' ? article.name_fr : article.name_de;
}

/** The catalogue's name of a medicament, when it has one. */
export function useProductName(id: string, idType: number | undefined): string | undefined {
  const names = useContext(NamesContext);
  const { lang } = useI18n();
  const gtin = idType === 2 ? gtin13(id) : undefined;
  const article = gtin === undefined ? undefined : names.get(gtin);
  return article && articleName(article, lang);
}

/** A medicament as the page names it: the catalogue's name beside its code, or the code alone. */
export function MedicamentName(props: { id: string; idType: number | undefined }) {
  const { t } = useI18n();
  const name = useProductName(props.id, props.idType);
  const code = medicamentLabel(props.id, props.idType, t);
  if (name === undefined) return <>{code}</>;
  return (
    <>
      <span class="product-name">{name}</span> <span class="product-code">({code})</span>
    </>
  );
}
