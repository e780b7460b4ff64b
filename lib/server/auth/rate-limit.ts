import "server-only";

/**
 * Failed sign-ins, counted in this process (a sliding window per key). One
 * Baton process serves one instance, so in-process is enough; behind several
 * processes each one counts on its own (documented in README). Two buckets:
 * per email + client address (the brief's 5 per 15 minutes), and per email
 * alone with a higher cap, because the client address comes from
 * X-Forwarded-For, which a client can forge when no proxy sets it.
 */
export interface LimitRule {
  max: number;
  windowMs: number;
}

export class FailureLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly rule: LimitRule,
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 50_000,
  ) {}

  /** Milliseconds until `key` may try again; 0 when it may now. */
  retryAfterMs(key: string): number {
    const recent = this.recent(key);
    if (recent.length < this.rule.max) return 0;
    return recent[recent.length - this.rule.max]! + this.rule.windowMs - this.now();
  }

  fail(key: string): void {
    const recent = this.recent(key);
    recent.push(this.now());
    this.failures.delete(key);
    this.failures.set(key, recent);
    // the Map keeps insertion order: the first keys are the stalest
    while (this.failures.size > this.maxKeys) this.failures.delete(this.failures.keys().next().value!);
  }

  reset(key: string): void {
    this.failures.delete(key);
  }

  private recent(key: string): number[] {
    const since = this.now() - this.rule.windowMs;
    const list = (this.failures.get(key) ?? []).filter((t) => t > since);
    if (list.length === 0) this.failures.delete(key);
    return list;
  }
}

export const SIGN_IN_RULES = {
  perEmailAndAddress: { max: 5, windowMs: 15 * 60_000 },
  perEmail: { max: 30, windowMs: 15 * 60_000 },
} as const;

interface SignInLimiters {
  byAddress: FailureLimiter;
  byEmail: FailureLimiter;
}

// on globalThis so that every route bundle (and dev reloads) share one count
const cache = globalThis as unknown as { batonSignInLimiters?: SignInLimiters };

function limiters(): SignInLimiters {
  cache.batonSignInLimiters ??= {
    byAddress: new FailureLimiter(SIGN_IN_RULES.perEmailAndAddress),
    byEmail: new FailureLimiter(SIGN_IN_RULES.perEmail),
  };
  return cache.batonSignInLimiters;
}

/** The client's address as the request reports it (first X-Forwarded-For entry), else "unknown". */
export function clientAddress(request: Request): string {
  return request.headers.get("x-forwarded-for")?.split(",")[0]?.trim() || request.headers.get("x-real-ip")?.trim() || "unknown";
}

export const signInLimiter = {
  retryAfterMs(email: string, address: string): number {
    const l = limiters();
    return Math.max(l.byAddress.retryAfterMs(`${email}|${address}`), l.byEmail.retryAfterMs(email));
  },
  fail(email: string, address: string): void {
    const l = limiters();
    l.byAddress.fail(`${email}|${address}`);
    l.byEmail.fail(email);
  },
  succeed(email: string, address: string): void {
    limiters().byAddress.reset(`${email}|${address}`);
  },
};
