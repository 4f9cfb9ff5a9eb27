import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Workspace, WorkspaceRight } from '../access/interface.js';
import type { Actor, ListOwner } from '../domain/workspace.js';
import type { HttpDeps } from './deps.js';
import { ApiError } from './errors.js';

type Hook = (req: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * The role check of a workspace route (`config.workspace` names the right it needs): after the
 * access check's 401/403/429 and the body's parsing (413, a body that is not JSON), before any
 * parameter is judged, so a viewer's write is 403 whatever fields it sends. access/ decides from the
 * membership read now, so a removed member is refused at once.
 */
export function registerWorkspaceCheck(app: FastifyInstance, deps: HttpDeps): void {
  app.decorateRequest('workspace', null);
  const hooks = new Map<WorkspaceRight, Hook>();
  const hookFor = (right: WorkspaceRight): Hook => {
    let hook = hooks.get(right);
    if (!hook) {
      hook = async (req) => {
        const outcome = await deps.workspaceAccess.check(req.principal!, right);
        if (!outcome.ok) throw new ApiError(outcome.status, outcome.error);
        req.workspace = outcome.workspace;
      };
      hooks.set(right, hook);
    }
    return hook;
  };
  app.addHook('onRoute', (route: RouteOptions) => {
    const right = (route.config as { workspace?: WorkspaceRight } | undefined)?.workspace;
    if (!right) return;
    const own = route.preValidation;
    const list = own === undefined ? [] : Array.isArray(own) ? own : [own];
    const hook = hookFor(right);
    // First of the route's preValidation hooks, before strict parameters' 400 (put there earlier);
    // once, for a GET's HEAD copy too.
    if (!list.includes(hook)) route.preValidation = [hook, ...list] as RouteOptions['preValidation'];
  });
}

/** The lists a workspace holds: its organisation's, or the account's own. */
export function ownerOf(ws: Workspace): ListOwner {
  return ws.org ? { orgId: ws.org.id } : { accountId: ws.accountId };
}

export function actorOf(ws: Workspace): Actor {
  return { email: ws.email, orgId: ws.org?.id ?? null };
}

/** The organisation of a route whose right needs one (the hook has refused a caller without). */
export function orgOf(ws: Workspace): { id: number; name: string } {
  return ws.org!;
}
