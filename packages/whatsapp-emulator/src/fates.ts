/**
 * What becomes of each message: the first fate rule that takes its recipient (the caller's rules, then
 * the built-in ones), and the statuses that fate posts, when, in which order and how often.
 */
import { createHash } from 'node:crypto';
import type { Disorder, Fate, FateRule, RecipientMatch, RefusalRule, Settings } from './options.ts';

/**
 * The built-in rules, by the recipient's last digits (the README's table): after the caller's rules,
 * and before the catch-all `read`.
 */
export const DEFAULT_FATE_RULES: readonly FateRule[] = [
  { match: { suffix: '9990' }, fate: { failed: 131026 } },
  { match: { suffix: '9991' }, fate: 'delivered' },
  { match: { suffix: '9992' }, fate: 'read-without-delivered' },
  { match: { suffix: '9993' }, fate: { failed: 131042 } },
  { match: { suffix: '9994' }, fate: 'sent' },
  { match: { suffix: '9995' }, fate: { failed: 131049 } },
  { match: '*', fate: 'read' },
];

const digitsOf = (phone: string) => phone.replace(/\D/g, '');

/** Whether `rule` takes the recipient `to` (any formatting: only digits are compared). */
export function ruleTakes(rule: { match: RecipientMatch }, to: string): boolean {
  if (rule.match === '*') return true;
  if ('suffix' in rule.match) return digitsOf(to).endsWith(rule.match.suffix);
  return digitsOf(rule.match.to) === digitsOf(to);
}

/** Where a recipient falls in [0, 1), fixed by its digits: which `share` of recipients a refusal rule takes. */
export function recipientShare(to: string): number {
  return createHash('sha256').update(digitsOf(to)).digest().readUInt32BE(0) / 2 ** 32;
}

/**
 * The refusal rule that refuses a send to `to`, if any: the first of `rules` that takes the recipient,
 * has it in its `share`, and has refused it fewer than `times` times (`refusedBefore(index)` counts them).
 */
export function refusalFor(rules: readonly RefusalRule[], to: string, refusedBefore: (index: number) => number): { rule: RefusalRule; index: number } | null {
  for (const [index, rule] of rules.entries()) {
    if (!ruleTakes(rule, to)) continue;
    if (rule.share !== undefined && recipientShare(to) >= rule.share) continue;
    if (rule.times !== undefined && refusedBefore(index) >= rule.times) continue;
    return { rule, index };
  }
  return null;
}

/** The first rule of `rules`, then of the built-in ones, that takes `to`. */
export function ruleFor(rules: readonly FateRule[], to: string): FateRule {
  // The built-in list ends with '*', so a rule is always found.
  return [...rules, ...DEFAULT_FATE_RULES].find((rule) => ruleTakes(rule, to)) as FateRule;
}

/** One status a message will post: its name, its delay after the send, and its failure when failed. */
export interface PlannedStatus {
  status: 'sent' | 'delivered' | 'read' | 'failed';
  delayMs: number;
  failure?: { code: number; title?: string };
}

/** The statuses of `fate` in the order they happen, with the delays of `settings`. */
function statusesOf(fate: Fate, settings: Pick<Settings, 'sentMs' | 'deliveredMs' | 'readMs'>): PlannedStatus[] {
  const sent: PlannedStatus = { status: 'sent', delayMs: settings.sentMs };
  const delivered: PlannedStatus = { status: 'delivered', delayMs: Math.max(settings.deliveredMs, settings.sentMs) };
  const read: PlannedStatus = { status: 'read', delayMs: Math.max(settings.readMs, settings.deliveredMs, settings.sentMs) };
  if (typeof fate === 'object') {
    return [{ status: 'failed', delayMs: delivered.delayMs, failure: { code: fate.failed, ...(fate.title ? { title: fate.title } : {}) } }];
  }
  switch (fate) {
    case 'sent':
      return [sent];
    case 'delivered':
      return [sent, delivered];
    case 'read-without-delivered':
      return [sent, read];
    default:
      return [sent, delivered, read];
  }
}

/**
 * The statuses a message posts under `rule` and `settings`: in order, or in reverse order when out of
 * order (the last happens first, a few ms apart), each twice when duplicated, all later by `lateMs`.
 */
export function planStatuses(rule: FateRule, settings: Pick<Settings, 'sentMs' | 'deliveredMs' | 'readMs' | 'disorder'>): PlannedStatus[] {
  const disorder: Disorder = {
    outOfOrder: Boolean(rule.outOfOrder ?? settings.disorder.outOfOrder),
    duplicates: Boolean(rule.duplicates ?? settings.disorder.duplicates),
    lateMs: (settings.disorder.lateMs ?? 0) + (rule.lateMs ?? 0),
  };
  let planned = statusesOf(rule.fate, settings).map((s) => ({ ...s, delayMs: s.delayMs + (disorder.lateMs ?? 0) }));
  if (disorder.outOfOrder && planned.length > 1) {
    const delays = planned.map((s) => s.delayMs);
    // The same delays, handed out backwards: the last status takes the first delay.
    planned = planned.reverse().map((s, i) => ({ ...s, delayMs: (delays[i] as number) + i }));
  }
  if (disorder.duplicates) planned = planned.flatMap((s) => [s, { ...s, delayMs: s.delayMs + 1 }]);
  return planned;
}
