import type { RouteOptions } from 'fastify';

type HookName = 'onRequest' | 'preValidation';
type AnyHook = (...args: never[]) => unknown;

/** The hooks this module added, so a route's copy (Fastify's HEAD beside a GET) does not get them twice. */
const added = new WeakSet<AnyHook>();

/**
 * Puts `hook` first among the route's own hooks of that name, from an onRoute hook: what a request
 * pays is then decided once per route, not looked up on every request.
 */
export function prependRouteHook(route: RouteOptions, name: HookName, hook: AnyHook): void {
  const own = route[name] as AnyHook | AnyHook[] | undefined;
  const list = own === undefined ? [] : Array.isArray(own) ? own : [own];
  if (list.some((h) => added.has(h))) return;
  added.add(hook);
  (route as unknown as Record<HookName, AnyHook[]>)[name] = [hook, ...list];
}
