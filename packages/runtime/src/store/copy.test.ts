import { describe, expect, it } from 'vitest';
import { cloneGraph, copy, frozen } from './copy.ts';

describe('copy', () => {
  it('copies nested plain data so that changing the copy leaves the original alone', () => {
    const original = { a: 1, b: 'x', c: null, d: undefined, e: [1, { f: [true] }], g: { h: { i: 'deep' } } };
    const c = copy(original);
    expect(c).toStrictEqual(original);
    c.e.push(2);
    (c.e[1] as { f: boolean[] }).f[0] = false;
    c.g.h.i = 'changed';
    expect(original).toStrictEqual({ a: 1, b: 'x', c: null, d: undefined, e: [1, { f: [true] }], g: { h: { i: 'deep' } } });
  });

  it('copies other objects as structuredClone does, and keeps a __proto__ key an own property', () => {
    const at = new Date('2026-01-05T08:00:00Z');
    const c = copy({ at, tags: new Set(['a']) });
    expect(c.at).toEqual(at);
    expect(c.at).not.toBe(at);
    expect(c.tags).toEqual(new Set(['a']));
    const parsed = JSON.parse('{"__proto__":{"polluted":true},"ok":1}');
    const p = copy(parsed);
    expect(Object.keys(p)).toEqual(['__proto__', 'ok']);
    expect((p as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(p)).toBe(Object.prototype);
  });
});

describe('cloneGraph', () => {
  it('copies a graph once per object, so the copy shares what the original shares, and keeps classes', () => {
    class Box {
      constructor(readonly items: unknown[]) {}
      get size() {
        return this.items.length;
      }
    }
    const record = { id: 'r1', amount: { digits: 10n, scale: 1 } };
    const original = { byId: new Map([['r1', record]]), list: new Box([record]), seen: new Set(['r1']), at: new Date(0) };
    const c = cloneGraph(original);
    expect(c).toEqual(original);
    expect(c.byId.get('r1')).toBe(c.list.items[0]);
    expect(c.byId.get('r1')).not.toBe(record);
    expect(c.list).toBeInstanceOf(Box);
    expect(c.list.size).toBe(1);
    (c.byId.get('r1') as typeof record).id = 'changed';
    c.seen.add('r2');
    expect(record.id).toBe('r1');
    expect(original.seen.size).toBe(1);
  });

  it('keeps a __proto__ key an own property, in plain objects and in class instances, and copies arrays of records once per record', () => {
    const parsed = JSON.parse('{"__proto__":{"polluted":true},"ok":1}');
    class Holder {
      constructor(readonly inner: unknown) {}
    }
    const held = new Holder(parsed);
    Object.defineProperty(held, '__proto__', { value: { also: true }, enumerable: true, writable: true, configurable: true });
    const c = cloneGraph({ parsed, held, list: [parsed, 1, 'x', null] });
    expect(Object.keys(c.parsed)).toEqual(['__proto__', 'ok']);
    expect(Object.getPrototypeOf(c.parsed)).toBe(Object.prototype);
    expect((c.parsed as { polluted?: boolean }).polluted).toBeUndefined();
    expect(c.parsed).not.toBe(parsed);
    expect(c.list[0]).toBe(c.parsed);
    expect(c.list.slice(1)).toEqual([1, 'x', null]);
    expect(c.held).toBeInstanceOf(Holder);
    expect(c.held.inner).toBe(c.parsed);
    expect(Object.getOwnPropertyDescriptor(c.held, '__proto__')?.value).toEqual({ also: true });
  });

  it('keeps a frozen record as it is, shared by the copy, and copies what holds it', () => {
    const event = frozen({ id: 'evt_1', payload: { order: { items: [{ sku: 'A' }] } } });
    const original = { events: new Map([['evt_1', event]]), pending: new Set(['evt_1']) };
    const c = cloneGraph(original);
    expect(c.events).not.toBe(original.events);
    expect(c.events.get('evt_1')).toBe(event);
    c.events.delete('evt_1');
    expect(original.events.get('evt_1')).toBe(event);
  });
});

describe('frozen', () => {
  it('freezes a record and every object in it, and a copy of it can be changed', () => {
    const record = frozen({ id: 'evt_1', payload: { order: { items: [{ sku: 'A' }] } } });
    expect(Object.isFrozen(record)).toBe(true);
    expect(Object.isFrozen(record.payload.order.items)).toBe(true);
    expect(Object.isFrozen(record.payload.order.items[0])).toBe(true);
    expect(() => {
      (record.payload.order.items[0] as { sku: string }).sku = 'B';
    }).toThrow(TypeError);
    const c = copy(record);
    c.payload.order.items[0] = { sku: 'B' };
    expect(c.payload.order.items).toEqual([{ sku: 'B' }]);
    expect(record.payload.order.items).toEqual([{ sku: 'A' }]);
  });
});
