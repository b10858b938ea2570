import { deepFreeze } from '../deep-freeze.js';

/**
 * Answers presented from a cached read, shared by every request that reads it while the cache
 * keeps it. The read cache hands out the same frozen row until the database changes, so the
 * answer made from it can be made, and serialized, once (`responseSerializerCompiler`).
 */
const shared = new WeakSet<object>();

/**
 * A presenter that presents each frozen input once and hands out the same frozen answer after;
 * an input that is not frozen may still change, so it is presented every time. The presenter
 * must be pure: its answer may depend only on its input and on what the closure fixed at start.
 */
export function presentShared<I extends object, O extends object>(present: (input: I) => O): (input: I) => O {
  const answers = new WeakMap<I, O>();
  return (input) => {
    if (!Object.isFrozen(input)) return present(input);
    let answer = answers.get(input);
    if (!answer) {
      answer = deepFreeze(present(input));
      shared.add(answer);
      answers.set(input, answer);
    }
    return answer;
  };
}

/** Whether a value is a shared answer: frozen all through, so its serialization never changes. */
export function isSharedAnswer(value: unknown): value is object {
  return typeof value === 'object' && value !== null && shared.has(value);
}
