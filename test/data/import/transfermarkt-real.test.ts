import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase, migrateToLatest } from '../../../src/data/db.js';
import { importTransfermarkt } from '../../../src/data/import/transfermarkt.js';
import { loadWorld } from '../../../src/data/world-store.js';
import { sql } from 'kysely';
import { stableId } from '../../../src/domain/ids.js';
import { EA_FILES, keepRealWorld, REAL_DATA_DIR as DIR, realDataSkip } from '../../helpers/real-world.js';

test(
  'full import of the shared Transfermarkt copy, with the EA files',
  { skip: realDataSkip, timeout: 600_000 },
  async () => {
    const h = await openDatabase({});
    try {
      await migrateToLatest(h.db);
      const t0 = performance.now();
      const s = await importTransfermarkt(h.db, DIR, EA_FILES);
      assert.equal(s.status, 'imported');
      assert.equal(s.tables.players.loaded, 32_419);
      assert.equal(s.tables.transfers.loaded, 73_160);
      assert.equal(s.tables.player_valuations.loaded, 485_834);
      assert.equal(s.tables.appearances.skipped, 'file absent');
      // Targeted reads, where the numbers are easiest to state.
      const clubs = await h.db.selectFrom('clubs').select(['id', 'name', 'registry_a_id']).execute();
      const clubName = new Map(clubs.map((c) => [c.id, c.name]));
      const pl2023 = (await h.db.selectFrom('club_seasons').select('club_id').where('competition_id', '=', 'PREMIER_LEAGUE').where('season', '=', 2023).execute()).map(
        (c) => clubName.get(c.club_id),
      );
      assert.equal(pl2023.length, 20);
      for (const club of ['Arsenal FC', 'Manchester City', 'Liverpool FC', 'Luton Town', 'Sheffield United', 'Burnley FC']) assert.ok(pl2023.includes(club), club);
      assert.equal(clubs.find((c) => c.registry_a_id === 281)?.id, stableId('C', 'tm:club:281'));

      const steps = await h.db.selectFrom('career_steps').selectAll().where('player_id', 'in', [stableId('P', 'tm:player:346483'), stableId('P', 'tm:player:342229')]).execute();
      const career = (tm: number) =>
        steps
          .filter((c) => c.player_id === stableId('P', `tm:player:${tm}`))
          .sort((a, b) => a.start_date.localeCompare(b.start_date))
          .map((c) => [clubName.get(c.club_id), c.start_date, c.end_date, c.is_loan, c.parent_club_id && clubName.get(c.parent_club_id)]);
      // Mason Mount: two loans out of Chelsea's U23 side (Vitesse, Derby), then Chelsea, then Manchester United.
      assert.deepEqual(career(346483).slice(2), [
        ['Vitesse Arnhem', '2017-07-24', '2018-06-30', true, 'Chelsea U23'],
        ['Chelsea U23', '2018-06-30', '2018-07-17', false, null],
        ['Derby', '2018-07-17', '2019-05-31', true, 'Chelsea U23'],
        ['Chelsea U23', '2019-05-31', '2019-07-01', false, null],
        ['Chelsea FC', '2019-07-01', '2023-07-05', false, null],
        ['Manchester United', '2023-07-05', null, false, null],
      ]);
      // Kylian Mbappé: Monaco to PSG on loan (2017/18) before the permanent move.
      assert.deepEqual(career(342229).slice(-3), [
        ['Paris Saint-Germain', '2017-08-31', '2018-06-30', true, 'AS Monaco'],
        ['AS Monaco', '2018-06-30', '2018-07-01', false, null],
        ['Paris Saint-Germain', '2018-07-01', null, false, null],
      ]);
      // Real Madrid's 2023/24 squad: players of an earlier last season (Benzema 2022, Hazard 2022, Bale 2021) are gone.
      const rm = stableId('C', 'tm:club:418');
      const squad = await h.db.selectFrom('career_steps').innerJoin('players', 'players.id', 'career_steps.player_id')
        .select(['players.name', 'players.registry_a_id']).where('career_steps.club_id', '=', rm).where('career_steps.end_date', 'is', null).execute();
      const names = squad.map((p) => p.name);
      for (const gone of ['Karim Benzema', 'Eden Hazard', 'Gareth Bale']) assert.ok(!names.includes(gone), `${gone} is not in Real Madrid's squad`);
      for (const there of ['Jude Bellingham', 'Vinicius Junior', 'Luka Modric']) assert.ok(names.includes(there), `${there} is in Real Madrid's squad`);
      assert.ok(squad.length >= 22 && squad.length <= 40, `Real Madrid has ${squad.length} current players`);
      const benzema = await h.db.selectFrom('career_steps').selectAll().where('player_id', '=', stableId('P', 'tm:player:18922')).execute();
      assert.deepEqual(benzema.map((c) => [clubName.get(c.club_id), c.start_date, c.end_date]), [['Real Madrid', '2022-07-01', '2023-06-30']]);
      // Laporte: last season 2023/24 at Man City in the snapshot, but sold to Al-Nassr in August 2023.
      const laporte = await h.db.selectFrom('career_steps').selectAll().where('player_id', '=', stableId('P', 'tm:player:176553')).where('end_date', 'is', null).execute();
      assert.deepEqual(laporte.map((c) => [clubName.get(c.club_id), c.start_date]), [['Al-Nassr', '2023-08-24']]);
      assert.equal(s.current_season, '2023/2024');
      assert.ok((s.careers.ended_at_end_of_last_season ?? 0) > 20_000, `ended ${s.careers.ended_at_end_of_last_season}`);
      const counts = await sql<{ loans: number; unknown: number; zero: number; multi_open: number }>`
        select (select count(*)::int from transfers where is_loan) as loans,
               (select count(*)::int from transfers where fee_eur is null) as unknown,
               (select count(*)::int from transfers where fee_eur = 0) as zero,
               (select count(*)::int from (select player_id from career_steps where end_date is null group by player_id having count(*) > 1) x) as multi_open`.execute(h.db);
      const c = counts.rows[0];
      assert.ok(c.loans > 20_000 && c.loans < 30_000, `loan transfers ${c.loans}`);
      assert.equal(c.unknown, 25_869);
      assert.equal(c.zero, 39_008);
      assert.equal(c.multi_open, 0, 'at most one current step per player');
      // The discovery test reads this world instead of importing it again.
      keepRealWorld({ world: await loadWorld(h.db), dataVersion: s.data_version ?? s.source_hash.slice(0, 12), importMs: performance.now() - t0 });
    } finally {
      await h.close();
    }
  },
);
