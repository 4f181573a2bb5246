/** Polling for a condition the test cannot await directly (a process's output, a counter). */
export async function until(condition: () => boolean, what: string, timeoutMs = 20_000, stepMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
}
