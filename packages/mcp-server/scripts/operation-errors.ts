/**
 * What an error status means on the operations where it means something of its own, for the docs
 * index (scripts/build-index.ts): its per-operation error entries and the operations' error lines.
 * The codes' own words come from the contract's `specificErrorCodes`.
 */
import { specificErrorCodes } from '@engagekit/contract';

/** What a 409 means on any write: another request with its Idempotency-Key still runs. */
const IDEMPOTENCY_409 = `${specificErrorCodes.idempotency_in_progress.description} (code \`idempotency_in_progress\`)`;

/**
 * What an error status means on an operation where it means something of its own (a 409 on
 * createCampaign is a taken name; on addOrder, only a request still running). Each names the
 * contract's code where there is one; `meaningOf` falls back to the status's own description.
 */
export const OPERATION_ERRORS: Record<string, Record<number, string>> = {
  createCampaign: {
    409: `a campaign with this name already exists (code \`conflict\`, \`issues\` naming \`name\`): pick another name; or ${IDEMPOTENCY_409}`,
    400: `a field is wrong (\`issues\` names each), or (code \`template_not_usable\`) ${specificErrorCodes.template_not_usable.description}`,
  },
  pauseCampaign: { 409: `code \`campaign_status_conflict\`: ${specificErrorCodes.campaign_status_conflict.description}` },
  resumeCampaign: { 409: `code \`campaign_status_conflict\`: ${specificErrorCodes.campaign_status_conflict.description}` },
  cancelCampaign: { 409: `code \`campaign_status_conflict\`: ${specificErrorCodes.campaign_status_conflict.description}` },
  createWebhook: { 409: `code \`too_many_endpoints\`: ${specificErrorCodes.too_many_endpoints.description}; or ${IDEMPOTENCY_409}` },
  addOrder: {
    409: `only ${IDEMPOTENCY_409}. A second order with the same company_order_id is no conflict: addOrder answers 200 and updates the order`,
    403: 'the body’s company_id is not the token’s company (`issues` names `company_id` and gives the right one: client.company.get() reads it)',
  },
  updateOrder: { 403: 'the body’s company_id is not the token’s company (client.company.get() reads the right one)' },
};

/** What `status` means on `operationId` when it is not the status's own description: its own meaning, or a write's idempotency 409. */
export function operationError(operationId: string, status: number): string | undefined {
  return OPERATION_ERRORS[operationId]?.[status] ?? (status === 409 ? IDEMPOTENCY_409 : undefined);
}
