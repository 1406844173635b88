import { describe, expect, it } from 'vitest';
import { FREE_FORM_LIMITS, freeFormObject, freeFormProblem } from './free-form.ts';

/** `{ a: { a: ... { a: 1 } } }`, `levels` objects deep. */
function nested(levels: number): Record<string, unknown> {
  let v: Record<string, unknown> = { a: 1 };
  for (let i = 1; i < levels; i++) v = { a: v };
  return v;
}

describe('free-form limits', () => {
  it(`take nesting up to ${FREE_FORM_LIMITS.depth} levels, and name the place one level deeper`, () => {
    expect(freeFormProblem(nested(FREE_FORM_LIMITS.depth))).toBeUndefined();
    const problem = freeFormProblem(nested(FREE_FORM_LIMITS.depth + 1));
    expect(problem?.path).toHaveLength(FREE_FORM_LIMITS.depth);
    expect(problem?.message).toMatch(/nests too deep/);
  });

  it('walk any depth without overflowing the stack', () => {
    expect(freeFormProblem(nested(200_000))?.message).toMatch(/nests too deep/);
  });

  it('count keys and items in all, and measure strings and keys', () => {
    expect(freeFormProblem({ list: Array.from({ length: FREE_FORM_LIMITS.entries }, () => 0) })?.message).toMatch(/holds too much/);
    expect(freeFormProblem({ list: Array.from({ length: FREE_FORM_LIMITS.entries - 1 }, () => 0) })).toBeUndefined();
    expect(freeFormProblem({ note: ['x'.repeat(FREE_FORM_LIMITS.stringLength + 1)] })).toEqual({
      path: ['note', 0],
      message: expect.stringMatching(/at most/),
    });
    expect(freeFormProblem({ ['k'.repeat(FREE_FORM_LIMITS.stringLength + 1)]: 1 })?.message).toMatch(/key longer/);
  });

  it('turn a problem into an issue at its path', () => {
    const r = freeFormObject('Attributes.', {}).safeParse({ gift: nested(40) });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path.slice(0, 2)).toEqual(['gift', 'a']);
  });
});
