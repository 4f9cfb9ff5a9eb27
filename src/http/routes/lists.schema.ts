import { z } from 'zod';
import { ENTRY_STATUSES, LIST_ENTRIES_MAX, ORG_ROLES } from '../../domain/workspace.js';
import { bodyObject, playerIdField, storable } from '../fields.js';
import { playerIdOut } from '../schemas.js';
import { NOTE_MAX } from './shortlist.schema.js';

export const LIST_NAME_MAX = 100;

const isMissing = (input: unknown) => input === undefined || input === '';

/** `list_id` in a query string: digits. */
export const listIdQuery = () =>
  z
    .string({ error: (iss) => (isMissing(iss.input) ? 'list_id is required' : 'Invalid list_id') })
    .min(1, { error: 'list_id is required' })
    .regex(/^[1-9]\d{0,9}$/, { error: 'Invalid list_id' })
    .transform(Number)
    .refine((n) => n <= 2_147_483_647, { error: 'Invalid list_id' })
    .describe('The list\'s id, as GET /v1/lists gives it');

/** `list_id` in a JSON body: a JSON number. */
const listIdBody = () =>
  z
    .number({ error: (iss) => (iss.input === undefined ? 'list_id is required' : 'Invalid list_id') })
    .int({ error: 'Invalid list_id' })
    .min(1, { error: 'Invalid list_id' })
    .max(2_147_483_647, { error: 'Invalid list_id' })
    .describe('The list\'s id, as GET /v1/lists gives it');

const listIdOut = () => z.number().int().describe('The list\'s id');
const emailOut = (what: string) => z.string().describe(`${what}: a member's email`);
const atOut = (what: string) => z.string().describe(`${what} (ISO 8601, UTC)`);

export const listOut = z
  .object({
    list_id: listIdOut(),
    name: z.string().describe('The list\'s name'),
    players: z.number().int().describe('Players on the list'),
    updated_at: atOut('The last change to the list or one of its players'),
  })
  .describe('A list');

export const listsOut = z
  .object({ lists: z.array(listOut).describe('The organisation\'s lists, oldest first; an account without one gets its own, its Shortlist first') })
  .describe('The lists');

export const listCreateBody = bodyObject({
  name: z
    .string({ error: (iss) => (iss.input === undefined ? 'name is required' : 'name must be a string') })
    .trim()
    .min(1, { error: 'name is required' })
    .max(LIST_NAME_MAX, { error: 'name is too long' })
    .refine(storable, { error: 'Invalid name' })
    .describe(`The list's name, 1 to ${LIST_NAME_MAX} characters`),
});

export const listQuery = z.object({ list_id: listIdQuery() });

export const statusField = () =>
  z.enum(ENTRY_STATUSES, { error: 'Invalid status' }).describe(`Where the player stands: ${ENTRY_STATUSES.join(', ')}`);

export const entryOut = z
  .object({
    player_id: playerIdOut(),
    name: z.string().describe('The player\'s display name'),
    status: statusField(),
    added_by: emailOut('Who added him'),
    added_at: atOut('When he was added'),
    notes: z
      .array(
        z
          .object({ author: emailOut('Who wrote it'), text: z.string().describe('The note'), at: atOut('When it was written') })
          .describe('A note on him'),
      )
      .describe('The notes on him, oldest first'),
  })
  .describe('A player on the list');

export const entriesOut = z
  .object({
    list_id: listIdOut(),
    name: z.string().describe('The list\'s name'),
    entries: z.array(entryOut).describe(`Newest first, at most ${LIST_ENTRIES_MAX}`),
  })
  .describe('A list with its players');

export const entryPutBody = bodyObject({
  list_id: listIdBody(),
  player_id: playerIdField(),
  status: statusField().optional().describe(`Where the player stands: ${ENTRY_STATUSES.join(', ')}; a new entry without one is watching, a listed player keeps his`),
  note: z
    .string({ error: 'note must be a string' })
    .trim()
    .min(1, { error: 'note must not be empty' })
    .max(NOTE_MAX, { error: 'note is too long' })
    .refine(storable, { error: 'Invalid note' })
    .optional()
    .describe(`A note on him, at most ${NOTE_MAX} characters, appended to his notes with its author`),
});

export const entryQuery = z.object({ list_id: listIdQuery(), player_id: playerIdField() });

export const roleField = () => z.enum(ORG_ROLES, { error: 'Invalid role' }).describe('owner: everything; scout: lists, entries and the shadow squad; viewer: reads only');

export const membersOut = z
  .object({
    organisation: z.string().describe('The organisation\'s name'),
    members: z
      .array(z.object({ email: z.string().describe('The member\'s email'), role: roleField() }).describe('A member'))
      .describe('Every member, by email'),
  })
  .describe('The organisation and its members');

const emailField = (name: string) =>
  z
    .string({ error: (iss) => (isMissing(iss.input) ? `${name} is required` : `Invalid ${name}`) })
    .trim()
    .min(1, { error: `${name} is required` })
    .max(254, { error: `Invalid ${name}` })
    .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { error: `Invalid ${name}` })
    .refine(storable, { error: `Invalid ${name}` })
    .describe('The account\'s email (case-insensitive)');

export const memberPutBody = bodyObject({ email: emailField('email'), role: roleField() });
export const memberQuery = z.object({ email: emailField('email') });

export const activityOut = z
  .object({
    activity: z
      .array(
        z
          .object({
            at: atOut('When'),
            actor: emailOut('Who'),
            action: z
              .string()
              .describe('list_created, list_deleted, entry_added, status_changed, note_added, entry_removed, member_added, member_removed, role_changed or shadow_squad_saved'),
            list_id: listIdOut().optional().describe('The list it concerns, when it concerns one'),
            player_id: playerIdOut().optional().describe('The player it concerns, when it concerns one'),
            detail: z.string().describe('What was done, in a sentence'),
          })
          .describe('A change'),
      )
      .describe('The last 200 changes, newest first'),
  })
  .describe('The organisation\'s activity');
