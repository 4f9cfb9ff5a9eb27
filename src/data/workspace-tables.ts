import type { ColumnType, Generated } from 'kysely';

/** Rows of migration 012's tables; access/ (memberships) and the workspace store read them through `withTables`. */
type Stamp = ColumnType<string, string | undefined, string>;

export type WorkspaceTables = {
  organisations: { id: Generated<number>; name: string; created_at: Stamp };
  org_members: { account_id: number; org_id: number; role: string; added_at: Stamp };
  lists: {
    id: Generated<number>;
    org_id: number | null;
    account_id: number | null;
    name: string;
    kind: ColumnType<'list' | 'shortlist', 'list' | 'shortlist' | undefined, never>;
    created_by: string;
    created_at: Stamp;
    updated_at: Stamp;
  };
  list_entries: { list_id: number; player_id: string; status: string; added_by: string; added_at: Stamp; seq: Generated<number> };
  entry_notes: { id: Generated<number>; list_id: number; player_id: string; author: string; text: string; at: Stamp };
  org_activity: {
    id: Generated<number>;
    org_id: number;
    at: Stamp;
    actor: string;
    action: string;
    list_id: number | null;
    player_id: string | null;
    detail: string;
  };
  shadow_squads: { org_id: number; club_id: string; sell: ColumnType<unknown, string, string>; targets: ColumnType<unknown, string, string>; updated_by: string; updated_at: Stamp };
};

export interface ActivityInsert {
  org_id: number;
  actor: string;
  action: string;
  list_id?: number | null;
  player_id?: string | null;
  detail: string;
}
