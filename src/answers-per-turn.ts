/**
 * The answers of one event-loop turn handed to the server together, at the end of the turn, instead of each as
 * soon as it is made. Each answer the server sends wakes its reader; on one machine (a load generator, a reverse
 * proxy on the same host) waking a reader that went to sleep costs the sender's kernel several microseconds, and a
 * reader woken by the first answer of a burst is still awake for the others. So answers sent back to back cost less
 * kernel time than answers spaced by the work between them (docs/performance.md, "Answers of one turn sent
 * together"). An answer waits at most for the rest of its turn's work, which the requests of that turn wait for
 * anyway; a lone request waits one turn of the loop more.
 */

type Settle = (response: Response) => void;

export type AnswerRelease = (answer: Response | Promise<Response>) => Promise<Response>;

/**
 * A release for one server: each answer given to it settles once the turn in which it was made ends
 * (`setImmediate`), with every other answer made in that turn; a failed answer fails at once, and one that
 * `sendAtOnce` names (`isLargeAnswer` in the server: `Bun.serve` writes a large answer handed over after its turn
 * at many times the cost) as soon as it is made.
 */
export function answersPerTurn(sendAtOnce: (response: Response) => boolean = () => false): AnswerRelease {
  // The answers held for the end of this turn (a release is scheduled exactly while there are any).
  let settles: Settle[] = [];
  let responses: Response[] = [];
  const release = () => {
    const s = settles;
    const r = responses;
    settles = [];
    responses = [];
    for (let i = 0; i < s.length; i++) (s[i] as Settle)(r[i] as Response);
  };
  const hold = (settle: Settle, response: Response) => {
    if (sendAtOnce(response)) {
      settle(response);
      return;
    }
    responses.push(response);
    if (settles.push(settle) === 1) setImmediate(release);
  };
  return (answer) =>
    new Promise<Response>((resolve, reject) => {
      if (answer instanceof Response) hold(resolve, answer);
      else answer.then((response) => hold(resolve, response), reject);
    });
}
