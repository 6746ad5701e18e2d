/**
 * The downlink of Goel's bridge as an event-driven link (a link schedule with `netemPair`): netem-tbf.ts's pair
 * run on the simulator's clock. A packet's departure is not known when it is sent (a later packet's hand-over
 * can wake it, netem's throttle can hold it), so the sender learns of it by callback: `send` returns false when
 * netem's loss takes the packet as it enters (drawn then, by the slice it enters in), else the link calls
 * `departed` when tbf lets it out, or `dropped` when tbf's FIFO was full at the hand-over. Packets reach the
 * link `t` after they are sent (the path's dS), in time order; each enters the pair at its own time through a
 * FIFO lane, and the pair's watchdogs are heap events.
 */
import type { EventQueue } from '../event-queue.ts';
import { EV_LINK } from '../events.ts';
import type { PacketLink } from './bottleneck.ts';
import type { LinkSchedule } from './link-schedule.ts';
import type { LossModel } from './loss-model.ts';
import { NetemTbf, type BridgePacket } from './netem-tbf.ts';

/** What a packet's sender hears from the link: `tag` is the sender's own, handed back. */
export interface LinkSink {
  linkDeparted(item: unknown, tag: number, t: number): void;
  linkDropped(item: unknown, tag: number, t: number): void;
}

interface Carried extends BridgePacket {
  enterAt: number;
  sink: LinkSink;
  item: unknown;
  tag: number;
}

/** EV_LINK's b: a packet reaches the link, or a watchdog fires. */
const ENTER = 0;
const TIMER = 1;

export class BridgeLink implements PacketLink {
  readonly deferred = true;
  readonly lossy = true;
  readonly reorders: boolean;
  losses = 0;
  packets = 0;
  private readonly pair: NetemTbf<Carried>;
  private readonly waiting: Carried[] = [];
  private waitingHead = 0;
  private q: EventQueue | undefined;
  private lane = -1;

  constructor(private readonly s: LinkSchedule, private readonly loss: LossModel, limitBytes: number) {
    this.reorders = s.reorder;
    this.pair = new NetemTbf<Carried>(s, limitBytes, {
      arm: (t) => this.q!.schedule(t, EV_LINK, this, TIMER),
      departed: (p, t) => p.sink.linkDeparted(p.item, p.tag, t),
      dropped: (p, t) => p.sink.linkDropped(p.item, p.tag, t),
    });
  }

  get drops(): number {
    return this.pair.drops;
  }

  /** The simulation's clock; call before the first send. */
  attach(q: EventQueue): void {
    this.q = q;
    this.lane = q.addLane();
    this.waiting.length = 0;
    this.waitingHead = 0;
  }

  /** A packet reaching the link at t (non-decreasing across calls); false: netem lost it as it entered. */
  send(t: number, wireBytes: number, sink: LinkSink, item: unknown, tag: number): boolean {
    this.packets++;
    if (this.loss.lost(t)) {
      this.losses++;
      return false;
    }
    this.waiting.push({ bytes: wireBytes, sendAt: NaN, enterAt: t, sink, item, tag });
    this.q!.scheduleLane(this.lane, t, EV_LINK, this, ENTER);
    return true;
  }

  /** EV_LINK. */
  onEvent(kind: number, now: number): void {
    if (kind === TIMER) {
      this.pair.fire(now);
      return;
    }
    const p = this.waiting[this.waitingHead++]!;
    if (this.waitingHead === this.waiting.length) {
      this.waiting.length = 0;
      this.waitingHead = 0;
    }
    this.pair.enter(p, now);
  }

  offer(): number {
    throw new Error('BridgeLink: packets go through send() (their departures come by callback)');
  }

  drawLoss(t?: number): boolean {
    if (!this.loss.lost(t)) return false;
    this.losses++;
    return true;
  }

  extraDelay(t: number): number {
    const s = this.s;
    return s.delayMs[Math.floor(Math.max(0, t) / s.sliceMs) % s.delayMs.length]!;
  }
}
