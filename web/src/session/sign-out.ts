import { api } from '../api/client';
import { currentKey, signOut } from './session';

/**
 * The Sign out button: the server revokes the tab's key (POST /v1/auth/logout), then the tab forgets
 * it. When the call fails (offline, server down) the tab still signs out: the key is gone from here
 * and expires on its own.
 */
export async function signOutAndRevoke(revoke: () => Promise<unknown> = () => api.POST('/v1/auth/logout')): Promise<void> {
  if (currentKey()) {
    try {
      await revoke();
    } catch {
      // Signing out of the tab must never fail.
    }
  }
  signOut();
}
