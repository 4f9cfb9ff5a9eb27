import { Algorithm, hash, verify } from '@node-rs/argon2';

/** argon2id (the library's default algorithm) with its default cost: 19 MiB, 2 passes, ~15 ms here. */
const OPTIONS = { algorithm: Algorithm.Argon2id };

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** False for a wrong password and for a malformed stored hash alike. */
export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;

/**
 * A hash of a random secret with the same cost as real ones: verifying against it when the email is
 * unknown makes an unknown email take as long as a wrong password.
 */
export function dummyPasswordHash(): Promise<string> {
  dummy ??= hash(`dummy-${Math.random()}-${Date.now()}`, OPTIONS);
  return dummy;
}
