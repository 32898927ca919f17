import { AppError } from '../core/errors.ts';

/**
 * The rendering slots of one process with a bounded, timed wait in front of them. An unbounded wait
 * (the plain Semaphore) let a burst of public transform requests pile up sockets, sources in memory
 * and minutes of latency; here a request either gets a slot within `maxWaitMs`, or is told at once
 * (503 with Retry-After) that the server is busy, which a browser or a CDN can retry.
 *
 * A task takes a weight of slots: the heaviest renderings (a master from a large source, an AVIF)
 * take every slot, so their memory never adds up with another rendering's.
 */
export interface RenderQueueOptions {
  /** Renderings at once (in weight units). */
  slots: number;
  /** Renderings that may wait for a slot; one more is refused at once. */
  maxWaiting: number;
  /** How long a rendering may wait for a slot before it is refused. */
  maxWaitMs: number;
}

interface Waiter {
  weight: number;
  grant: () => void;
}

export class RenderQueue {
  private used = 0;
  private readonly waiting: Waiter[] = [];

  readonly options: RenderQueueOptions;

  constructor(options: RenderQueueOptions) {
    this.options = options;
  }

  /** Renderings waiting for a slot now (tests and the log read it). */
  get waitingCount(): number {
    return this.waiting.length;
  }

  async run<T>(task: () => Promise<T>, weight = 1): Promise<T> {
    const taken = Math.min(Math.max(1, weight), this.options.slots);
    await this.acquire(taken);
    try {
      return await task();
    } finally {
      this.used -= taken;
      this.grantWaiting();
    }
  }

  private acquire(weight: number): Promise<void> {
    // First come, first served: a light task does not overtake a heavy one already waiting.
    if (this.waiting.length === 0 && this.used + weight <= this.options.slots) {
      this.used += weight;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.options.maxWaiting) return Promise.reject(busy(this.options, 'every rendering slot is taken and the queue is full'));
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        weight,
        grant: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        const at = this.waiting.indexOf(waiter);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(busy(this.options, `no rendering slot came free within ${this.options.maxWaitMs} ms`));
        // A heavy waiter leaving may let lighter ones behind it start.
        this.grantWaiting();
      }, this.options.maxWaitMs);
      this.waiting.push(waiter);
    });
  }

  private grantWaiting(): void {
    while (this.waiting.length > 0 && this.used + this.waiting[0]!.weight <= this.options.slots) {
      const next = this.waiting.shift()!;
      this.used += next.weight;
      next.grant();
    }
  }
}

/** 503 whose Retry-After is about the time a queue's worth of renderings takes to drain. */
function busy(options: RenderQueueOptions, why: string): AppError {
  const retryAfter = Math.max(1, Math.ceil(options.maxWaitMs / 1000));
  return new AppError('SERVICE_UNAVAILABLE', `The server is busy rendering images (${why}); try again in ${retryAfter} seconds`, { retryAfter });
}
