import type { DB } from "../schema/database.ts";
import { letOthersRun } from "../steps/run-steps.ts";
import { type ConsumeInput, consumeRateLimits, type RateLimitDecision } from "./rate-limiter.ts";
import type { AccessDB } from "./tables.ts";

/** Most decisions in one transaction: bounds how long it holds the lock, and how long its last decision waits. */
const MOST_A_BATCH = 256;

/**
 * Rate-limit decisions taken together. A decision waits for the event loop to run what else came in (the other
 * requests a server read at the same time) and for the transaction of decisions being written, if any; then it
 * goes into one transaction with every decision that came meanwhile (`consumeRateLimits`: one `begin` and `commit`
 * for all). The decisions are those of `consumeRateLimit` taken one after another. A transaction that fails fails
 * each of its decisions with its error.
 */
export interface RateLimitBatches {
  consume(input: ConsumeInput): Promise<RateLimitDecision>;
  /** Transactions begun so far. */
  readonly transactions: number;
}

interface Waiting {
  input: ConsumeInput;
  resolve(decision: RateLimitDecision): void;
  reject(error: unknown): void;
}

export function rateLimitBatches(db: DB | AccessDB, mostABatch = MOST_A_BATCH): RateLimitBatches {
  const waiting: Waiting[] = [];
  let writing = false;
  let transactions = 0;
  const write = async (): Promise<void> => {
    writing = true;
    // A transaction of a few statements runs to its end in microtasks, before the server hands over the next
    // request: without this turn every batch would hold one decision.
    await letOthersRun();
    while (waiting.length > 0) {
      const batch = waiting.splice(0, mostABatch);
      transactions++;
      try {
        const decisions = await consumeRateLimits(
          db,
          batch.map((w) => w.input),
        );
        batch.forEach((w, i) => {
          w.resolve(decisions[i] as RateLimitDecision);
        });
      } catch (e) {
        for (const w of batch) w.reject(e);
      }
    }
    writing = false;
  };
  return {
    consume(input) {
      return new Promise<RateLimitDecision>((resolve, reject) => {
        waiting.push({ input, resolve, reject });
        if (!writing) void write();
      });
    },
    get transactions() {
      return transactions;
    },
  };
}
