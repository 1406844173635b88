/**
 * The words of a text as the docs search counts them. The index is built with it at build time and
 * every query is read with it at run time, so both sides agree on what a word is.
 */

/** Words too common in the docs to tell one entry from another. */
const STOP_WORDS = new Set(
  'a an and are as at be by can do does for from get has have how i in is it its me my of on or so that the their them then there this to was what when where which who will with you your'.split(
    ' ',
  ),
);

/** A word without the endings that only inflect it: `campaigns`, `scheduled`, `scheduling` -> `campaign`, `schedul`. */
export function stem(word: string): string {
  if (word.length <= 3) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('ing') && word.length > 5) return trimE(word.slice(0, -3));
  if (word.endsWith('ed') && word.length > 4) return trimE(word.slice(0, -2));
  if (word.endsWith('es') && /(?:ch|sh|x|ss)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) return trimE(word.slice(0, -1));
  return trimE(word);
}

/** `schedule` and `schedul` (from `scheduled`) are one stem. */
function trimE(word: string): string {
  return word.length > 4 && word.endsWith('e') ? word.slice(0, -1) : word;
}

/**
 * The stems of `text`, in order: identifiers are split at case changes, underscores and dots
 * (`createCampaign`, `schedule_type`, `campaigns.create`), stop words dropped.
 *
 * @example tokenize('Schedule a campaign') // ['schedul', 'campaign']
 */
export function tokenize(text: string): string[] {
  const spaced = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
  const out: string[] = [];
  for (const raw of spaced.toLowerCase().split(/[^a-z0-9]+/)) {
    if (raw.length < 2 || STOP_WORDS.has(raw)) continue;
    out.push(stem(raw));
  }
  return out;
}

/** How often each stem of `text` occurs, each occurrence counted `weight` times, added into `into`. */
export function countTerms(text: string, weight: number, into: Record<string, number> = {}): Record<string, number> {
  for (const term of tokenize(text)) into[term] = (into[term] ?? 0) + weight;
  return into;
}
