/**
 * One start per event-loop turn. Node runs every I/O callback that is ready in one poll phase back to
 * back: eight heavy requests whose bodies arrive together would run one after another before the loop
 * reads any other socket, and a health check behind them would wait for all eight. A request that awaits
 * its turn instead starts in a later check phase, alone; the loop polls its sockets between two starts,
 * so whatever is not queued (the liveness routes) waits for at most one request's synchronous work.
 *
 * @example
 * const turn = createTurns();
 * await turn(); // now this request has the loop to itself until it awaits
 */
export function createTurns(): () => Promise<void> {
  const waiting: (() => void)[] = [];
  let head = 0;
  let scheduled = false;
  const pump = () => {
    scheduled = false;
    const next = waiting[head++];
    if (head > 1024 && head * 2 > waiting.length) {
      waiting.splice(0, head);
      head = 0;
    }
    // Scheduled before `next` runs: an immediate queued inside a check phase runs in the next turn.
    if (head < waiting.length) schedule();
    next?.();
  };
  const schedule = () => {
    scheduled = true;
    setImmediate(pump);
  };
  return () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      if (!scheduled) schedule();
    });
}
