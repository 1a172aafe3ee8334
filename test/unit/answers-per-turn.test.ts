import { expect, test } from "bun:test";
import { answersPerTurn } from "../../src/answers-per-turn.ts";

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

test("the answers made in one turn are released together, after the last of them", async () => {
  const release = answersPerTurn();
  const events: string[] = [];
  const answers = [0, 1, 2].map(() => Promise.withResolvers<Response>());
  const sent = answers.map((answer, i) =>
    release(answer.promise).then((response) => {
      events.push(`sent ${i}`);
      return response;
    }),
  );
  // Each answer is made a few microtasks after the one before, as handlers finish one after another.
  for (const [i, answer] of answers.entries()) {
    for (let k = 0; k < 5; k++) await Promise.resolve();
    events.push(`made ${i}`);
    answer.resolve(new Response(String(i)));
  }
  const bodies = await Promise.all(sent.map(async (s) => (await s).text()));
  expect(events).toEqual(["made 0", "made 1", "made 2", "sent 0", "sent 1", "sent 2"]);
  expect(bodies).toEqual(["0", "1", "2"]);
});

test("an answer is released when its turn ends, and a later turn's answers in a release of their own", async () => {
  const release = answersPerTurn();
  let first: Response | null = null;
  void release(new Response("first")).then((r) => {
    first = r;
  });
  expect(first).toBeNull();
  await nextTurn();
  expect(await (first as Response | null)?.text()).toBe("first");

  const later = Promise.withResolvers<Response>();
  let second: Response | null = null;
  void release(later.promise).then((r) => {
    second = r;
  });
  await nextTurn();
  expect(second).toBeNull();
  later.resolve(new Response("second"));
  // The answer is held once its promise's reactions have run, a microtask after it resolves.
  await Promise.resolve();
  await nextTurn();
  expect(await (second as Response | null)?.text()).toBe("second");
});

test("a failed answer fails at once, without waiting for the turn", async () => {
  const release = answersPerTurn();
  const held = release(new Response("held"));
  let heldDone = false;
  void held.then(() => {
    heldDone = true;
  });
  const failure = new Error("handler failed");
  await expect(release(Promise.reject(failure))).rejects.toBe(failure);
  expect(heldDone).toBe(false);
  await held;
  expect(heldDone).toBe(true);
});

test("an answer the release is told to send at once settles as soon as it is made, the others at the turn's end", async () => {
  const large = new Response("large");
  const release = answersPerTurn((response) => response === large);
  const events: string[] = [];
  void release(new Response("small")).then(() => events.push("small"));
  const made = Promise.withResolvers<Response>();
  void release(made.promise).then(() => events.push("large"));
  made.resolve(large);
  for (let k = 0; k < 5; k++) await Promise.resolve();
  expect(events).toEqual(["large"]);
  await nextTurn();
  expect(events).toEqual(["large", "small"]);
});
