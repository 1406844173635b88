export type { EmulatorState } from './controls.ts';
export type { EmulatedMessage, RefusedSend } from './core.ts';
export { createWhatsAppEmulator, type WhatsAppEmulator } from './emulator.ts';
export { DEFAULT_FATE_RULES } from './fates.ts';
export type { GraphError } from './graph-errors.ts';
export { CONTROL_PREFIX } from './http.ts';
export {
  DEFAULT_SETTINGS,
  type Disorder,
  EmulatorOptionsError,
  type Fate,
  type FateRule,
  type RecipientMatch,
  type RefusalRule,
  type ReviewRule,
  type SeedTemplate,
  type Settings,
  type TemplateEvent,
  type WhatsAppEmulatorOptions,
} from './options.ts';
export { DEFAULT_REVIEW_RULES, type EmulatedTemplate, type TemplateStatus } from './templates.ts';
export { signBody, type WebhookAttempt, type WebhookPost } from './webhook-outbox.ts';
