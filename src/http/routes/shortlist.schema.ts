import { z } from 'zod';
import { bodyObject, playerIdField, storable } from '../fields.js';
import { playerIdOut } from '../schemas.js';

export const NOTE_MAX = 2000;

export const shortlistEntryOut = z
  .object({
    player_id: playerIdOut(),
    name: z.string().describe('The player\'s display name'),
    note: z.string().nullable().describe('The account\'s note on him; null when none was given'),
    added_at: z.string().describe('When he was first added (ISO 8601, UTC); adding him again keeps it'),
  })
  .describe('A player on the shortlist');

export const shortlistOut = z
  .object({ players: z.array(shortlistEntryOut).describe('Newest first, at most 500') })
  .describe('The account\'s shortlist');

export const shortlistAddBody = bodyObject({
  player_id: playerIdField(),
  note: z
    .string({ error: 'note must be a string' })
    .max(NOTE_MAX, { error: 'note is too long' })
    .refine(storable, { error: 'Invalid note' })
    .optional()
    .describe(`A note on him, at most ${NOTE_MAX} characters; sent again for a listed player it replaces his note`),
});

export const shortlistRemoveQuery = z.object({ player_id: playerIdField() });
