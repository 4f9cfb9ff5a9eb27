import { setFlagsFromString } from 'node:v8';

/**
 * V8 flags for a serving process, set before it loads anything.
 *
 * Allocation-site pretenuring off: when V8 sees most objects of an allocation site survive a young
 * collection, it allocates that site's later objects straight in the old generation. Building the
 * world at start, or requests held open by a slow analysis, made it decide so for Node's own
 * per-request HTTP objects (IncomingMessage, ServerResponse, socket writes); from then on every
 * request's garbage went to the old generation: each young collection took 7-14 ms instead of about
 * 1 ms (the old-to-new references of a 200 MB heap) and the old generation filled at ~25 MB/s.
 * `bench/request-gc.ts` shows it on the demo world.
 */
export function tuneHeapForServing(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}
