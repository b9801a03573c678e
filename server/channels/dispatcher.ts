// Starts the outbox's posts to receivers outside (webhook endpoints, the apps' back-channel logout
// services) without the lane (lane.ts) waiting on them: a receiver that never answers holds its own
// slot until the post's timeout, not the lane, and everyone else's deliveries go meanwhile. The
// slots are capped: one post at a time per key (an endpoint, an app: its deliveries in order), a
// few per owner (whoever chose the receivers) and a few more in all, so one owner can never take
// every slot; one owner may keep a share of its own that the others together never take.
import { reportDeliveryError } from './lane';

export interface DueDelivery {
  id: string;
  /** At most one post per key is under way. */
  key: string;
  /** Whose receiver it goes to. */
  owner: string;
}

/** What has no slot now, for the due query to leave out (so its look-ahead is not filled with it). */
export interface NoSlot {
  keys: string[];
  owners: string[];
  /** Only the reserved owner's deliveries have a slot (the others have taken all theirs). */
  othersFull: boolean;
}

/** One kind of delivery: what is due, and its post. */
export interface Deliveries {
  /** Due deliveries, oldest first, a bounded look-ahead of them, leaving out what has no slot. */
  due(noSlot: NoSlot): Promise<DueDelivery[]>;
  /** Claims the delivery (nothing when another process took it), posts it and stores the outcome. */
  send(id: string): Promise<void>;
}

export interface Caps {
  /** Posts under way at once in this process. */
  total: number;
  /** Posts under way at once to one owner's receivers. */
  perOwner: number;
  /** An owner whose `perOwner` slots the others never take: together they have `total − perOwner`. */
  reserved?: string;
}

export class Dispatcher {
  /** By key. */
  private readonly inFlight = new Map<string, { owner: string; done: Promise<void> }>();

  /** `finished` is told when a post ends (its key may have more due). */
  constructor(
    private readonly deliveries: Deliveries,
    private readonly caps: Caps,
    private readonly finished: () => void,
  ) {}

  /** Starts every due delivery there is a slot for. */
  async dispatch(stopped: () => boolean): Promise<void> {
    for (;;) {
      if (stopped() || this.inFlight.size >= this.caps.total) return;
      const due = await this.deliveries.due(this.noSlot());
      let started = 0;
      for (const delivery of due) {
        if (stopped() || this.inFlight.size >= this.caps.total) return;
        if (!this.hasSlot(delivery)) continue;
        this.start(delivery);
        started++;
      }
      if (!started) return;
    }
  }

  /** Waits for the posts under way (each ends by its timeout). */
  async stop(): Promise<void> {
    await Promise.all([...this.inFlight.values()].map((post) => post.done));
  }

  private postsOf(owner: string): number {
    return [...this.inFlight.values()].filter((post) => post.owner === owner).length;
  }

  /** Posts under way to the owners without a share of their own. */
  private othersPosts(): number {
    return this.inFlight.size - (this.caps.reserved === undefined ? 0 : this.postsOf(this.caps.reserved));
  }

  private othersFull(): boolean {
    return this.caps.reserved !== undefined && this.othersPosts() >= this.caps.total - this.caps.perOwner;
  }

  private hasSlot({ key, owner }: DueDelivery): boolean {
    if (this.inFlight.has(key) || this.postsOf(owner) >= this.caps.perOwner) return false;
    return owner === this.caps.reserved || !this.othersFull();
  }

  private noSlot(): NoSlot {
    const owners = new Set([...this.inFlight.values()].map((post) => post.owner));
    return {
      keys: [...this.inFlight.keys()],
      owners: [...owners].filter((owner) => this.postsOf(owner) >= this.caps.perOwner),
      othersFull: this.othersFull(),
    };
  }

  private start({ id, key, owner }: DueDelivery): void {
    const done = this.deliveries
      .send(id)
      .catch(reportDeliveryError)
      .finally(() => {
        this.inFlight.delete(key);
        this.finished();
      });
    this.inFlight.set(key, { owner, done });
  }
}
