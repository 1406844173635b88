/**
 * A client without the SDK, in another language, on the same process as the five files: Python's
 * standard library over HTTP, in a session of its own. Skipped, with a line saying so, where the
 * machine has no python3.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, inject, it } from 'vitest';

const hasPython = spawnSync('python3', ['--version']).status === 0;
if (!hasPython) console.log('python3 is not on this machine: the sessions test from Python over HTTP is skipped.');

const SCRIPT = `
import json, sys, urllib.request, urllib.error

base = sys.argv[1]

def call(method, path, body=None, token=None):
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = "Bearer " + token
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req) as res:
            return res.status, json.loads(res.read() or b"null"), dict(res.headers)
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null"), dict(e.headers)

info = call("GET", "/__mock")[1]["data"]
token, uuid, company_id = info["company"]["token"], info["company"]["uuid"], info["company"]["company_id"]
out = {"baseUrl": info["baseUrl"]}

out["fault"] = call("POST", "/__mock/fail", {"operationId": "addOrder", "status": 409, "code": "idempotency_in_progress", "retryAfter": 1})[0]
out["unknownField"] = call("POST", "/__mock/fail", {"operationId": "addOrder", "status": 500, "uuid": uuid})[1]["issues"]
order = {"company_id": company_id, "company_order_id": "PY-1", "totalAmount": 12, "firstName": "Guido",
         "phoneNumber": "+14155550199", "postalCode": "94107", "streetAddress1": "1 Market St"}
status, body, headers = call("POST", "/api/order/addOrder", order, token)
out["first"] = [status, body["code"], headers.get("Retry-After") or headers.get("retry-after")]
out["second"] = call("POST", "/api/order/addOrder", order, token)[0]
second = dict(order, company_order_id="PY-2", phoneNumber="+14155550198")
call("POST", "/api/order/addOrder", second, token)

# Two wire shapes: customers page with paging.before/after, campaigns with pagination.
customers = call("GET", "/agency/getCustomers?uuid=%s&page=1&limit=1" % uuid, token=token)[1]
out["customers"] = [len(customers["data"]), customers["paging"], customers["total"]]
campaigns = call("GET", "/agency/getCampaignData?uuid=%s" % uuid, token=token)[1]
out["campaigns"] = campaigns["pagination"]

call("POST", "/__mock/clock", {"advance": "3h"})
out["journal"] = [[r["status"], r["ended"]] for r in call("GET", "/__mock/requests?operationId=addOrder&uuid=" + uuid)[1]["data"]]
out["orders"] = [o["company_order_id"] for o in call("GET", "/__mock/state")[1]["data"]["orders"]]
print(json.dumps(out))
`;

describe.skipIf(!hasPython)('sessions from Python over HTTP', () => {
  it('drives a session of its own with the standard library: faults, orders, both paging shapes, the journal', async () => {
    const base = `${inject('mockUrl')}/__session/python`;
    const printed = execFileSync('python3', ['-c', SCRIPT, base], { encoding: 'utf8', timeout: 30_000 });
    expect(JSON.parse(printed)).toEqual({
      baseUrl: base,
      fault: 201,
      unknownField: [{ path: 'uuid', message: 'is not a field of this body' }],
      first: [409, 'idempotency_in_progress', '1'],
      second: 201,
      customers: [1, { before: null, after: 2 }, 2],
      campaigns: { total: 0, page: 1, limit: 10, totalPages: 0 },
      journal: [
        [409, 'answered'],
        [201, 'answered'],
        [201, 'answered'],
      ],
      orders: ['PY-1', 'PY-2'],
    });
    expect((await fetch(`${inject('mockUrl')}/__session/python`, { method: 'DELETE' })).status).toBe(200);
    expect((await fetch(`${inject('mockUrl')}/__session/python`, { method: 'DELETE' })).status).toBe(404);
  });
});
