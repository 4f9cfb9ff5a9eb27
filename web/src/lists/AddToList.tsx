import { useState } from 'preact/hooks';
import { useApi } from '../api/use-api';
import { links } from '../router';
import { failureText, loadLists, putEntry } from './data';

/** On a player's page: put him on one of the lists (the organisation's, or the account's own). */
export function AddToList({ playerId }: { playerId: string }) {
  const lists = useApi(() => loadLists(), []);
  const [listId, setListId] = useState('');
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  if (lists.state !== 'ok' || lists.data.length === 0) return null;
  const add = async () => {
    const list = lists.data.find((l) => String(l.list_id) === listId);
    if (!list) return;
    try {
      const e = await putEntry({ list_id: list.list_id, player_id: playerId });
      setMessage({ text: `On ${list.name} as ${e.status}.`, error: false });
    } catch (err) {
      setMessage({ text: failureText(err), error: true });
    }
  };
  return (
    <form
      class="inline-form"
      onSubmit={(e) => {
        e.preventDefault();
        void add();
      }}
    >
      <label>
        List
        <select aria-label="List to add him to" value={listId} onChange={(e) => setListId(e.currentTarget.value)}>
          <option value="">Pick a list</option>
          {lists.data.map((l) => (
            <option key={l.list_id} value={String(l.list_id)}>
              {l.name}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" class="secondary" disabled={listId === ''}>
        Add to list
      </button>
      {message && (
        <span role={message.error ? 'alert' : 'status'} class={message.error ? 'error' : 'muted'}>
          {message.text} {!message.error && <a href={links.lists(Number(listId))}>Open the list</a>}
        </span>
      )}
    </form>
  );
}
