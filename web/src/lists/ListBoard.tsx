import { useState } from 'preact/hooks';
import { useApi } from '../api/use-api';
import { links } from '../router';
import type { ShortlistEntry } from '../shortlist/data';
import { download } from '../ui/download';
import { Show } from '../ui/states';
import { authorsOf, canWrite, failureText, filterEntries, listCsv, loadEntries, putEntry, removeEntry, STATUSES, type Entry, type Role, type Status } from './data';

/** A status select's options, one a status, in the board's order (fresh nodes for each select). */
const statusOptions = () => STATUSES.map((s) => (
  <option key={s} value={s}>
    {s}
  </option>
));

interface Props {
  listId: number;
  role: Role | null;
  /** the account's shortlist, to add players from */
  shortlist: readonly ShortlistEntry[];
  onChange(): void;
  onError(message: string | null): void;
}

/** One list as a board: a column per status, a card per player with his notes; filters and CSV export. */
export function ListBoard({ listId, role, shortlist, onChange, onError }: Props) {
  const [version, setVersion] = useState(0);
  const list = useApi(() => loadEntries(listId), [listId, version]);
  const [status, setStatus] = useState<Status | ''>('');
  const [author, setAuthor] = useState('');
  const [adding, setAdding] = useState('');
  const writable = canWrite(role);
  const act = async (work: () => Promise<unknown>) => {
    onError(null);
    try {
      await work();
      setVersion((v) => v + 1);
      onChange();
    } catch (err) {
      onError(failureText(err));
    }
  };

  return (
    <Show loaded={list} what="the list">
      {(l) => {
        const shown = filterEntries(l.entries, { status, author });
        const columns = status === '' ? STATUSES : [status];
        const onList = new Set(l.entries.map((e) => e.player_id));
        const addable = shortlist.filter((p) => !onList.has(p.player_id));
        return (
          <section class="card" aria-labelledby="board-h">
            <h2 id="board-h">{l.name}</h2>
            <div class="toolbar board-tools">
              <label>
                Status
                <select aria-label="Filter by status" value={status} onChange={(e) => setStatus(e.currentTarget.value as Status | '')}>
                  <option value="">All</option>
                  {statusOptions()}
                </select>
              </label>
              <label>
                Author
                <select aria-label="Filter by author" value={author} onChange={(e) => setAuthor(e.currentTarget.value)}>
                  <option value="">Anyone</option>
                  {authorsOf(l.entries).map((a) => (
                    <option key={a} value={a}>
                      {a}
                    </option>
                  ))}
                </select>
              </label>
              <button type="button" onClick={() => download(`${l.name.replace(/[^\w.-]+/g, '_') || 'list'}.csv`, listCsv(shown))}>
                Export CSV
              </button>
            </div>
            {writable && addable.length > 0 && (
              <form
                class="inline-form"
                onSubmit={(e) => {
                  e.preventDefault();
                  if (adding) void act(() => putEntry({ list_id: listId, player_id: adding }).then(() => setAdding('')));
                }}
              >
                <label>
                  From your shortlist
                  <select value={adding} onChange={(e) => setAdding(e.currentTarget.value)}>
                    <option value="">Pick a player</option>
                    {addable.map((p) => (
                      <option key={p.player_id} value={p.player_id}>
                        {p.name}
                      </option>
                    ))}
                  </select>
                </label>
                <button type="submit">Add to list</button>
              </form>
            )}
            {l.entries.length === 0 && <p>No player on this list yet{writable ? ': add one from your shortlist, or from a player\u2019s page through the API' : ''}.</p>}
            <div class="board">
              {columns.map((s) => (
                <section key={s} class="board-column" aria-label={s}>
                  <h3>
                    {s} <span class="muted">{shown.filter((e) => e.status === s).length}</span>
                  </h3>
                  {shown
                    .filter((e) => e.status === s)
                    .map((e) => (
                      <Card key={e.player_id} e={e} writable={writable} act={act} listId={listId} />
                    ))}
                </section>
              ))}
            </div>
          </section>
        );
      }}
    </Show>
  );
}

function Card({ e, writable, act, listId }: { e: Entry; writable: boolean; act: (w: () => Promise<unknown>) => Promise<void>; listId: number }) {
  const [note, setNote] = useState('');
  return (
    <article class="board-card" aria-label={e.name}>
      <a href={links.player(e.player_id)}>{e.name}</a>
      <p class="muted small">
        added by {e.added_by} · {e.added_at.slice(0, 10)}
      </p>
      {writable && (
        <label class="small">
          Status of {e.name}
          <select value={e.status} onChange={(ev) => void act(() => putEntry({ list_id: listId, player_id: e.player_id, status: ev.currentTarget.value as Status }))}>
            {statusOptions()}
          </select>
        </label>
      )}
      {e.notes.length > 0 && (
        <ul class="notes">
          {e.notes.map((n, i) => (
            <li key={i}>
              <span class="muted small">{n.author}:</span> {n.text}
            </li>
          ))}
        </ul>
      )}
      {writable && (
        <form
          class="note-form"
          onSubmit={(ev) => {
            ev.preventDefault();
            const text = note.trim();
            if (text) void act(() => putEntry({ list_id: listId, player_id: e.player_id, note: text }).then(() => setNote('')));
          }}
        >
          <input aria-label={`Note on ${e.name}`} placeholder="Add a note" value={note} maxLength={2000} onInput={(ev) => setNote(ev.currentTarget.value)} />
          <button type="submit" class="secondary">
            Add note
          </button>
          <button type="button" class="remove" aria-label={`Remove ${e.name} from the list`} onClick={() => void act(() => removeEntry(listId, e.player_id))}>
            Remove
          </button>
        </form>
      )}
    </article>
  );
}
