/** How a medicament is named: free text as it is, codes with their kind (GTIN, Pharmacode). */
import type { I18n } from '../i18n/i18n-context.js';

/** The name of an id type: 1 free text, 2 GTIN, 3 Pharmacode (seed §2.2). */
export function idTypeLabel(idType: number | undefined, t: I18n['t']): string {
  if (idType === 2) return t('med.idType.2');
  if (idType === 3) return t('med.idType.3');
  return t('med.idType.1');
}

/** The label of a medicament or substitute id of `idType`: codes prefixed with their kind. */
export function medicamentLabel(id: string, idType: number | undefined, t: I18n['t']): string {
  return idType === 2 || idType === 3 ? `${idTypeLabel(idType, t)} ${id}` : id;
}
