import { describe, expect, it } from 'vitest';
import { inTransaction, type WritesAhead } from './writes-ahead.ts';

/** A write the test answers when it chooses. */
function pendingWrite() {
  let answer: (error?: Error) => void = () => {};
  const write = new Promise<void>((resolve, reject) => {
    answer = (error) => (error ? reject(error) : resolve());
  });
  return { write, answer };
}

/** A transaction as drizzle runs one: commits when the work resolves, rolls back when it throws; `steps` records which. */
function fakeTransaction(steps: string[]) {
  return async <T>(work: (tx: string) => Promise<T>): Promise<T> => {
    steps.push('begin');
    try {
      const value = await work('tx');
      steps.push('commit');
      return value;
    } catch (error) {
      steps.push('rollback');
      throw error;
    }
  };
}

const run = <T>(body: (ahead: WritesAhead) => Promise<T>, steps: string[] = []) => inTransaction(fakeTransaction(steps), (_tx, ahead) => body(ahead));

describe('inTransaction', () => {
  it('resolves to the value of the body once every write it sent is answered', async () => {
    const one = pendingWrite();
    let settled = false;
    const done = run(async (ahead) => {
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

  it('commits without waiting for the writes it sent: the COMMIT goes out behind them', async () => {
    const one = pendingWrite();
    const steps: string[] = [];
    const done = run(async (ahead) => {
      await ahead.send(one.write.then(() => steps.push('write answered')));
      return 'value';
    }, steps);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(steps).toEqual(['begin', 'commit']);
    one.answer();
    await expect(done).resolves.toBe('value');
    expect(steps).toEqual(['begin', 'commit', 'write answered']);
  });

  it('does not keep the body waiting for a write it sent', async () => {
    const one = pendingWrite();
    const steps: string[] = [];
    const done = run(async (ahead) => {
      await ahead.send(one.write);
      steps.push('after the send');
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(steps).toEqual(['after the send']);
    one.answer();
    await done;
  });

  it('rejects with the first write that failed, rather than what the body threw after it, and rolls back', async () => {
    const refused = new Error('refused by the database');
    const later = new Error('current transaction is aborted');
    const first = pendingWrite();
    const second = pendingWrite();
    const steps: string[] = [];
    const done = run(async (ahead) => {
      await ahead.send(first.write);
      await ahead.send(second.write);
      first.answer(refused);
      second.answer(new Error('also refused'));
      throw later;
    }, steps);
    await expect(done).rejects.toBe(refused);
    expect(steps).toEqual(['begin', 'rollback']);
  });

  it('rejects with a failed write even when the body returned (its COMMIT rolled the aborted transaction back)', async () => {
    const refused = new Error('refused');
    const done = run(async (ahead) => {
      await ahead.send(Promise.reject(refused));
      return 'value';
    });
    await expect(done).rejects.toBe(refused);
  });

  it("rejects with the body's error when no write failed, after its writes are answered", async () => {
    const boom = new Error('boom');
    const one = pendingWrite();
    let answered = false;
    const done = run(async (ahead) => {
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

  it('rejects with the error of the commit itself when no write failed', async () => {
    const lost = new Error('connection lost');
    const done = inTransaction(
      async (work: (tx: string) => Promise<string>) => {
        await work('tx');
        throw lost;
      },
      async (_tx, ahead) => {
        await ahead.send(Promise.resolve());
        return 'value';
      },
    );
    await expect(done).rejects.toBe(lost);
  });
});
