// Generated from openapi.yaml by openapi-typescript. Do not edit.
export interface paths {
    "/agency/sync": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sync the company
         * @description Re-derives customers from orders, refreshes campaign statuses and report aggregates, and answers with what changed. The answer carries `status: true` beside `success`, as the public docs show. Needs a company token with the `agency` scope.
         */
        post: operations["sync"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agency/template": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Submit a template
         * @description Stores or updates the template `(template_name, phone_number)`. With `wam_id` its status is `submitted` until WhatsApp reports its review (`approved`, `rejected`, `paused`, `disabled`); without it, `failed` with a reason. Needs a company token with the `agency` scope.
         */
        post: operations["submitTemplate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/companies/{uuid}/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List templates
         * @description The company’s templates, oldest first (by creation time, then in the order they were made), each with its status at WhatsApp and the reason of a failure, rejection or flag. Takes the admin token, or a company token of this company with the `agency` scope.
         */
        get: operations["listTemplates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agency/createCampaign": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a campaign
         * @description Creates a broadcast campaign. `days` is required for `recurring`. Every variable the template declares in `header_variable` / `body_variable` needs a value in `variables`, and every value must be declared; otherwise the answer is a 400 naming the variable. Names are unique per company (409). A server that sends through WhatsApp also requires the template to be usable: submitted by the company (on any phone number) and not every submission of it `rejected`, `paused`, `disabled` or `failed`; otherwise a 400 with code `template_not_usable`. Needs a company token with the `agency` scope.
         */
        post: operations["createCampaign"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agency/getCampaignData": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List campaigns
         * @description Pages through the company’s campaigns, oldest first (in the order they were made), so pages stay stable while new campaigns arrive. Needs a company token with the `agency` scope.
         */
        get: operations["getCampaignData"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agency/getCampaign/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a campaign
         * @description One campaign of the company. An unknown id answers 404. Needs a company token with the `agency` scope.
         */
        get: operations["getCampaign"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/companies/{uuid}/campaigns/{id}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause a campaign
         * @description Pauses a `scheduled` or `running` campaign, with `pause_reason` `paused by the company`. A running campaign stops after the messages already in flight; the rest wait, unsent, until `resumeCampaign`. Pausing a paused campaign answers it as it is. Any other status answers 409 with code `campaign_status_conflict`; an unknown id, 404. Takes the admin token, or a company token of this company with the `agency` scope.
         */
        post: operations["pauseCampaign"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/companies/{uuid}/campaigns/{id}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a campaign
         * @description Resumes a `paused` campaign: a run it paused goes on (`running`), sending what it had not sent, each customer still messaged at most once a run; a campaign paused before its run waits for it again, due at once when its time passed meanwhile. A campaign that is not paused but waits or runs is answered as it is. A `completed`, `failed` or `cancelled` one answers 409 with code `campaign_status_conflict`; an unknown id, 404. Takes the admin token, or a company token of this company with the `agency` scope.
         */
        post: operations["resumeCampaign"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/companies/{uuid}/campaigns/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a campaign
         * @description Cancels a `scheduled`, `running` or `paused` campaign for good: it sends nothing more (a running one stops after the messages already in flight), a recurring one never runs again, `next_run_at` becomes null and `endDate` the day it was cancelled. Cancelling a cancelled campaign answers it as it is. A `completed` or `failed` one answers 409 with code `campaign_status_conflict`; an unknown id, 404. Takes the admin token, or a company token of this company with the `agency` scope.
         */
        post: operations["cancelCampaign"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agency/getCustomers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List customers
         * @description Pages through the company’s customers (the people its orders name, keyed by phone number, and any imported), oldest first: by creation time, then in the order they were made (customers imported in one batch come in the batch’s order). `paging` gives the previous and next page numbers. Needs a company token with the `agency` scope.
         */
        get: operations["getCustomers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agency/reportingCampaign": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the campaign report
         * @description Campaign counts by status, message outcomes, customers and orders, with a per-campaign breakdown. A company without customers answers 404 "Users not found with the provided uuid". Needs a company token with the `agency` scope.
         */
        get: operations["reportingCampaign"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/order/addOrder": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add or update an order
         * @description Inserts the order, or updates it when `(company_id, company_order_id)` exists: 201 when created, 200 when updated. `company_id` must be the token’s company (403 otherwise). Needs a company token with the `orders` scope.
         */
        post: operations["addOrder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/order/updateOrder/{orderId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Update an order
         * @description Updates the fields given of the order whose `company_order_id` is `orderId`, within the body’s `company_id`, which must be the token’s company (403 otherwise) and never changes. An unknown order is a 404. PATCH and POST are accepted too. Needs a company token with the `orders` scope.
         */
        put: operations["updateOrder"];
        /**
         * Update an order (POST)
         * @description The same as `updateOrder`, accepted with POST for compatibility. Updates the fields given of the order whose `company_order_id` is `orderId`, within the body’s `company_id`, which must be the token’s company (403 otherwise) and never changes. An unknown order is a 404. PATCH and POST are accepted too. Needs a company token with the `orders` scope.
         */
        post: operations["updateOrderWithPost"];
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update an order (PATCH)
         * @description The same as `updateOrder`, accepted with PATCH for compatibility. Updates the fields given of the order whose `company_order_id` is `orderId`, within the body’s `company_id`, which must be the token’s company (403 otherwise) and never changes. An unknown order is a 404. PATCH and POST are accepted too. Needs a company token with the `orders` scope.
         */
        patch: operations["updateOrderWithPatch"];
        trace?: never;
    };
    "/api/v2/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Health check
         * @description Whether the server and its database answer. Public.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/health/live": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness probe
         * @description Answers 200 while the process can serve, without asking the database: a load balancer or orchestrator restarts an instance that stops answering it. Public.
         */
        get: operations["getLiveness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/health/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness probe
         * @description Answers 200 while the instance takes traffic, and 503 while its database does not answer (`database_unavailable`) or while it drains before it stops (`draining`, for `DRAIN_DELAY_MS` after SIGTERM): a load balancer sends requests only to instances that answer 200. Public.
         */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/companies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List companies
         * @description Pages through every company, oldest first.
         */
        get: operations["listCompanies"];
        put?: never;
        /**
         * Create a company
         * @description Creates a company with a fresh UUID. `company_id` (the code orders carry) is generated when absent and must be unique (409).
         */
        post: operations["createCompany"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/companies/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a company
         * @description One company by UUID, with its `company_id` (what order calls name). The admin token reads any company; a company token with the `agency` scope reads its own. Takes the admin token, or a company token of this company with the `agency` scope.
         */
        get: operations["getCompany"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/companies/{uuid}/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a company’s tokens
         * @description Pages through the tokens issued to the company since the server kept them, oldest first: id (`jti`), scopes, times, and `revoked_at`. Never the token text. Tokens issued before tokens were kept are not listed; `revokeCompanyTokens` refuses them too.
         */
        get: operations["listTokens"];
        put?: never;
        /**
         * Issue a company token
         * @description Issues a JWT for the company’s agency and order calls, with scopes (both when none are asked for) and an expiry. The server keeps its `id`, scopes and times (never its text), for `listTokens` and `revokeToken`.
         */
        post: operations["createToken"];
        /**
         * Revoke every token of a company
         * @description Refuses every token of the company issued until now, listed or not (tokens issued before tokens were kept, and the mock’s ready token, included): the company’s tokens are valid only after `tokens_valid_after`. Within 5 seconds every instance answers them 401 "the token has been revoked". Tokens issued afterwards work.
         */
        delete: operations["revokeCompanyTokens"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/companies/{uuid}/tokens/{tokenId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a token
         * @description Revokes one token by its id (`jti`): within 5 seconds every instance answers it 401 "the token has been revoked". Revoking a revoked token answers it as it is. An id the company has no token of answers 404.
         */
        delete: operations["revokeToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/companies/{uuid}/customers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import customers
         * @description Adds customers who have no orders yet, keyed by phone number; an existing customer is updated.
         */
        post: operations["importCustomers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/companies/{uuid}/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook endpoints
         * @description The company’s webhook endpoints, oldest first (by creation time, then in the order they were made: two made in the same millisecond come in that order). Takes the admin token, or a company token of this company with the `orders` scope.
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Register a webhook endpoint
         * @description Registers a URL to receive the company’s order events, signed per the Standard Webhooks spec with the returned `secret`. Loopback, private, link-local and metadata addresses are refused unless the server allows private targets. A company has at most 20 endpoints unless the server sets another cap; past it, a 409 with code `too_many_endpoints`. Takes the admin token, or a company token of this company with the `orders` scope.
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/companies/{uuid}/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a webhook endpoint
         * @description One endpoint, with its secret. Takes the admin token, or a company token of this company with the `orders` scope.
         */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook endpoint
         * @description Deletes the endpoint; pending deliveries to it are dropped. Takes the admin token, or a company token of this company with the `orders` scope.
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        /**
         * Update a webhook endpoint
         * @description Changes the URL, event filter, description, or enables and disables the endpoint. A disabled endpoint receives nothing. Takes the admin token, or a company token of this company with the `orders` scope.
         */
        patch: operations["updateWebhook"];
        trace?: never;
    };
    "/api/v2/companies/{uuid}/webhooks/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate a webhook secret
         * @description Makes a new signing secret. During the grace period deliveries carry signatures by both the old and the new secret. Takes the admin token, or a company token of this company with the `orders` scope.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/companies/{uuid}/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test event
         * @description Queues a sample event (`test: true`) to this endpoint, whatever its event filter, and answers with the delivery. Takes the admin token, or a company token of this company with the `orders` scope.
         */
        post: operations["sendTestEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/companies/{uuid}/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List deliveries
         * @description The delivery log of the endpoint, newest first, with every attempt (status, latency, response excerpt). Takes the admin token, or a company token of this company with the `orders` scope.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/companies/{uuid}/webhooks/{id}/deliveries/{deliveryId}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Redeliver
         * @description Queues the delivery again, now, with the same event id and payload. Takes the admin token, or a company token of this company with the `orders` scope.
         */
        post: operations["redeliverWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    orderEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An order event
         * @description An order was added (`order.created`) or updated (`order.updated`); the endpoint receives the types it subscribed to. Signed per the Standard Webhooks spec; verify it with `verifyWebhook` from `@engagekit/sdk/webhooks`. Delivery is at least once: drop duplicates by `webhook-id`.
         */
        post: operations["orderEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        TemplateSubmission: {
            /**
             * @description The WhatsApp template name.
             * @example savetem
             */
            template_name: string;
            /**
             * @description The sending phone number, as the messaging account knows it.
             * @example 6363978748
             */
            phone_number: string;
            /**
             * @description The WhatsApp message-template id; without it the template is recorded as failed.
             * @example wamkskdfj-lkskfdkskf
             */
            wam_id?: string;
        };
        NewCampaign: {
            /**
             * @description Campaign name, unique within the company.
             * @example temp3
             */
            name: string;
            schedule_type: components["schemas"]["ScheduleType"];
            /**
             * @description When a `once` campaign runs; when a `recurring` one starts.
             * @example 2025-01-15T10:00:00Z
             */
            schedule: string;
            /** @description Required for `recurring`: the weekdays and times it runs. */
            days?: components["schemas"]["Days"];
            template_payload: components["schemas"]["TemplatePayload"];
        };
        /**
         * @example once
         * @enum {string}
         */
        ScheduleType: "once" | "recurring";
        /**
         * @description Weekday to times of day (24h HH:MM).
         * @example {
         *       "monday": [
         *         "09:00",
         *         "18:30"
         *       ],
         *       "friday": [
         *         "10:00"
         *       ]
         *     }
         */
        Days: {
            monday?: string[];
            tuesday?: string[];
            wednesday?: string[];
            thursday?: string[];
            friday?: string[];
            saturday?: string[];
            sunday?: string[];
        };
        /** @description The template a campaign sends, with its variables and their values. */
        TemplatePayload: {
            /**
             * @description The WhatsApp template name.
             * @example carousel_offer
             */
            template_name: string;
            /**
             * @description Default: `"en"`.
             * @example en
             */
            language?: string;
            /**
             * @description Variables the template header declares. Default: `[]`.
             * @example []
             */
            header_variable?: string[];
            /**
             * @description Variables the template body declares. Default: `[]`.
             * @example [
             *       "first_name"
             *     ]
             */
            body_variable?: string[];
            /**
             * @description A value for every declared variable, and only for those. A value may use `{{customer.firstName}}`, `{{customer.lastName}}`, `{{customer.name}}` or `{{customer.phoneNumber}}`. Default: `{}`.
             * @example {
             *       "first_name": "{{customer.firstName}}"
             *     }
             */
            variables?: {
                [key: string]: string;
            };
            /** @description Carousel cards, for carousel templates. */
            cards?: components["schemas"]["CarouselCard"][];
        };
        CarouselCard: {
            /**
             * Format: uri
             * @example https://example.com/image1.jpg
             */
            card_image_url: string;
            /**
             * @description Default: `[]`.
             * @example [
             *       "10%"
             *     ]
             */
            card_body_variables?: string[];
        };
        NewOrder: {
            /**
             * @description The company code.
             * @example VERPL000972024
             */
            company_id: string;
            /**
             * @description The company's own order id.
             * @example ORD-001
             */
            company_order_id: string;
            /**
             * @description Order total, >= 0.
             * @example 1500.75
             */
            totalAmount: number;
            /**
             * @description Customer first name.
             * @example John
             */
            firstName: string;
            /**
             * @description Phone number in E.164 form: "+" then 7 to 15 digits.
             * @example +1234567890
             */
            phoneNumber: string;
            /**
             * @description Shipping postal code.
             * @example 56789
             */
            postalCode: string;
            /**
             * @description Shipping street address.
             * @example 123 Main Street
             */
            streetAddress1: string;
            /**
             * @description Customer last name.
             * @example Doe
             */
            lastName?: string;
            /**
             * Format: email
             * @example john.doe@example.com
             */
            email?: string;
            /**
             * @description Shipping address, second line.
             * @example Apt 4B
             */
            streetAddress2?: string;
            /**
             * @description Shipping city.
             * @example Springfield
             */
            city?: string;
            /**
             * @description Shipping state.
             * @example Illinois
             */
            state?: string;
            /**
             * @description Delivery instructions.
             * @example Leave package at the front door.
             */
            specialInstructions?: string;
            products?: components["schemas"]["Product"][];
            /**
             * @description Billing street address.
             * @example 456 Elm Street
             */
            billingStreetAddress1?: string;
            /**
             * @description Billing address, second line.
             * @example Suite 202
             */
            billingStreetAddress2?: string;
            /**
             * @description Billing city.
             * @example Springfield
             */
            billingCity?: string;
            /**
             * @description Billing state.
             * @example Illinois
             */
            billingState?: string;
            /**
             * @description Billing postal code.
             * @example 56789
             */
            billingPostalCode?: string;
            /**
             * Format: date
             * @description Calendar date, YYYY-MM-DD, from 0001-01-01.
             * @example 2024-11-15
             */
            companyOrderDate?: string;
            /**
             * Format: date
             * @description Calendar date, YYYY-MM-DD, from 0001-01-01.
             * @example 2024-11-20
             */
            companyOrderDueDate?: string;
            /**
             * @description Delivery status.
             * @example Pending
             */
            companyOrderDeliveryStatus?: string;
            /**
             * @description Payment reference.
             * @example PAY-123456
             */
            companyOrderPaymentReference?: string;
            /**
             * @description Order status.
             * @example Processing
             */
            companyOrderStatus?: string;
            /**
             * @description Order description.
             * @example Order description details
             */
            companyOrderDescription?: string;
            /**
             * @description Free-form object. Nested at most 32 levels, at most 1000 keys and items in all, strings and keys at most 10000 characters.
             * @example {
             *       "giftWrap": true
             *     }
             */
            company_order_other_attributes_1?: {
                [key: string]: unknown;
            };
            /**
             * @description Free-form object. Nested at most 32 levels, at most 1000 keys and items in all, strings and keys at most 10000 characters.
             * @example {
             *       "priorityDelivery": false
             *     }
             */
            company_order_other_attributes_2?: {
                [key: string]: unknown;
            };
        };
        Product: {
            /**
             * @description Product id (a number is kept as text).
             * @example 101
             */
            product_id: string | number;
            /** @example 2 */
            quantity: number;
            /**
             * @description Amount, >= 0.
             * @example 500
             */
            price: number;
        };
        OrderChanges: {
            /**
             * @description The company code.
             * @example VERPL000972024
             */
            company_id: string;
            /**
             * @description Order total, >= 0.
             * @example 1500.75
             */
            totalAmount?: number;
            /**
             * @description Customer first name.
             * @example John
             */
            firstName?: string;
            /**
             * @description Phone number in E.164 form: "+" then 7 to 15 digits.
             * @example +1234567890
             */
            phoneNumber?: string;
            /**
             * @description Shipping postal code.
             * @example 56789
             */
            postalCode?: string;
            /**
             * @description Shipping street address.
             * @example 123 Main Street
             */
            streetAddress1?: string;
            /**
             * @description Customer last name.
             * @example Doe
             */
            lastName?: string;
            /**
             * Format: email
             * @example john.doe@example.com
             */
            email?: string;
            /**
             * @description Shipping address, second line.
             * @example Apt 4B
             */
            streetAddress2?: string;
            /**
             * @description Shipping city.
             * @example Springfield
             */
            city?: string;
            /**
             * @description Shipping state.
             * @example Illinois
             */
            state?: string;
            /**
             * @description Delivery instructions.
             * @example Leave package at the front door.
             */
            specialInstructions?: string;
            products?: components["schemas"]["Product"][];
            /**
             * @description Billing street address.
             * @example 456 Elm Street
             */
            billingStreetAddress1?: string;
            /**
             * @description Billing address, second line.
             * @example Suite 202
             */
            billingStreetAddress2?: string;
            /**
             * @description Billing city.
             * @example Springfield
             */
            billingCity?: string;
            /**
             * @description Billing state.
             * @example Illinois
             */
            billingState?: string;
            /**
             * @description Billing postal code.
             * @example 56789
             */
            billingPostalCode?: string;
            /**
             * Format: date
             * @description Calendar date, YYYY-MM-DD, from 0001-01-01.
             * @example 2024-11-15
             */
            companyOrderDate?: string;
            /**
             * Format: date
             * @description Calendar date, YYYY-MM-DD, from 0001-01-01.
             * @example 2024-11-20
             */
            companyOrderDueDate?: string;
            /**
             * @description Delivery status.
             * @example Pending
             */
            companyOrderDeliveryStatus?: string;
            /**
             * @description Payment reference.
             * @example PAY-123456
             */
            companyOrderPaymentReference?: string;
            /**
             * @description Order status.
             * @example Processing
             */
            companyOrderStatus?: string;
            /**
             * @description Order description.
             * @example Order description details
             */
            companyOrderDescription?: string;
            /**
             * @description Free-form object. Nested at most 32 levels, at most 1000 keys and items in all, strings and keys at most 10000 characters.
             * @example {
             *       "giftWrap": true
             *     }
             */
            company_order_other_attributes_1?: {
                [key: string]: unknown;
            };
            /**
             * @description Free-form object. Nested at most 32 levels, at most 1000 keys and items in all, strings and keys at most 10000 characters.
             * @example {
             *       "priorityDelivery": false
             *     }
             */
            company_order_other_attributes_2?: {
                [key: string]: unknown;
            };
        };
        NewCompany: {
            /**
             * @description Company name.
             * @example Verma Retail
             */
            name: string;
            /**
             * @description The company code orders carry; generated when absent.
             * @example VERPL000972024
             */
            company_id?: string;
            /**
             * @description IANA time zone for recurring campaign times. Default: `"UTC"`.
             * @example Asia/Kolkata
             */
            timezone?: string;
        };
        TokenRequest: {
            /**
             * @description Both when absent.
             * @example [
             *       "agency",
             *       "orders"
             *     ]
             */
            scopes?: components["schemas"]["Scope"][];
            /**
             * @description Lifetime in seconds; 30 days when left out. Default: `2592000`.
             * @example 2592000
             */
            expires_in?: number;
        };
        /**
         * @description `agency` for the agency operations, `orders` for the order operations and webhooks (their events are orders).
         * @enum {string}
         */
        Scope: "agency" | "orders";
        CustomerImportBatch: {
            customers: components["schemas"]["CustomerImport"][];
        };
        CustomerImport: {
            /**
             * @description Phone number in E.164 form: "+" then 7 to 15 digits.
             * @example +1234567890
             */
            phoneNumber: string;
            /**
             * @description First name.
             * @example Asha
             */
            firstName: string;
            /**
             * @description Last name.
             * @example Rao
             */
            lastName?: string;
            /**
             * Format: email
             * @example asha@example.com
             */
            email?: string;
        };
        NewWebhookEndpoint: {
            /**
             * Format: uri
             * @description Where deliveries are POSTed: http(s) to a public address.
             * @example https://hooks.partner.example/engagekit
             */
            url: string;
            /**
             * @description Event types to receive; every type when empty or absent. Default: `[]`.
             * @example [
             *       "order.created",
             *       "order.updated"
             *     ]
             */
            events?: components["schemas"]["EventType"][];
            /**
             * @description Default: `""`.
             * @example Order sync to our warehouse
             */
            description?: string;
            /** @description Default: `true`. */
            enabled?: boolean;
        };
        /**
         * @example order.created
         * @enum {string}
         */
        EventType: "order.created" | "order.updated";
        WebhookEndpointChanges: {
            /**
             * Format: uri
             * @description Where deliveries are POSTed: http(s) to a public address.
             * @example https://hooks.partner.example/engagekit
             */
            url?: string;
            /**
             * @description Event types to receive; every type when empty or absent.
             * @example [
             *       "order.created",
             *       "order.updated"
             *     ]
             */
            events?: components["schemas"]["EventType"][];
            /** @example Order sync to our warehouse */
            description?: string;
            enabled?: boolean;
        };
        SecretRotation: {
            /**
             * @description How long the old secret still signs beside the new one; 24 h when left out. Default: `86400`.
             * @example 86400
             */
            grace_period_s?: number;
        };
        TestEventRequest: {
            /** @description The type of the sample event. Default: `"order.created"`. */
            event_type?: components["schemas"]["EventType"];
        };
        /**
         * @example succeeded
         * @enum {string}
         */
        DeliveryStatus: "pending" | "succeeded" | "failed";
        SyncEnvelope: {
            /** @constant */
            success: true;
            /** @constant */
            status: true;
            /** @example Sync Complete */
            message: string;
            data: components["schemas"]["SyncResult"];
        };
        /** @description What the sync re-derived and changed. */
        SyncResult: {
            customers: components["schemas"]["SyncedCustomers"];
            campaigns: components["schemas"]["SyncedCampaigns"];
            /**
             * Format: date-time
             * @description ISO-8601 UTC timestamp written by the server.
             * @example 2025-01-15T10:00:00.000Z
             */
            synced_at: string;
        };
        /** @description Customers after the sync, and how many it created, updated and removed. */
        SyncedCustomers: {
            /** @example 40 */
            total: number;
            /** @example 3 */
            created: number;
            /** @example 1 */
            updated: number;
            /** @example 0 */
            removed: number;
        };
        /** @description Campaigns after the sync, and how many changed status. */
        SyncedCampaigns: {
            /** @example 3 */
            total: number;
            /** @example 1 */
            updated: number;
        };
        /** @description The error envelope. */
        ErrorEnvelope: {
            /** @constant */
            success: false;
            /**
             * @description What went wrong, for a person.
             * @example Invalid request: phoneNumber must be an E.164 phone number
             */
            message: string;
            /**
             * @description Machine-readable error code: `validation_error`, `unauthorized`, `forbidden`, `not_found`, `method_not_allowed`, `conflict`, `payload_too_large`, `unsupported_media_type`, `rate_limited`, `internal_error`, `unavailable`, `idempotency_key_reused` (400: the Idempotency-Key was used before with another request), `template_not_usable` (400: createCampaign on a server that sends through WhatsApp: the company never submitted the template, or every submission of it is `rejected`, `paused`, `disabled` or `failed`), `idempotency_in_progress` (409: a request with this Idempotency-Key is still running; retry after `Retry-After`), `campaign_status_conflict` (409: pauseCampaign, resumeCampaign or cancelCampaign on a campaign whose status does not allow it (a completed campaign cannot be paused); the message names the status and what is allowed), `too_many_endpoints` (409: the company has as many webhook endpoints as the server allows (20 unless it sets another cap); delete one first), `database_unavailable` (503: the database refuses connections or every connection stayed busy; retry after `Retry-After`), `draining` (503: getReadiness while the instance drains before it stops; send requests to another instance). More may follow; treat an unknown code like its status.
             * @example validation_error
             */
            code: string;
            /** @description The offending fields, on 400: the first 100 found at most (`issues_total` counts them all). */
            issues?: components["schemas"]["Issue"][];
            /**
             * @description How many offending fields were found, beside `issues`, which lists at most 100 of them.
             * @example 1
             */
            issues_total?: number;
            /**
             * @description The request id, also in the x-request-id header.
             * @example req_5f3c9b2e8a1d4c67
             */
            requestId: string;
            /**
             * @description Sync answers carry `status` beside `success`, for compatibility.
             * @constant
             */
            status?: false;
        };
        Issue: {
            /**
             * @description The offending field, dot-separated (e.g. `template_payload.variables.first_name`); empty for the whole input.
             * @example phoneNumber
             */
            path: string;
            /**
             * @description What is wrong with it.
             * @example must be an E.164 phone number: "+" then 7 to 15 digits, e.g. "+1234567890"
             */
            message: string;
        };
        TemplateEnvelope: {
            /** @constant */
            success: true;
            /** @example Template data processed successfully */
            message: string;
            data: components["schemas"]["Template"];
        };
        Template: {
            /**
             * @description Opaque identifier.
             * @example tpl_01JD4Z8Q3T5V
             */
            id: string;
            /** @example savetem */
            template_name: string;
            /** @example 6363978748 */
            phone_number: string;
            /** @example wamkskdfj-lkskfdkskf */
            wam_id: string | null;
            status: components["schemas"]["TemplateStatus"];
            /**
             * @description Set when the template `failed` (why), when WhatsApp rejected it (its reason) and when WhatsApp flagged it (its reason, the status unchanged); null otherwise.
             * @example null
             */
            reason: string | null;
            /**
             * Format: date-time
             * @description ISO-8601 UTC timestamp written by the server.
             * @example 2025-01-15T10:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO-8601 UTC timestamp written by the server.
             * @example 2025-01-15T10:00:00.000Z
             */
            updated_at: string;
        };
        /**
         * @description `submitted`: given with a `wam_id`, in review at WhatsApp (its PENDING). `approved`, `rejected`, `paused`, `disabled`: as WhatsApp last reported it (a reinstated template is `approved` again). `failed`: submitted without a `wam_id`.
         * @example submitted
         * @enum {string}
         */
        TemplateStatus: "submitted" | "approved" | "rejected" | "paused" | "disabled" | "failed";
        TemplateListEnvelope: {
            /** @constant */
            success: true;
            /** @example Templates retrieved successfully. */
            message: string;
            data: components["schemas"]["Template"][];
            pagination: components["schemas"]["Pagination"];
        };
        /** @description Where this page sits in the list. */
        Pagination: {
            /**
             * @description Items in the whole list.
             * @example 100
             */
            total: number;
            /**
             * @description This page, from 1.
             * @example 1
             */
            page: number;
            /**
             * @description Items a page.
             * @example 10
             */
            limit: number;
            /**
             * @description Pages in the whole list.
             * @example 10
             */
            totalPages: number;
        };
        CampaignEnvelope: {
            /** @constant */
            success: true;
            /** @example Successfully fetched campaign data. */
            message: string;
            data: components["schemas"]["Campaign"];
        };
        /** @description A broadcast campaign. */
        Campaign: {
            /**
             * @description Opaque identifier.
             * @example cmp_01JD4Z8Q3T5V
             */
            id: string;
            /**
             * Format: uuid
             * @description The company UUID.
             * @example 53d1bcd3-aaf0-45e1-9298-5395b6a27b61
             */
            uuid: string;
            /** @example temp3 */
            name: string;
            status: components["schemas"]["CampaignStatus"];
            /**
             * @description Why the campaign is paused, null unless it is: `paused by the company` after pauseCampaign; a provider error’s code and template when the provider refused the template.
             * @example null
             */
            pause_reason: string | null;
            /**
             * @description Why the campaign failed, null unless it did: the provider’s error code when a configuration problem (the access token, a permission, the account, payment, the sending number) ended its run, or `every message of its run failed`.
             * @example null
             */
            failure_reason: string | null;
            schedule_type: components["schemas"]["ScheduleType"];
            /**
             * Format: date-time
             * @description ISO-8601 UTC timestamp written by the server.
             * @example 2025-01-15T10:00:00.000Z
             */
            schedule: string;
            days: components["schemas"]["Days"] | null;
            template_payload: components["schemas"]["StoredTemplatePayload"];
            /**
             * Format: date
             * @description The date of `schedule` (UTC).
             * @example 2024-11-15
             */
            startDate: string;
            /**
             * @description The date the campaign ended, null while it has not.
             * @example null
             */
            endDate: string | null;
            /** @description When it runs next, null when it will not. */
            next_run_at: string | null;
            /**
             * Format: date-time
             * @description ISO-8601 UTC timestamp written by the server.
             * @example 2025-01-15T10:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO-8601 UTC timestamp written by the server.
             * @example 2025-01-15T10:00:00.000Z
             */
            updated_at: string;
        };
        /**
         * @description scheduled -> running -> completed; paused, failed or cancelled where they apply.
         * @example scheduled
         * @enum {string}
         */
        CampaignStatus: "scheduled" | "running" | "completed" | "paused" | "failed" | "cancelled";
        CampaignListEnvelope: {
            /** @constant */
            success: true;
            /** @example Campaigns retrieved successfully. */
            message: string;
            data: components["schemas"]["Campaign"][];
            pagination: components["schemas"]["Pagination"];
        };
        CustomerListEnvelope: {
            /** @constant */
            success: true;
            /** @example Customer data fetched successfully */
            message: string;
            data: components["schemas"]["Customer"][];
            paging: components["schemas"]["Paging"];
            /**
             * @description Customers in the whole list.
             * @example 40
             */
            total: number;
        };
        Customer: {
            /**
             * @description Opaque identifier.
             * @example cus_01JD4Z8Q3T5V
             */
            id: string;
            /**
             * @description First and last name.
             * @example Customer A
             */
            name: string;
            /** @example Customer */
            firstName: string;
            /** @example A */
            lastName: string | null;
            /** @example customerA@example.com */
            email: string | null;
            /** @example +1234567890 */
            phoneNumber: string;
            source: components["schemas"]["CustomerSource"];
            /** @example 2 */
            orders_count: number;
            /**
             * @description Sum of the totals of their orders.
             * @example 2500.75
             */
            orders_amount: number;
            /**
             * Format: date-time
             * @description ISO-8601 UTC timestamp written by the server.
             * @example 2025-01-15T10:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO-8601 UTC timestamp written by the server.
             * @example 2025-01-15T10:00:00.000Z
             */
            updated_at: string;
        };
        /**
         * @description Where the customer came from.
         * @example orders
         * @enum {string}
         */
        CustomerSource: "orders" | "import";
        /** @description Previous and next page numbers. */
        Paging: {
            /**
             * @description The previous page number, null on the first page.
             * @example 1
             */
            before: number | null;
            /**
             * @description The next page number, null on the last page.
             * @example 3
             */
            after: number | null;
        };
        ReportEnvelope: {
            /** @constant */
            success: true;
            /** @example Report retrieved successfully. */
            message: string;
            data: components["schemas"]["Report"];
        };
        Report: {
            campaigns: components["schemas"]["CampaignCounts"];
            messages: components["schemas"]["MessageCounts"];
            customers: components["schemas"]["CustomerCounts"];
            orders: components["schemas"]["OrderTotals"];
            /** @description The newest campaigns, up to 100, newest first, with their message outcomes. */
            campaigns_detail: components["schemas"]["CampaignReportRow"][];
            /**
             * Format: date-time
             * @description ISO-8601 UTC timestamp written by the server.
             * @example 2025-01-15T10:00:00.000Z
             */
            generated_at: string;
        };
        /** @description The company’s campaigns. */
        CampaignCounts: {
            /** @example 3 */
            total: number;
            by_status: components["schemas"]["CampaignStatusCounts"];
        };
        /** @description Campaigns in each status. */
        CampaignStatusCounts: {
            /** @example 0 */
            scheduled: number;
            /** @example 0 */
            running: number;
            /** @example 0 */
            completed: number;
            /** @example 0 */
            paused: number;
            /** @example 0 */
            failed: number;
            /** @example 0 */
            cancelled: number;
        };
        MessageCounts: {
            /**
             * @description Messages recorded.
             * @example 120
             */
            total: number;
            /**
             * @description Accepted by the channel (includes delivered and read).
             * @example 115
             */
            sent: number;
            /**
             * @description Delivered to the phone (includes read).
             * @example 110
             */
            delivered: number;
            /**
             * @description Read by the customer.
             * @example 80
             */
            read: number;
            /**
             * @description Not sent.
             * @example 5
             */
            failed: number;
        };
        /** @description The company’s customers. */
        CustomerCounts: {
            /** @example 40 */
            total: number;
        };
        /** @description The company’s orders. */
        OrderTotals: {
            /** @example 57 */
            total: number;
            /**
             * @description Sum of the order totals.
             * @example 85432.5
             */
            amount: number;
        };
        CampaignReportRow: {
            /**
             * @description Opaque identifier.
             * @example cmp_01JD4Z8Q3T5V
             */
            id: string;
            /** @example temp3 */
            name: string;
            status: components["schemas"]["CampaignStatus"];
            /**
             * @description Times it has run.
             * @example 1
             */
            runs: number;
            last_run_at: string | null;
            messages: components["schemas"]["MessageCounts"];
            /** @description Failed messages by the provider’s error code: the 20 most frequent, most frequent first. */
            failed_by_code: components["schemas"]["FailureCount"][];
        };
        FailureCount: {
            /**
             * @description The provider’s error code (WhatsApp’s), or null for failures without one (no answer, an interrupted hand-off).
             * @example 131026
             */
            code: number | null;
            /** @example 3 */
            count: number;
        };
        OrderEnvelope: {
            /** @constant */
            success: true;
            /** @example Order created successfully. */
            message: string;
            data: components["schemas"]["Order"];
        };
        /** @description An order as stored. */
        Order: {
            /**
             * @description Opaque identifier.
             * @example ord_01JD4Z8Q3T5V
             */
            id: string;
            /** @example VERPL000972024 */
            company_id: string;
            /** @example ORD-001 */
            company_order_id: string;
            /** @example 1500.75 */
            totalAmount: number;
            /** @example John */
            firstName: string;
            /** @example +1234567890 */
            phoneNumber: string;
            /** @example 56789 */
            postalCode: string;
            /** @example 123 Main Street */
            streetAddress1: string;
            /** @example Doe */
            lastName: string | null;
            /** @example john.doe@example.com */
            email: string | null;
            /** @example Apt 4B */
            streetAddress2: string | null;
            /** @example Springfield */
            city: string | null;
            /** @example Illinois */
            state: string | null;
            /** @example Leave package at the front door. */
            specialInstructions: string | null;
            products: components["schemas"]["OrderProduct"][];
            /** @example 456 Elm Street */
            billingStreetAddress1: string | null;
            /** @example Suite 202 */
            billingStreetAddress2: string | null;
            /** @example Springfield */
            billingCity: string | null;
            /** @example Illinois */
            billingState: string | null;
            /** @example 56789 */
            billingPostalCode: string | null;
            /** @example 2024-11-15 */
            companyOrderDate: string | null;
            /** @example 2024-11-20 */
            companyOrderDueDate: string | null;
            /** @example Pending */
            companyOrderDeliveryStatus: string | null;
            /** @example PAY-123456 */
            companyOrderPaymentReference: string | null;
            /** @example Processing */
            companyOrderStatus: string | null;
            /** @example Order description details */
            companyOrderDescription: string | null;
            /**
             * @example {
             *       "giftWrap": true
             *     }
             */
            company_order_other_attributes_1: {
                [key: string]: unknown;
            } | null;
            /**
             * @example {
             *       "priorityDelivery": false
             *     }
             */
            company_order_other_attributes_2: {
                [key: string]: unknown;
            } | null;
            /**
             * @description Starts at 1 and grows with every update.
             * @example 1
             */
            version: number;
            /**
             * Format: date-time
             * @description ISO-8601 UTC timestamp written by the server.
             * @example 2025-01-15T10:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO-8601 UTC timestamp written by the server.
             * @example 2025-01-15T10:00:00.000Z
             */
            updated_at: string;
        };
        /** @description A product of an order as stored. */
        OrderProduct: {
            /** @example 101 */
            product_id: string;
            /** @example 2 */
            quantity: number;
            /** @example 500 */
            price: number;
        };
        HealthEnvelope: {
            /** @constant */
            success: true;
            /** @example OK */
            message: string;
            data: components["schemas"]["Health"];
        };
        Health: {
            status: components["schemas"]["HealthStatus"];
            database: components["schemas"]["DatabaseStatus"];
            /**
             * @description The server's own version (its package's), which changes with every release of the server.
             * @example 1.4.0
             */
            version: string;
            /**
             * @description The version of the API it serves: `info.version` of the OpenAPI document at `/openapi.json`.
             * @example 0.1.0
             */
            api_version: string;
            /** @example 12.5 */
            uptime_s: number;
        };
        /**
         * @description Whether the server is fully up.
         * @example ok
         * @enum {string}
         */
        HealthStatus: "ok" | "degraded";
        /**
         * @description Whether the database answers.
         * @example ok
         * @enum {string}
         */
        DatabaseStatus: "ok" | "unavailable";
        LivenessEnvelope: {
            /** @constant */
            success: true;
            /** @example OK */
            message: string;
            data: components["schemas"]["Liveness"];
        };
        Liveness: {
            /**
             * @description Always `live`: an answer at all is the news.
             * @example live
             * @constant
             */
            status: "live";
        };
        ReadinessEnvelope: {
            /** @constant */
            success: true;
            /** @example OK */
            message: string;
            data: components["schemas"]["Readiness"];
        };
        Readiness: {
            /**
             * @description Always `ready`; a server that is not answers 503.
             * @example ready
             * @constant
             */
            status: "ready";
        };
        CompanyEnvelope: {
            /** @constant */
            success: true;
            /** @example Company retrieved successfully. */
            message: string;
            data: components["schemas"]["Company"];
        };
        Company: {
            /**
             * Format: uuid
             * @description The company UUID.
             * @example 53d1bcd3-aaf0-45e1-9298-5395b6a27b61
             */
            uuid: string;
            /** @example VERPL000972024 */
            company_id: string;
            /** @example Verma Retail */
            name: string;
            /** @example Asia/Kolkata */
            timezone: string;
            /**
             * Format: date-time
             * @description ISO-8601 UTC timestamp written by the server.
             * @example 2025-01-15T10:00:00.000Z
             */
            created_at: string;
        };
        CompanyListEnvelope: {
            /** @constant */
            success: true;
            /** @example Companies retrieved successfully. */
            message: string;
            data: components["schemas"]["Company"][];
            pagination: components["schemas"]["Pagination"];
        };
        TokenEnvelope: {
            /** @constant */
            success: true;
            /** @example Token issued. */
            message: string;
            data: components["schemas"]["Token"];
        };
        Token: {
            /**
             * @description The token’s id: its `jti` claim.
             * @example 7f9c2e4a-1b3d-4c5e-8f6a-0b1c2d3e4f5a
             */
            id: string;
            /**
             * @description A JWT for `Authorization: Bearer`.
             * @example eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI1M2QxYmNkMyJ9.c2lnbmF0dXJl
             */
            token: string;
            /** @constant */
            token_type: "Bearer";
            /**
             * @example [
             *       "agency",
             *       "orders"
             *     ]
             */
            scopes: components["schemas"]["Scope"][];
            /**
             * Format: date-time
             * @description ISO-8601 UTC timestamp written by the server.
             * @example 2025-01-15T10:00:00.000Z
             */
            expires_at: string;
        };
        IssuedTokenListEnvelope: {
            /** @constant */
            success: true;
            /** @example Tokens retrieved successfully. */
            message: string;
            data: components["schemas"]["IssuedToken"][];
            pagination: components["schemas"]["Pagination"];
        };
        IssuedToken: {
            /**
             * @description The token’s id: its `jti` claim.
             * @example 7f9c2e4a-1b3d-4c5e-8f6a-0b1c2d3e4f5a
             */
            id: string;
            /**
             * @example [
             *       "agency",
             *       "orders"
             *     ]
             */
            scopes: components["schemas"]["Scope"][];
            /**
             * Format: date-time
             * @description ISO-8601 UTC timestamp written by the server.
             * @example 2025-01-15T10:00:00.000Z
             */
            issued_at: string;
            /**
             * Format: date-time
             * @description ISO-8601 UTC timestamp written by the server.
             * @example 2025-01-15T10:00:00.000Z
             */
            expires_at: string;
            /** @description When it was revoked (one by one, or with every token of the company); null while it is not. */
            revoked_at: string | null;
        };
        TokensRevokedEnvelope: {
            /** @constant */
            success: true;
            /** @example Tokens revoked. */
            message: string;
            data: components["schemas"]["TokensRevoked"];
        };
        TokensRevoked: {
            /**
             * Format: date-time
             * @description Tokens of the company issued until this time (at or before it) are refused (401), whether or not they are listed.
             * @example 2025-01-15T10:00:00.000Z
             */
            tokens_valid_after: string;
            /**
             * @description Listed tokens that this call revoked.
             * @example 3
             */
            revoked: number;
        };
        IssuedTokenEnvelope: {
            /** @constant */
            success: true;
            /** @example Token revoked. */
            message: string;
            data: components["schemas"]["IssuedToken"];
        };
        ImportCustomersEnvelope: {
            /** @constant */
            success: true;
            /** @example Customers imported. */
            message: string;
            data: components["schemas"]["ImportCustomersResult"];
        };
        ImportCustomersResult: {
            /** @example 1 */
            created: number;
            /** @example 0 */
            updated: number;
        };
        WebhookEnvelope: {
            /** @constant */
            success: true;
            /** @example Webhook retrieved successfully. */
            message: string;
            data: components["schemas"]["WebhookEndpoint"];
        };
        WebhookEndpoint: {
            /**
             * @description Opaque identifier.
             * @example wh_01JD4Z8Q3T5V
             */
            id: string;
            /** @example https://hooks.partner.example/engagekit */
            url: string;
            /** @example Order sync to our warehouse */
            description: string;
            events: components["schemas"]["EventType"][];
            /** @example true */
            enabled: boolean;
            /**
             * @description Why the server disabled it (e.g. the receiver answered 410).
             * @example null
             */
            disabled_reason: string | null;
            /**
             * @description Signing secret, `whsec_` then base64.
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
             */
            secret: string;
            /**
             * Format: date-time
             * @description ISO-8601 UTC timestamp written by the server.
             * @example 2025-01-15T10:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO-8601 UTC timestamp written by the server.
             * @example 2025-01-15T10:00:00.000Z
             */
            updated_at: string;
        };
        WebhookListEnvelope: {
            /** @constant */
            success: true;
            /** @example Webhooks retrieved successfully. */
            message: string;
            data: components["schemas"]["WebhookEndpoint"][];
            pagination: components["schemas"]["Pagination"];
        };
        DeletedEnvelope: {
            /** @constant */
            success: true;
            /** @example Webhook deleted. */
            message: string;
            data: components["schemas"]["Deleted"];
        };
        Deleted: {
            /** @example wh_01JD4Z8Q3T5V */
            id: string;
            /** @constant */
            deleted: true;
        };
        RotatedSecretEnvelope: {
            /** @constant */
            success: true;
            /** @example Secret rotated. */
            message: string;
            data: components["schemas"]["RotatedSecret"];
        };
        RotatedSecret: {
            /**
             * @description Signing secret, `whsec_` then base64.
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
             */
            secret: string;
            previous_secret_expires_at: string | null;
        };
        DeliveryEnvelope: {
            /** @constant */
            success: true;
            /** @example Delivery queued. */
            message: string;
            data: components["schemas"]["Delivery"];
        };
        Delivery: {
            /**
             * @description Opaque identifier.
             * @example dlv_01JD4Z8Q3T5V
             */
            id: string;
            /** @example wh_01JD4Z8Q3T5V */
            endpoint_id: string;
            /** @example evt_01JD4Z8Q3T5V */
            event_id: string;
            /** @example order.created */
            event_type: string;
            status: components["schemas"]["DeliveryStatus"];
            /** @example 1 */
            attempt_count: number;
            next_attempt_at: string | null;
            /**
             * Format: date-time
             * @description ISO-8601 UTC timestamp written by the server.
             * @example 2025-01-15T10:00:00.000Z
             */
            created_at: string;
            attempts: components["schemas"]["DeliveryAttempt"][];
        };
        DeliveryAttempt: {
            /** @example 1 */
            attempt: number;
            /**
             * Format: date-time
             * @description ISO-8601 UTC timestamp written by the server.
             * @example 2025-01-15T10:00:00.000Z
             */
            started_at: string;
            /**
             * @description The receiver’s HTTP status, null when no answer came.
             * @example 200
             */
            status_code: number | null;
            /** @example 42 */
            latency_ms: number;
            /**
             * @description The first bytes of the answer.
             * @example ok
             */
            response_excerpt: string | null;
            /**
             * @description Connection error or timeout, when no answer came.
             * @example null
             */
            error: string | null;
        };
        DeliveryListEnvelope: {
            /** @constant */
            success: true;
            /** @example Deliveries retrieved successfully. */
            message: string;
            data: components["schemas"]["Delivery"][];
            pagination: components["schemas"]["Pagination"];
        };
        /** @description The template a campaign sends, with its variables and their values. */
        StoredTemplatePayload: {
            /**
             * @description The WhatsApp template name.
             * @example carousel_offer
             */
            template_name: string;
            /**
             * @default en
             * @example en
             */
            language: string;
            /**
             * @description Variables the template header declares.
             * @default []
             * @example []
             */
            header_variable: string[];
            /**
             * @description Variables the template body declares.
             * @default []
             * @example [
             *       "first_name"
             *     ]
             */
            body_variable: string[];
            /**
             * @description A value for every declared variable, and only for those. A value may use `{{customer.firstName}}`, `{{customer.lastName}}`, `{{customer.name}}` or `{{customer.phoneNumber}}`.
             * @default {}
             * @example {
             *       "first_name": "{{customer.firstName}}"
             *     }
             */
            variables: {
                [key: string]: string;
            };
            /** @description Carousel cards, for carousel templates. */
            cards?: components["schemas"]["CampaignCarouselCard"][];
        };
        CampaignCarouselCard: {
            /**
             * Format: uri
             * @example https://example.com/image1.jpg
             */
            card_image_url: string;
            /**
             * @default []
             * @example [
             *       "10%"
             *     ]
             */
            card_body_variables: string[];
        };
        /** @description Any event the server sends, told apart by `type`. */
        WebhookEvent: components["schemas"]["OrderCreatedEvent"] | components["schemas"]["OrderUpdatedEvent"];
        /** @description An order was added. */
        OrderCreatedEvent: {
            /**
             * @description Event id; also the `webhook-id` header. Use it to drop duplicates.
             * @example evt_01JD4Z8Q3T5V
             */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "order.created";
            /**
             * Format: date-time
             * @description ISO-8601 UTC timestamp written by the server.
             * @example 2025-01-15T10:00:00.000Z
             */
            created_at: string;
            data: components["schemas"]["OrderEventDetail"];
            /** @description True on test events sent from the admin API or the settings page. */
            test?: boolean;
        };
        /** @description What an order event is about. */
        OrderEventDetail: {
            /** @description The order as it was right after the change. */
            order: components["schemas"]["Order"];
        };
        /** @description An order was updated. */
        OrderUpdatedEvent: {
            /**
             * @description Event id; also the `webhook-id` header. Use it to drop duplicates.
             * @example evt_01JD4Z8Q3T5V
             */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "order.updated";
            /**
             * Format: date-time
             * @description ISO-8601 UTC timestamp written by the server.
             * @example 2025-01-15T10:00:00.000Z
             */
            created_at: string;
            data: components["schemas"]["OrderEventDetail"];
            /** @description True on test events sent from the admin API or the settings page. */
            test?: boolean;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description The request id, also in error bodies; quote it when asking for help. */
        RequestId: string;
        /** @description Seconds to wait before trying again. */
        RetryAfter: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    sync: {
        parameters: {
            query: {
                /** @description The company UUID. The server also accepts it as a path prefix: `/{uuid}/agency/...`. */
                uuid: string;
            };
            header?: {
                /** @description Makes a retried write safe: the first request with the key runs, and a retry with the same key and request answers as it did (with `idempotent-replayed: true`) for a day. The same key with another request is a 400; while the first still runs, a 409. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Sync Complete. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SyncEnvelope"];
                };
            };
            /** @description The input is invalid (a field, a query parameter given twice, a body that is not valid UTF-8 or not JSON, a reused Idempotency-Key, a campaign template that is not usable: `template_not_usable`); `issues` names the offending fields (the first 100; `issues_total` counts them all). */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is missing, malformed, expired or badly signed. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is valid but for another company, or lacks the scope. */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unknown company or resource. */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The resource already exists, a limit is reached (`too_many_endpoints`), or a request with the same Idempotency-Key is still running (then with `Retry-After`: the same request, sent again after it, gets its answer). */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests for this company (its tokens count together) or the admin token: the server allows 1,200 requests a minute per company unless it is set otherwise (`RATE_LIMIT_PER_MINUTE`, counted per instance). Wait `Retry-After` seconds; the SDK does, and retries a 429 twice by default. */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Something failed on the server; nothing internal is said. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The database is unavailable: it refuses connections, or every connection stayed busy past a bounded wait (code `database_unavailable`); or the server is not ready. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    submitTemplate: {
        parameters: {
            query: {
                /** @description The company UUID. The server also accepts it as a path prefix: `/{uuid}/agency/...`. */
                uuid: string;
            };
            header?: {
                /** @description Makes a retried write safe: the first request with the key runs, and a retry with the same key and request answers as it did (with `idempotent-replayed: true`) for a day. The same key with another request is a 400; while the first still runs, a 409. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TemplateSubmission"];
            };
        };
        responses: {
            /** @description Template data processed successfully. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TemplateEnvelope"];
                };
            };
            /** @description The input is invalid (a field, a query parameter given twice, a body that is not valid UTF-8 or not JSON, a reused Idempotency-Key, a campaign template that is not usable: `template_not_usable`); `issues` names the offending fields (the first 100; `issues_total` counts them all). */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is missing, malformed, expired or badly signed. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is valid but for another company, or lacks the scope. */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unknown company or resource. */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The resource already exists, a limit is reached (`too_many_endpoints`), or a request with the same Idempotency-Key is still running (then with `Retry-After`: the same request, sent again after it, gets its answer). */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is over 1 MB. */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON, or its Content-Type names a charset other than UTF-8 (`utf-8` or `utf8`, in any case). */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests for this company (its tokens count together) or the admin token: the server allows 1,200 requests a minute per company unless it is set otherwise (`RATE_LIMIT_PER_MINUTE`, counted per instance). Wait `Retry-After` seconds; the SDK does, and retries a 429 twice by default. */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Something failed on the server; nothing internal is said. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The database is unavailable: it refuses connections, or every connection stayed busy past a bounded wait (code `database_unavailable`); or the server is not ready. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listTemplates: {
        parameters: {
            query?: {
                /** @description Page number, from 1. */
                page?: number;
                /** @description Items a page, 1 to 100. */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The company UUID. */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of templates. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TemplateListEnvelope"];
                };
            };
            /** @description The input is invalid (a field, a query parameter given twice, a body that is not valid UTF-8 or not JSON, a reused Idempotency-Key, a campaign template that is not usable: `template_not_usable`); `issues` names the offending fields (the first 100; `issues_total` counts them all). */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is missing, malformed, expired or badly signed. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is valid but for another company, or lacks the scope. */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unknown company or resource. */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests for this company (its tokens count together) or the admin token: the server allows 1,200 requests a minute per company unless it is set otherwise (`RATE_LIMIT_PER_MINUTE`, counted per instance). Wait `Retry-After` seconds; the SDK does, and retries a 429 twice by default. */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Something failed on the server; nothing internal is said. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The database is unavailable: it refuses connections, or every connection stayed busy past a bounded wait (code `database_unavailable`); or the server is not ready. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createCampaign: {
        parameters: {
            query: {
                /** @description The company UUID. The server also accepts it as a path prefix: `/{uuid}/agency/...`. */
                uuid: string;
            };
            header?: {
                /** @description Makes a retried write safe: the first request with the key runs, and a retry with the same key and request answers as it did (with `idempotent-replayed: true`) for a day. The same key with another request is a 400; while the first still runs, a 409. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewCampaign"];
            };
        };
        responses: {
            /** @description The campaign was created. */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CampaignEnvelope"];
                };
            };
            /** @description The input is invalid (a field, a query parameter given twice, a body that is not valid UTF-8 or not JSON, a reused Idempotency-Key, a campaign template that is not usable: `template_not_usable`); `issues` names the offending fields (the first 100; `issues_total` counts them all). */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is missing, malformed, expired or badly signed. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is valid but for another company, or lacks the scope. */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unknown company or resource. */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The resource already exists, a limit is reached (`too_many_endpoints`), or a request with the same Idempotency-Key is still running (then with `Retry-After`: the same request, sent again after it, gets its answer). */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is over 1 MB. */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON, or its Content-Type names a charset other than UTF-8 (`utf-8` or `utf8`, in any case). */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests for this company (its tokens count together) or the admin token: the server allows 1,200 requests a minute per company unless it is set otherwise (`RATE_LIMIT_PER_MINUTE`, counted per instance). Wait `Retry-After` seconds; the SDK does, and retries a 429 twice by default. */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Something failed on the server; nothing internal is said. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The database is unavailable: it refuses connections, or every connection stayed busy past a bounded wait (code `database_unavailable`); or the server is not ready. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getCampaignData: {
        parameters: {
            query: {
                /** @description The company UUID. The server also accepts it as a path prefix: `/{uuid}/agency/...`. */
                uuid: string;
                /** @description Page number, from 1. */
                page?: number;
                /** @description Items a page, 1 to 100. */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of campaigns. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CampaignListEnvelope"];
                };
            };
            /** @description The input is invalid (a field, a query parameter given twice, a body that is not valid UTF-8 or not JSON, a reused Idempotency-Key, a campaign template that is not usable: `template_not_usable`); `issues` names the offending fields (the first 100; `issues_total` counts them all). */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is missing, malformed, expired or badly signed. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is valid but for another company, or lacks the scope. */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unknown company or resource. */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests for this company (its tokens count together) or the admin token: the server allows 1,200 requests a minute per company unless it is set otherwise (`RATE_LIMIT_PER_MINUTE`, counted per instance). Wait `Retry-After` seconds; the SDK does, and retries a 429 twice by default. */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Something failed on the server; nothing internal is said. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The database is unavailable: it refuses connections, or every connection stayed busy past a bounded wait (code `database_unavailable`); or the server is not ready. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getCampaign: {
        parameters: {
            query: {
                /** @description The company UUID. The server also accepts it as a path prefix: `/{uuid}/agency/...`. */
                uuid: string;
            };
            header?: never;
            path: {
                /** @description The campaign id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The campaign. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CampaignEnvelope"];
                };
            };
            /** @description The input is invalid (a field, a query parameter given twice, a body that is not valid UTF-8 or not JSON, a reused Idempotency-Key, a campaign template that is not usable: `template_not_usable`); `issues` names the offending fields (the first 100; `issues_total` counts them all). */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is missing, malformed, expired or badly signed. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is valid but for another company, or lacks the scope. */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unknown company or resource. */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests for this company (its tokens count together) or the admin token: the server allows 1,200 requests a minute per company unless it is set otherwise (`RATE_LIMIT_PER_MINUTE`, counted per instance). Wait `Retry-After` seconds; the SDK does, and retries a 429 twice by default. */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Something failed on the server; nothing internal is said. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The database is unavailable: it refuses connections, or every connection stayed busy past a bounded wait (code `database_unavailable`); or the server is not ready. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    pauseCampaign: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried write safe: the first request with the key runs, and a retry with the same key and request answers as it did (with `idempotent-replayed: true`) for a day. The same key with another request is a 400; while the first still runs, a 409. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The company UUID. */
                uuid: string;
                /** @description The campaign id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The campaign, paused. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CampaignEnvelope"];
                };
            };
            /** @description The input is invalid (a field, a query parameter given twice, a body that is not valid UTF-8 or not JSON, a reused Idempotency-Key, a campaign template that is not usable: `template_not_usable`); `issues` names the offending fields (the first 100; `issues_total` counts them all). */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is missing, malformed, expired or badly signed. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is valid but for another company, or lacks the scope. */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unknown company or resource. */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The resource already exists, a limit is reached (`too_many_endpoints`), or a request with the same Idempotency-Key is still running (then with `Retry-After`: the same request, sent again after it, gets its answer). */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests for this company (its tokens count together) or the admin token: the server allows 1,200 requests a minute per company unless it is set otherwise (`RATE_LIMIT_PER_MINUTE`, counted per instance). Wait `Retry-After` seconds; the SDK does, and retries a 429 twice by default. */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Something failed on the server; nothing internal is said. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The database is unavailable: it refuses connections, or every connection stayed busy past a bounded wait (code `database_unavailable`); or the server is not ready. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    resumeCampaign: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried write safe: the first request with the key runs, and a retry with the same key and request answers as it did (with `idempotent-replayed: true`) for a day. The same key with another request is a 400; while the first still runs, a 409. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The company UUID. */
                uuid: string;
                /** @description The campaign id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The campaign, resumed. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CampaignEnvelope"];
                };
            };
            /** @description The input is invalid (a field, a query parameter given twice, a body that is not valid UTF-8 or not JSON, a reused Idempotency-Key, a campaign template that is not usable: `template_not_usable`); `issues` names the offending fields (the first 100; `issues_total` counts them all). */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is missing, malformed, expired or badly signed. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is valid but for another company, or lacks the scope. */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unknown company or resource. */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The resource already exists, a limit is reached (`too_many_endpoints`), or a request with the same Idempotency-Key is still running (then with `Retry-After`: the same request, sent again after it, gets its answer). */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests for this company (its tokens count together) or the admin token: the server allows 1,200 requests a minute per company unless it is set otherwise (`RATE_LIMIT_PER_MINUTE`, counted per instance). Wait `Retry-After` seconds; the SDK does, and retries a 429 twice by default. */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Something failed on the server; nothing internal is said. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The database is unavailable: it refuses connections, or every connection stayed busy past a bounded wait (code `database_unavailable`); or the server is not ready. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    cancelCampaign: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried write safe: the first request with the key runs, and a retry with the same key and request answers as it did (with `idempotent-replayed: true`) for a day. The same key with another request is a 400; while the first still runs, a 409. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The company UUID. */
                uuid: string;
                /** @description The campaign id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The campaign, cancelled. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CampaignEnvelope"];
                };
            };
            /** @description The input is invalid (a field, a query parameter given twice, a body that is not valid UTF-8 or not JSON, a reused Idempotency-Key, a campaign template that is not usable: `template_not_usable`); `issues` names the offending fields (the first 100; `issues_total` counts them all). */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is missing, malformed, expired or badly signed. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is valid but for another company, or lacks the scope. */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unknown company or resource. */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The resource already exists, a limit is reached (`too_many_endpoints`), or a request with the same Idempotency-Key is still running (then with `Retry-After`: the same request, sent again after it, gets its answer). */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests for this company (its tokens count together) or the admin token: the server allows 1,200 requests a minute per company unless it is set otherwise (`RATE_LIMIT_PER_MINUTE`, counted per instance). Wait `Retry-After` seconds; the SDK does, and retries a 429 twice by default. */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Something failed on the server; nothing internal is said. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The database is unavailable: it refuses connections, or every connection stayed busy past a bounded wait (code `database_unavailable`); or the server is not ready. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getCustomers: {
        parameters: {
            query: {
                /** @description The company UUID. The server also accepts it as a path prefix: `/{uuid}/agency/...`. */
                uuid: string;
                /** @description Page number, from 1. */
                page?: number;
                /** @description Items a page, 1 to 100. */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of customers. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomerListEnvelope"];
                };
            };
            /** @description The input is invalid (a field, a query parameter given twice, a body that is not valid UTF-8 or not JSON, a reused Idempotency-Key, a campaign template that is not usable: `template_not_usable`); `issues` names the offending fields (the first 100; `issues_total` counts them all). */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is missing, malformed, expired or badly signed. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is valid but for another company, or lacks the scope. */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unknown company or resource. */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests for this company (its tokens count together) or the admin token: the server allows 1,200 requests a minute per company unless it is set otherwise (`RATE_LIMIT_PER_MINUTE`, counted per instance). Wait `Retry-After` seconds; the SDK does, and retries a 429 twice by default. */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Something failed on the server; nothing internal is said. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The database is unavailable: it refuses connections, or every connection stayed busy past a bounded wait (code `database_unavailable`); or the server is not ready. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    reportingCampaign: {
        parameters: {
            query: {
                /** @description The company UUID. The server also accepts it as a path prefix: `/{uuid}/agency/...`. */
                uuid: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReportEnvelope"];
                };
            };
            /** @description The input is invalid (a field, a query parameter given twice, a body that is not valid UTF-8 or not JSON, a reused Idempotency-Key, a campaign template that is not usable: `template_not_usable`); `issues` names the offending fields (the first 100; `issues_total` counts them all). */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is missing, malformed, expired or badly signed. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is valid but for another company, or lacks the scope. */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unknown company or resource. */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests for this company (its tokens count together) or the admin token: the server allows 1,200 requests a minute per company unless it is set otherwise (`RATE_LIMIT_PER_MINUTE`, counted per instance). Wait `Retry-After` seconds; the SDK does, and retries a 429 twice by default. */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Something failed on the server; nothing internal is said. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The database is unavailable: it refuses connections, or every connection stayed busy past a bounded wait (code `database_unavailable`); or the server is not ready. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    addOrder: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried write safe: the first request with the key runs, and a retry with the same key and request answers as it did (with `idempotent-replayed: true`) for a day. The same key with another request is a 400; while the first still runs, a 409. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewOrder"];
            };
        };
        responses: {
            /** @description The order existed and was updated. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrderEnvelope"];
                };
            };
            /** @description The order was created. */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrderEnvelope"];
                };
            };
            /** @description The input is invalid (a field, a query parameter given twice, a body that is not valid UTF-8 or not JSON, a reused Idempotency-Key, a campaign template that is not usable: `template_not_usable`); `issues` names the offending fields (the first 100; `issues_total` counts them all). */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is missing, malformed, expired or badly signed. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is valid but for another company, or lacks the scope. */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The resource already exists, a limit is reached (`too_many_endpoints`), or a request with the same Idempotency-Key is still running (then with `Retry-After`: the same request, sent again after it, gets its answer). */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is over 1 MB. */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON, or its Content-Type names a charset other than UTF-8 (`utf-8` or `utf8`, in any case). */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests for this company (its tokens count together) or the admin token: the server allows 1,200 requests a minute per company unless it is set otherwise (`RATE_LIMIT_PER_MINUTE`, counted per instance). Wait `Retry-After` seconds; the SDK does, and retries a 429 twice by default. */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Something failed on the server; nothing internal is said. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The database is unavailable: it refuses connections, or every connection stayed busy past a bounded wait (code `database_unavailable`); or the server is not ready. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateOrder: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried write safe: the first request with the key runs, and a retry with the same key and request answers as it did (with `idempotent-replayed: true`) for a day. The same key with another request is a 400; while the first still runs, a 409. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The company's own order id (company_order_id). */
                orderId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OrderChanges"];
            };
        };
        responses: {
            /** @description The updated order. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrderEnvelope"];
                };
            };
            /** @description The input is invalid (a field, a query parameter given twice, a body that is not valid UTF-8 or not JSON, a reused Idempotency-Key, a campaign template that is not usable: `template_not_usable`); `issues` names the offending fields (the first 100; `issues_total` counts them all). */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is missing, malformed, expired or badly signed. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is valid but for another company, or lacks the scope. */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unknown company or resource. */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The resource already exists, a limit is reached (`too_many_endpoints`), or a request with the same Idempotency-Key is still running (then with `Retry-After`: the same request, sent again after it, gets its answer). */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is over 1 MB. */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON, or its Content-Type names a charset other than UTF-8 (`utf-8` or `utf8`, in any case). */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests for this company (its tokens count together) or the admin token: the server allows 1,200 requests a minute per company unless it is set otherwise (`RATE_LIMIT_PER_MINUTE`, counted per instance). Wait `Retry-After` seconds; the SDK does, and retries a 429 twice by default. */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Something failed on the server; nothing internal is said. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The database is unavailable: it refuses connections, or every connection stayed busy past a bounded wait (code `database_unavailable`); or the server is not ready. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateOrderWithPost: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried write safe: the first request with the key runs, and a retry with the same key and request answers as it did (with `idempotent-replayed: true`) for a day. The same key with another request is a 400; while the first still runs, a 409. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The company's own order id (company_order_id). */
                orderId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OrderChanges"];
            };
        };
        responses: {
            /** @description The updated order. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrderEnvelope"];
                };
            };
            /** @description The input is invalid (a field, a query parameter given twice, a body that is not valid UTF-8 or not JSON, a reused Idempotency-Key, a campaign template that is not usable: `template_not_usable`); `issues` names the offending fields (the first 100; `issues_total` counts them all). */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is missing, malformed, expired or badly signed. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is valid but for another company, or lacks the scope. */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unknown company or resource. */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The resource already exists, a limit is reached (`too_many_endpoints`), or a request with the same Idempotency-Key is still running (then with `Retry-After`: the same request, sent again after it, gets its answer). */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is over 1 MB. */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON, or its Content-Type names a charset other than UTF-8 (`utf-8` or `utf8`, in any case). */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests for this company (its tokens count together) or the admin token: the server allows 1,200 requests a minute per company unless it is set otherwise (`RATE_LIMIT_PER_MINUTE`, counted per instance). Wait `Retry-After` seconds; the SDK does, and retries a 429 twice by default. */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Something failed on the server; nothing internal is said. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The database is unavailable: it refuses connections, or every connection stayed busy past a bounded wait (code `database_unavailable`); or the server is not ready. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateOrderWithPatch: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried write safe: the first request with the key runs, and a retry with the same key and request answers as it did (with `idempotent-replayed: true`) for a day. The same key with another request is a 400; while the first still runs, a 409. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The company's own order id (company_order_id). */
                orderId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OrderChanges"];
            };
        };
        responses: {
            /** @description The updated order. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrderEnvelope"];
                };
            };
            /** @description The input is invalid (a field, a query parameter given twice, a body that is not valid UTF-8 or not JSON, a reused Idempotency-Key, a campaign template that is not usable: `template_not_usable`); `issues` names the offending fields (the first 100; `issues_total` counts them all). */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is missing, malformed, expired or badly signed. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is valid but for another company, or lacks the scope. */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unknown company or resource. */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The resource already exists, a limit is reached (`too_many_endpoints`), or a request with the same Idempotency-Key is still running (then with `Retry-After`: the same request, sent again after it, gets its answer). */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is over 1 MB. */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON, or its Content-Type names a charset other than UTF-8 (`utf-8` or `utf8`, in any case). */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests for this company (its tokens count together) or the admin token: the server allows 1,200 requests a minute per company unless it is set otherwise (`RATE_LIMIT_PER_MINUTE`, counted per instance). Wait `Retry-After` seconds; the SDK does, and retries a 429 twice by default. */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Something failed on the server; nothing internal is said. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The database is unavailable: it refuses connections, or every connection stayed busy past a bounded wait (code `database_unavailable`); or the server is not ready. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The server is up. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthEnvelope"];
                };
            };
            /** @description The input is invalid (a field, a query parameter given twice, a body that is not valid UTF-8 or not JSON, a reused Idempotency-Key, a campaign template that is not usable: `template_not_usable`); `issues` names the offending fields (the first 100; `issues_total` counts them all). */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Something failed on the server; nothing internal is said. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The database is unavailable: it refuses connections, or every connection stayed busy past a bounded wait (code `database_unavailable`); or the server is not ready. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getLiveness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process serves. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LivenessEnvelope"];
                };
            };
            /** @description The input is invalid (a field, a query parameter given twice, a body that is not valid UTF-8 or not JSON, a reused Idempotency-Key, a campaign template that is not usable: `template_not_usable`); `issues` names the offending fields (the first 100; `issues_total` counts them all). */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Something failed on the server; nothing internal is said. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The instance takes traffic. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReadinessEnvelope"];
                };
            };
            /** @description The input is invalid (a field, a query parameter given twice, a body that is not valid UTF-8 or not JSON, a reused Idempotency-Key, a campaign template that is not usable: `template_not_usable`); `issues` names the offending fields (the first 100; `issues_total` counts them all). */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Something failed on the server; nothing internal is said. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The database is unavailable: it refuses connections, or every connection stayed busy past a bounded wait (code `database_unavailable`); or the server is not ready. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listCompanies: {
        parameters: {
            query?: {
                /** @description Page number, from 1. */
                page?: number;
                /** @description Items a page, 1 to 100. */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of companies. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CompanyListEnvelope"];
                };
            };
            /** @description The input is invalid (a field, a query parameter given twice, a body that is not valid UTF-8 or not JSON, a reused Idempotency-Key, a campaign template that is not usable: `template_not_usable`); `issues` names the offending fields (the first 100; `issues_total` counts them all). */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is missing, malformed, expired or badly signed. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests for this company (its tokens count together) or the admin token: the server allows 1,200 requests a minute per company unless it is set otherwise (`RATE_LIMIT_PER_MINUTE`, counted per instance). Wait `Retry-After` seconds; the SDK does, and retries a 429 twice by default. */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Something failed on the server; nothing internal is said. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The database is unavailable: it refuses connections, or every connection stayed busy past a bounded wait (code `database_unavailable`); or the server is not ready. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createCompany: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried write safe: the first request with the key runs, and a retry with the same key and request answers as it did (with `idempotent-replayed: true`) for a day. The same key with another request is a 400; while the first still runs, a 409. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewCompany"];
            };
        };
        responses: {
            /** @description The company. */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CompanyEnvelope"];
                };
            };
            /** @description The input is invalid (a field, a query parameter given twice, a body that is not valid UTF-8 or not JSON, a reused Idempotency-Key, a campaign template that is not usable: `template_not_usable`); `issues` names the offending fields (the first 100; `issues_total` counts them all). */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is missing, malformed, expired or badly signed. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The resource already exists, a limit is reached (`too_many_endpoints`), or a request with the same Idempotency-Key is still running (then with `Retry-After`: the same request, sent again after it, gets its answer). */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is over 1 MB. */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON, or its Content-Type names a charset other than UTF-8 (`utf-8` or `utf8`, in any case). */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests for this company (its tokens count together) or the admin token: the server allows 1,200 requests a minute per company unless it is set otherwise (`RATE_LIMIT_PER_MINUTE`, counted per instance). Wait `Retry-After` seconds; the SDK does, and retries a 429 twice by default. */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Something failed on the server; nothing internal is said. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The database is unavailable: it refuses connections, or every connection stayed busy past a bounded wait (code `database_unavailable`); or the server is not ready. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getCompany: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The company UUID. */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The company. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CompanyEnvelope"];
                };
            };
            /** @description The input is invalid (a field, a query parameter given twice, a body that is not valid UTF-8 or not JSON, a reused Idempotency-Key, a campaign template that is not usable: `template_not_usable`); `issues` names the offending fields (the first 100; `issues_total` counts them all). */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is missing, malformed, expired or badly signed. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is valid but for another company, or lacks the scope. */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unknown company or resource. */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests for this company (its tokens count together) or the admin token: the server allows 1,200 requests a minute per company unless it is set otherwise (`RATE_LIMIT_PER_MINUTE`, counted per instance). Wait `Retry-After` seconds; the SDK does, and retries a 429 twice by default. */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Something failed on the server; nothing internal is said. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The database is unavailable: it refuses connections, or every connection stayed busy past a bounded wait (code `database_unavailable`); or the server is not ready. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listTokens: {
        parameters: {
            query?: {
                /** @description Page number, from 1. */
                page?: number;
                /** @description Items a page, 1 to 100. */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The company UUID. */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of tokens. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IssuedTokenListEnvelope"];
                };
            };
            /** @description The input is invalid (a field, a query parameter given twice, a body that is not valid UTF-8 or not JSON, a reused Idempotency-Key, a campaign template that is not usable: `template_not_usable`); `issues` names the offending fields (the first 100; `issues_total` counts them all). */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is missing, malformed, expired or badly signed. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unknown company or resource. */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests for this company (its tokens count together) or the admin token: the server allows 1,200 requests a minute per company unless it is set otherwise (`RATE_LIMIT_PER_MINUTE`, counted per instance). Wait `Retry-After` seconds; the SDK does, and retries a 429 twice by default. */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Something failed on the server; nothing internal is said. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The database is unavailable: it refuses connections, or every connection stayed busy past a bounded wait (code `database_unavailable`); or the server is not ready. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createToken: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried write safe: the first request with the key runs, and a retry with the same key and request answers as it did (with `idempotent-replayed: true`) for a day. The same key with another request is a 400; while the first still runs, a 409. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The company UUID. */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TokenRequest"];
            };
        };
        responses: {
            /** @description The token. */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenEnvelope"];
                };
            };
            /** @description The input is invalid (a field, a query parameter given twice, a body that is not valid UTF-8 or not JSON, a reused Idempotency-Key, a campaign template that is not usable: `template_not_usable`); `issues` names the offending fields (the first 100; `issues_total` counts them all). */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is missing, malformed, expired or badly signed. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unknown company or resource. */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The resource already exists, a limit is reached (`too_many_endpoints`), or a request with the same Idempotency-Key is still running (then with `Retry-After`: the same request, sent again after it, gets its answer). */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is over 1 MB. */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON, or its Content-Type names a charset other than UTF-8 (`utf-8` or `utf8`, in any case). */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests for this company (its tokens count together) or the admin token: the server allows 1,200 requests a minute per company unless it is set otherwise (`RATE_LIMIT_PER_MINUTE`, counted per instance). Wait `Retry-After` seconds; the SDK does, and retries a 429 twice by default. */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Something failed on the server; nothing internal is said. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The database is unavailable: it refuses connections, or every connection stayed busy past a bounded wait (code `database_unavailable`); or the server is not ready. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    revokeCompanyTokens: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried write safe: the first request with the key runs, and a retry with the same key and request answers as it did (with `idempotent-replayed: true`) for a day. The same key with another request is a 400; while the first still runs, a 409. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The company UUID. */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What was revoked. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokensRevokedEnvelope"];
                };
            };
            /** @description The input is invalid (a field, a query parameter given twice, a body that is not valid UTF-8 or not JSON, a reused Idempotency-Key, a campaign template that is not usable: `template_not_usable`); `issues` names the offending fields (the first 100; `issues_total` counts them all). */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is missing, malformed, expired or badly signed. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unknown company or resource. */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The resource already exists, a limit is reached (`too_many_endpoints`), or a request with the same Idempotency-Key is still running (then with `Retry-After`: the same request, sent again after it, gets its answer). */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests for this company (its tokens count together) or the admin token: the server allows 1,200 requests a minute per company unless it is set otherwise (`RATE_LIMIT_PER_MINUTE`, counted per instance). Wait `Retry-After` seconds; the SDK does, and retries a 429 twice by default. */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Something failed on the server; nothing internal is said. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The database is unavailable: it refuses connections, or every connection stayed busy past a bounded wait (code `database_unavailable`); or the server is not ready. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    revokeToken: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried write safe: the first request with the key runs, and a retry with the same key and request answers as it did (with `idempotent-replayed: true`) for a day. The same key with another request is a 400; while the first still runs, a 409. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The company UUID. */
                uuid: string;
                /** @description The token’s id (its `jti`). */
                tokenId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The revoked token. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IssuedTokenEnvelope"];
                };
            };
            /** @description The input is invalid (a field, a query parameter given twice, a body that is not valid UTF-8 or not JSON, a reused Idempotency-Key, a campaign template that is not usable: `template_not_usable`); `issues` names the offending fields (the first 100; `issues_total` counts them all). */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is missing, malformed, expired or badly signed. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unknown company or resource. */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The resource already exists, a limit is reached (`too_many_endpoints`), or a request with the same Idempotency-Key is still running (then with `Retry-After`: the same request, sent again after it, gets its answer). */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests for this company (its tokens count together) or the admin token: the server allows 1,200 requests a minute per company unless it is set otherwise (`RATE_LIMIT_PER_MINUTE`, counted per instance). Wait `Retry-After` seconds; the SDK does, and retries a 429 twice by default. */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Something failed on the server; nothing internal is said. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The database is unavailable: it refuses connections, or every connection stayed busy past a bounded wait (code `database_unavailable`); or the server is not ready. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    importCustomers: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried write safe: the first request with the key runs, and a retry with the same key and request answers as it did (with `idempotent-replayed: true`) for a day. The same key with another request is a 400; while the first still runs, a 409. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The company UUID. */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CustomerImportBatch"];
            };
        };
        responses: {
            /** @description What was imported. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportCustomersEnvelope"];
                };
            };
            /** @description The input is invalid (a field, a query parameter given twice, a body that is not valid UTF-8 or not JSON, a reused Idempotency-Key, a campaign template that is not usable: `template_not_usable`); `issues` names the offending fields (the first 100; `issues_total` counts them all). */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is missing, malformed, expired or badly signed. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unknown company or resource. */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The resource already exists, a limit is reached (`too_many_endpoints`), or a request with the same Idempotency-Key is still running (then with `Retry-After`: the same request, sent again after it, gets its answer). */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is over 1 MB. */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON, or its Content-Type names a charset other than UTF-8 (`utf-8` or `utf8`, in any case). */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests for this company (its tokens count together) or the admin token: the server allows 1,200 requests a minute per company unless it is set otherwise (`RATE_LIMIT_PER_MINUTE`, counted per instance). Wait `Retry-After` seconds; the SDK does, and retries a 429 twice by default. */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Something failed on the server; nothing internal is said. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The database is unavailable: it refuses connections, or every connection stayed busy past a bounded wait (code `database_unavailable`); or the server is not ready. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listWebhooks: {
        parameters: {
            query?: {
                /** @description Page number, from 1. */
                page?: number;
                /** @description Items a page, 1 to 100. */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The company UUID. */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of endpoints. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookListEnvelope"];
                };
            };
            /** @description The input is invalid (a field, a query parameter given twice, a body that is not valid UTF-8 or not JSON, a reused Idempotency-Key, a campaign template that is not usable: `template_not_usable`); `issues` names the offending fields (the first 100; `issues_total` counts them all). */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is missing, malformed, expired or badly signed. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is valid but for another company, or lacks the scope. */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unknown company or resource. */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests for this company (its tokens count together) or the admin token: the server allows 1,200 requests a minute per company unless it is set otherwise (`RATE_LIMIT_PER_MINUTE`, counted per instance). Wait `Retry-After` seconds; the SDK does, and retries a 429 twice by default. */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Something failed on the server; nothing internal is said. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The database is unavailable: it refuses connections, or every connection stayed busy past a bounded wait (code `database_unavailable`); or the server is not ready. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried write safe: the first request with the key runs, and a retry with the same key and request answers as it did (with `idempotent-replayed: true`) for a day. The same key with another request is a 400; while the first still runs, a 409. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The company UUID. */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewWebhookEndpoint"];
            };
        };
        responses: {
            /** @description The endpoint, with its secret. */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEnvelope"];
                };
            };
            /** @description The input is invalid (a field, a query parameter given twice, a body that is not valid UTF-8 or not JSON, a reused Idempotency-Key, a campaign template that is not usable: `template_not_usable`); `issues` names the offending fields (the first 100; `issues_total` counts them all). */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is missing, malformed, expired or badly signed. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is valid but for another company, or lacks the scope. */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unknown company or resource. */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The resource already exists, a limit is reached (`too_many_endpoints`), or a request with the same Idempotency-Key is still running (then with `Retry-After`: the same request, sent again after it, gets its answer). */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is over 1 MB. */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON, or its Content-Type names a charset other than UTF-8 (`utf-8` or `utf8`, in any case). */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests for this company (its tokens count together) or the admin token: the server allows 1,200 requests a minute per company unless it is set otherwise (`RATE_LIMIT_PER_MINUTE`, counted per instance). Wait `Retry-After` seconds; the SDK does, and retries a 429 twice by default. */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Something failed on the server; nothing internal is said. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The database is unavailable: it refuses connections, or every connection stayed busy past a bounded wait (code `database_unavailable`); or the server is not ready. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The company UUID. */
                uuid: string;
                /** @description The webhook endpoint id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEnvelope"];
                };
            };
            /** @description The input is invalid (a field, a query parameter given twice, a body that is not valid UTF-8 or not JSON, a reused Idempotency-Key, a campaign template that is not usable: `template_not_usable`); `issues` names the offending fields (the first 100; `issues_total` counts them all). */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is missing, malformed, expired or badly signed. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is valid but for another company, or lacks the scope. */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unknown company or resource. */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests for this company (its tokens count together) or the admin token: the server allows 1,200 requests a minute per company unless it is set otherwise (`RATE_LIMIT_PER_MINUTE`, counted per instance). Wait `Retry-After` seconds; the SDK does, and retries a 429 twice by default. */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Something failed on the server; nothing internal is said. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The database is unavailable: it refuses connections, or every connection stayed busy past a bounded wait (code `database_unavailable`); or the server is not ready. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried write safe: the first request with the key runs, and a retry with the same key and request answers as it did (with `idempotent-replayed: true`) for a day. The same key with another request is a 400; while the first still runs, a 409. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The company UUID. */
                uuid: string;
                /** @description The webhook endpoint id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedEnvelope"];
                };
            };
            /** @description The input is invalid (a field, a query parameter given twice, a body that is not valid UTF-8 or not JSON, a reused Idempotency-Key, a campaign template that is not usable: `template_not_usable`); `issues` names the offending fields (the first 100; `issues_total` counts them all). */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is missing, malformed, expired or badly signed. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is valid but for another company, or lacks the scope. */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unknown company or resource. */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The resource already exists, a limit is reached (`too_many_endpoints`), or a request with the same Idempotency-Key is still running (then with `Retry-After`: the same request, sent again after it, gets its answer). */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests for this company (its tokens count together) or the admin token: the server allows 1,200 requests a minute per company unless it is set otherwise (`RATE_LIMIT_PER_MINUTE`, counted per instance). Wait `Retry-After` seconds; the SDK does, and retries a 429 twice by default. */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Something failed on the server; nothing internal is said. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The database is unavailable: it refuses connections, or every connection stayed busy past a bounded wait (code `database_unavailable`); or the server is not ready. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried write safe: the first request with the key runs, and a retry with the same key and request answers as it did (with `idempotent-replayed: true`) for a day. The same key with another request is a 400; while the first still runs, a 409. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The company UUID. */
                uuid: string;
                /** @description The webhook endpoint id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookEndpointChanges"];
            };
        };
        responses: {
            /** @description The endpoint. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEnvelope"];
                };
            };
            /** @description The input is invalid (a field, a query parameter given twice, a body that is not valid UTF-8 or not JSON, a reused Idempotency-Key, a campaign template that is not usable: `template_not_usable`); `issues` names the offending fields (the first 100; `issues_total` counts them all). */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is missing, malformed, expired or badly signed. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is valid but for another company, or lacks the scope. */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unknown company or resource. */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The resource already exists, a limit is reached (`too_many_endpoints`), or a request with the same Idempotency-Key is still running (then with `Retry-After`: the same request, sent again after it, gets its answer). */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is over 1 MB. */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON, or its Content-Type names a charset other than UTF-8 (`utf-8` or `utf8`, in any case). */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests for this company (its tokens count together) or the admin token: the server allows 1,200 requests a minute per company unless it is set otherwise (`RATE_LIMIT_PER_MINUTE`, counted per instance). Wait `Retry-After` seconds; the SDK does, and retries a 429 twice by default. */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Something failed on the server; nothing internal is said. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The database is unavailable: it refuses connections, or every connection stayed busy past a bounded wait (code `database_unavailable`); or the server is not ready. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried write safe: the first request with the key runs, and a retry with the same key and request answers as it did (with `idempotent-replayed: true`) for a day. The same key with another request is a 400; while the first still runs, a 409. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The company UUID. */
                uuid: string;
                /** @description The webhook endpoint id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SecretRotation"];
            };
        };
        responses: {
            /** @description The new secret. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RotatedSecretEnvelope"];
                };
            };
            /** @description The input is invalid (a field, a query parameter given twice, a body that is not valid UTF-8 or not JSON, a reused Idempotency-Key, a campaign template that is not usable: `template_not_usable`); `issues` names the offending fields (the first 100; `issues_total` counts them all). */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is missing, malformed, expired or badly signed. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is valid but for another company, or lacks the scope. */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unknown company or resource. */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The resource already exists, a limit is reached (`too_many_endpoints`), or a request with the same Idempotency-Key is still running (then with `Retry-After`: the same request, sent again after it, gets its answer). */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is over 1 MB. */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON, or its Content-Type names a charset other than UTF-8 (`utf-8` or `utf8`, in any case). */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests for this company (its tokens count together) or the admin token: the server allows 1,200 requests a minute per company unless it is set otherwise (`RATE_LIMIT_PER_MINUTE`, counted per instance). Wait `Retry-After` seconds; the SDK does, and retries a 429 twice by default. */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Something failed on the server; nothing internal is said. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The database is unavailable: it refuses connections, or every connection stayed busy past a bounded wait (code `database_unavailable`); or the server is not ready. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    sendTestEvent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried write safe: the first request with the key runs, and a retry with the same key and request answers as it did (with `idempotent-replayed: true`) for a day. The same key with another request is a 400; while the first still runs, a 409. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The company UUID. */
                uuid: string;
                /** @description The webhook endpoint id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TestEventRequest"];
            };
        };
        responses: {
            /** @description The delivery was queued. */
            202: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryEnvelope"];
                };
            };
            /** @description The input is invalid (a field, a query parameter given twice, a body that is not valid UTF-8 or not JSON, a reused Idempotency-Key, a campaign template that is not usable: `template_not_usable`); `issues` names the offending fields (the first 100; `issues_total` counts them all). */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is missing, malformed, expired or badly signed. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is valid but for another company, or lacks the scope. */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unknown company or resource. */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The resource already exists, a limit is reached (`too_many_endpoints`), or a request with the same Idempotency-Key is still running (then with `Retry-After`: the same request, sent again after it, gets its answer). */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is over 1 MB. */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON, or its Content-Type names a charset other than UTF-8 (`utf-8` or `utf8`, in any case). */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests for this company (its tokens count together) or the admin token: the server allows 1,200 requests a minute per company unless it is set otherwise (`RATE_LIMIT_PER_MINUTE`, counted per instance). Wait `Retry-After` seconds; the SDK does, and retries a 429 twice by default. */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Something failed on the server; nothing internal is said. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The database is unavailable: it refuses connections, or every connection stayed busy past a bounded wait (code `database_unavailable`); or the server is not ready. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                page?: number;
                limit?: number;
                status?: components["schemas"]["DeliveryStatus"];
            };
            header?: never;
            path: {
                /** @description The company UUID. */
                uuid: string;
                /** @description The webhook endpoint id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of deliveries. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryListEnvelope"];
                };
            };
            /** @description The input is invalid (a field, a query parameter given twice, a body that is not valid UTF-8 or not JSON, a reused Idempotency-Key, a campaign template that is not usable: `template_not_usable`); `issues` names the offending fields (the first 100; `issues_total` counts them all). */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is missing, malformed, expired or badly signed. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is valid but for another company, or lacks the scope. */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unknown company or resource. */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests for this company (its tokens count together) or the admin token: the server allows 1,200 requests a minute per company unless it is set otherwise (`RATE_LIMIT_PER_MINUTE`, counted per instance). Wait `Retry-After` seconds; the SDK does, and retries a 429 twice by default. */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Something failed on the server; nothing internal is said. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The database is unavailable: it refuses connections, or every connection stayed busy past a bounded wait (code `database_unavailable`); or the server is not ready. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    redeliverWebhookDelivery: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried write safe: the first request with the key runs, and a retry with the same key and request answers as it did (with `idempotent-replayed: true`) for a day. The same key with another request is a 400; while the first still runs, a 409. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The company UUID. */
                uuid: string;
                /** @description The webhook endpoint id. */
                id: string;
                /** @description The delivery id. */
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery was queued again. */
            202: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryEnvelope"];
                };
            };
            /** @description The input is invalid (a field, a query parameter given twice, a body that is not valid UTF-8 or not JSON, a reused Idempotency-Key, a campaign template that is not usable: `template_not_usable`); `issues` names the offending fields (the first 100; `issues_total` counts them all). */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is missing, malformed, expired or badly signed. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The token is valid but for another company, or lacks the scope. */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unknown company or resource. */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The resource already exists, a limit is reached (`too_many_endpoints`), or a request with the same Idempotency-Key is still running (then with `Retry-After`: the same request, sent again after it, gets its answer). */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests for this company (its tokens count together) or the admin token: the server allows 1,200 requests a minute per company unless it is set otherwise (`RATE_LIMIT_PER_MINUTE`, counted per instance). Wait `Retry-After` seconds; the SDK does, and retries a 429 twice by default. */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Something failed on the server; nothing internal is said. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The database is unavailable: it refuses connections, or every connection stayed busy past a bounded wait (code `database_unavailable`); or the server is not ready. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    orderEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id; the same on every retry of the event. */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed. */
                "webhook-timestamp": string;
                /** @description Space-separated `v1,<base64 HMAC-SHA256>` signatures of `id.timestamp.body`; several during a secret rotation. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event. Another status, or no answer in 15 s, is retried with backoff. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the server disables the endpoint and sends it nothing more. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
