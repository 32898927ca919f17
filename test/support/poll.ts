/** Waits until `check` holds, looking again every few milliseconds; fails at the deadline (never a fixed sleep). */
export async function until(check: () => boolean | Promise<boolean>, what: string, deadlineMs = 5000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
