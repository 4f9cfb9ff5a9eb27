import { useState } from 'preact/hooks';
import { useApi } from '../api/use-api';
import { href, links } from '../router';
import { loadShortlist } from '../shortlist/data';
import { useTitle } from '../ui/title';
import { Show } from '../ui/states';
import { ListBoard } from './ListBoard';
import { MembersPanel, ActivityPanel } from './OrgPanels';
import { canWrite, createList, deleteList, failureText, loadLists, loadMembers } from './data';

/** The organisation's shared lists (the account's own without one), a list's board, its members and activity. */
export function ListsPage({ query }: { query: URLSearchParams }) {
  useTitle('Lists');
  const [version, setVersion] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [name, setName] = useState('');
  const org = useApi(() => loadMembers(), [version]);
  const lists = useApi(() => loadLists(), [version]);
  const shortlist = useApi(() => loadShortlist(), []);
  const selected = Number(query.get('list') ?? '') || null;
  const role = org.state === 'ok' ? (org.data?.role ?? null) : null;
  const refresh = () => setVersion((v) => v + 1);
  const act = async (work: () => Promise<unknown>) => {
    setError(null);
    try {
      await work();
      refresh();
    } catch (err) {
      setError(failureText(err));
    }
  };

  return (
    <main id="main">
      <h1>Lists</h1>
      <p class="lead">
        {org.state === 'ok' && org.data ? `Shared by ${org.data.organisation}: every member sees them, owners and scouts change them.` : 'Your own lists of players, with a status and notes for each.'}{' '}
        <a href={links.shadowSquad()}>Shadow squad</a>
      </p>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <Show loaded={lists} what="the lists">
        {(all) => (
          <section class="card" aria-labelledby="lists-h">
            <h2 id="lists-h">Lists</h2>
            {all.length === 0 ? <p>No list yet.</p> : (
              <ul class="list-names">
                {all.map((l) => (
                  <li key={l.list_id}>
                    <a href={href('/lists', { list: String(l.list_id) })} aria-current={selected === l.list_id ? 'page' : undefined}>
                      {l.name}
                    </a>{' '}
                    <span class="muted">
                      {l.players} player{l.players === 1 ? '' : 's'} · {l.updated_at.slice(0, 10)}
                    </span>
                    {role !== 'viewer' && role !== 'scout' && (
                      <button type="button" class="remove" aria-label={`Delete list ${l.name}`} onClick={() => void act(() => deleteList(l.list_id))}>
                        Delete
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            )}
            {canWrite(role) && (
              <form
                class="inline-form"
                onSubmit={(e) => {
                  e.preventDefault();
                  const n = name.trim();
                  if (n) void act(async () => {
                    const l = await createList(n);
                    setName('');
                    location.hash = href('/lists', { list: String(l.list_id) });
                  });
                }}
              >
                <label>
                  New list
                  <input value={name} maxLength={100} onInput={(e) => setName(e.currentTarget.value)} />
                </label>
                <button type="submit">Create list</button>
              </form>
            )}
          </section>
        )}
      </Show>
      {selected !== null && (
        <ListBoard key={`${selected}-${version}`} listId={selected} role={role} shortlist={shortlist.state === 'ok' ? shortlist.data : []} onChange={refresh} onError={setError} />
      )}
      {org.state === 'ok' && org.data && (
        <div class="columns">
          <MembersPanel org={org.data} act={act} />
          <ActivityPanel version={version} />
        </div>
      )}
    </main>
  );
}
