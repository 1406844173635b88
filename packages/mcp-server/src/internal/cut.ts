/** Cutting text to a bound, with a marker that gives its full length. */

/** `text`, or its first `max` characters and a marker with its full length. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… [cut: ${text.length.toLocaleString('en-US')} characters in all]`;
}
