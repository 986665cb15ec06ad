/**
 * Delay before the next delivery of a message whose handler failed: exponential
 * in the number of deliveries so far, capped, with ±20 % jitter so that a burst of
 * failures does not come back as a burst.
 */
export function retryDelayMs(
  deliveryCount: number,
  policy: { baseDelayMs: number; maxDelayMs: number },
  random: () => number = Math.random,
): number {
  const exponent = Math.max(0, deliveryCount - 1);
  const raw = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(exponent, 30));
  const jittered = raw * (0.8 + 0.4 * random());
  return Math.round(Math.min(policy.maxDelayMs, jittered));
}
