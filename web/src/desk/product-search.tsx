/**
 * The desk's product search: a name typed here is looked up in the service's catalogue
 * (`GET /ePrescription/catalog`), the products found are listed as buttons, and choosing one
 * fills the medicament's GTIN. A list of buttons after a search field, with the count in a live
 * region, rather than an ARIA combobox: every step is a plain control that keyboards, screen
 * readers and touch handle alike. Without a catalogue nothing is found and the GTIN is typed as
 * before.
 */
import { createContext } from 'preact';
import { useContext, useEffect, useRef, useState } from 'preact/hooks';
import type { CatalogArticle } from '../api/types.js';
import { articleName } from '../components/product-names.js';
import { useI18n } from '../i18n/i18n-context.js';

/** Searches the catalogue with the desk's session; absent, the desk shows no product search. */
export const ProductSearchContext = createContext<
  ((query: string) => Promise<CatalogArticle[]>) | undefined
>(undefined);

/** Wait after the last key before asking the service. */
const DEBOUNCE_MS = 250;

/** Fewer characters find nothing (the service answers nothing for them either). */
const MIN_QUERY = 2;

type Found =
  | { state: 'idle' }
  | { state: 'found'; query: string; articles: CatalogArticle[] }
  | { state: 'failed' };

/**
 * The search field of medicament `index`, whose product ID is `id`; `onPick` gets the product
 * chosen. "Chosen: …" holds while the product ID is the chosen GTIN.
 */
export function ProductSearch(props: {
  index: number;
  id: string;
  onPick(article: CatalogArticle): void;
}) {
  const { t, lang } = useI18n();
  const search = useContext(ProductSearchContext);
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<Found>({ state: 'idle' });
  const [chosen, setChosen] = useState<{ name: string; gtin: string } | undefined>(undefined);
  const picked = chosen !== undefined && chosen.gtin === props.id.trim() ? chosen.name : undefined;
  const field = useRef<HTMLInputElement>(null);
  const id = `product-search-${props.index}`;
  const text = query.trim();
  useEffect(() => {
    if (search === undefined || text.length < MIN_QUERY) {
      setFound({ state: 'idle' });
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      search(text).then(
        (articles) => live && setFound({ state: 'found', query: text, articles }),
        () => live && setFound({ state: 'failed' }),
      );
    }, DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [search, text]);
  if (search === undefined) return null;
  const articles = found.state === 'found' && found.query === text ? found.articles : [];
  const status =
    picked !== undefined
      ? t('desk.productPicked', { name: picked })
      : found.state === 'failed'
        ? t('desk.productSearchFailed')
        : found.state === 'found' && found.query === text
          ? articles.length === 0
            ? t('desk.productNone')
            : t('desk.productFound', { n: articles.length })
          : '';
  return (
    <div class="field product-search">
      <label for={id}>{t('desk.productSearch')}</label>
      <input
        id={id}
        ref={field}
        type="search"
        autocomplete="off"
        spellcheck={false}
        aria-describedby={`${id}-hint ${id}-status`}
        {...(articles.length > 0 ? { 'aria-controls': `${id}-results` } : {})}
        value={query}
        onInput={(event) => {
          setQuery(event.currentTarget.value);
          setChosen(undefined);
        }}
      />
      <p class="muted small" id={`${id}-hint`}>
        {t('desk.productSearchHint')}
      </p>
      <p class="live small" id={`${id}-status`} role="status" aria-live="polite">
        {status}
      </p>
      {articles.length > 0 && (
        <ul class="product-results" id={`${id}-results`} aria-label={t('desk.productResults')}>
          {articles.map((article) => {
            const name = articleName(article, lang);
            return (
              <li key={article.gtin}>
                <button
                  type="button"
                  class="small-button"
                  data-gtin={article.gtin}
                  onClick={() => {
                    props.onPick(article);
                    setChosen({ name, gtin: article.gtin });
                    setQuery('');
                    // The button goes with the list: focus stays in the search, where
                    // "Chosen: …" is read out.
                    field.current?.focus();
                  }}
                >
                  {name} <span class="product-code">(GTIN {article.gtin})</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
