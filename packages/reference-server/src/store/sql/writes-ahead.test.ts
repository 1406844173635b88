import { describe, expect, it } from 'vitest';
import { inTransaction } from './writes-ahead.ts';

/** A write the test answers when it chooses. */
function pendingWrite() {
  let answer: (error?: Error) => void = () => {};
  const write = new Promise<void>((resolve, reject) => {
    answer = (error) => (error ? reject(error) : resolve());
  });
  return { write, answer };
}

describe('inTransaction', () => {
  it('resolves to the value of the body once every write it sent is answered', async () => {
    const one = pendingWrite();
    let settled = false;
    const done = inTransaction(async (ahead) => {
      await ahead.send(one.write);
      return 'value';
    }).then((value) => {
      settled = true;
      return value;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(settled).toBe(false);
    one.answer();
    await expect(done).resolves.toBe('value');
  });

  it('does not keep the body waiting for a write it sent', async () => {
    const one = pendingWrite();
    const steps: string[] = [];
    const done = inTransaction(async (ahead) => {
      await ahead.send(one.write);
      steps.push('after the send');
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(steps).toEqual(['after the send']);
    one.answer();
    await done;
  });

  it('rejects with the first write that failed, rather than what the body threw after it', async () => {
    const refused = new Error('refused by the database');
    const later = new Error('current transaction is aborted');
    const first = pendingWrite();
    const second = pendingWrite();
    const done = inTransaction(async (ahead) => {
      await ahead.send(first.write);
      await ahead.send(second.write);
      first.answer(refused);
      second.answer(new Error('also refused'));
      throw later;
    });
    await expect(done).rejects.toBe(refused);
  });

  it('rejects with a failed write even when the body returned', async () => {
    const refused = new Error('refused');
    const done = inTransaction(async (ahead) => {
      await ahead.send(Promise.reject(refused));
      return 'value';
    });
    await expect(done).rejects.toBe(refused);
  });

  it("rejects with the body's error when no write failed, after its writes are answered", async () => {
    const boom = new Error('boom');
    const one = pendingWrite();
    let answered = false;
    const done = inTransaction(async (ahead) => {
      await ahead.send(
        one.write.then(() => {
          answered = true;
        }),
      );
      throw boom;
    });
    setTimeout(() => one.answer(), 10);
    await expect(done).rejects.toBe(boom);
    expect(answered).toBe(true);
  });
});
