/**
 * A circuit breaker in front of a remote service (Upstash Redis here). Closed, calls go to the
 * service; the first call that fails or times out opens it. Open, no call goes to the service (the
 * caller answers from its fallback at once), and one probe at a time checks the service in the
 * background, started by a call once `probeIntervalMs` have passed since the circuit opened or the
 * last probe failed; the probe that succeeds closes the circuit. Probes ride on calls rather than
 * on a timer, so an idle process (or a limiter a test has dropped) probes nothing.
 */
export interface Circuit {
  /** Whether this call may go to the service; while open it may not, and a due probe is started. */
  allows(): boolean;
  /** A call failed or timed out: the circuit opens (told once per outage). */
  failed(reason: string): void;
}

export interface CircuitOptions {
  /** Resolves when the service answers, rejects otherwise; bounded in time by the caller's client. */
  probe: () => Promise<void>;
  probeIntervalMs: number;
  /** Told when the circuit opens, with the first failure's reason. */
  onOpen: (reason: string) => void;
  /** Told when a probe has succeeded and calls go to the service again. */
  onClose: () => void;
  /**
   * Milliseconds on a monotonic clock (`performance.now`): tests freeze `Date` to pin rate-limit
   * windows, which must not freeze the probes.
   */
  now?: () => number;
}

export function createCircuit(options: CircuitOptions): Circuit {
  let open = false;
  let probing = false;
  let nextProbeAt = 0;
  const now = options.now ?? (() => performance.now());
  const later = () => now() + options.probeIntervalMs;

  const probe = async () => {
    probing = true;
    try {
      await options.probe();
      open = false;
      options.onClose();
    } catch {
      nextProbeAt = later();
    } finally {
      probing = false;
    }
  };

  return {
    allows() {
      if (!open) return true;
      if (!probing && now() >= nextProbeAt) void probe();
      return false;
    },
    failed(reason) {
      if (open) return;
      open = true;
      nextProbeAt = later();
      options.onOpen(reason);
    },
  };
}
