import { benchServer } from './rows/setup.ts';

const s = await benchServer('postgres', { NODE_OPTIONS: '--require /tmp/exp/pgtrace.cjs' });
const t: number[] = [];
const marks: [number, number][] = [];
for (let i = 0; i < 150; i++) {
  const a = performance.timeOrigin + performance.now();
  await s.call('POST', '/api/order/addOrder', s.token, {
    company_id: s.companyId,
    company_order_id: `L-${i}`,
    totalAmount: 1,
    firstName: 'L',
    phoneNumber: '+14155550100',
    postalCode: '1',
    streetAddress1: 'x',
  });
  const b = performance.timeOrigin + performance.now();
  t.push(b - a);
  marks.push([a, b]);
}
const r: number[] = [];
for (let i = 0; i < 150; i++) {
  const a = performance.now();
  await s.call('GET', `/agency/getCampaign/${s.campaignId}?uuid=${s.uuid}`, s.token);
  r.push(performance.now() - a);
}
const med = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1];
console.log('addOrder p50', med(t.slice(20)), 'getCampaign p50', med(r.slice(20)));
const { writeFileSync } = await import('node:fs');
writeFileSync('/tmp/exp/marks.json', JSON.stringify(marks));
await s.stop();
