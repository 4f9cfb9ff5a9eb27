import { useId, useState } from 'preact/hooks';
import { api, unwrap } from '../api/client';
import { useApi } from '../api/use-api';
import { links } from '../router';
import { useDebounced } from './debounce';

type Result = Awaited<ReturnType<typeof search>>[number];

async function search(q: string, type: 'player' | undefined) {
  if (q.length < 2) return [];
  return unwrap(await api.GET('/v1/search', { params: { query: { q, limit: '8', ...(type ? { type } : {}) } } })).results;
}

function hrefOf(r: Result): string {
  if (r.type === 'player' && r.service_id) return links.player(r.service_id);
  if (r.type === 'club' && r.service_id) return links.club(r.service_id);
  if (r.type === 'competition' && r.competition) return links.competition(r.competition);
  return links.competitions();
}

function detail(r: Result): string {
  if (r.type === 'player') return [r.position, r.club_name, r.age != null ? `${r.age}` : null].filter(Boolean).join(' · ');
  if (r.type === 'club') return ['club', r.competition ?? r.country].filter(Boolean).join(' · ');
  return ['competition', r.country].filter(Boolean).join(' · ');
}

export type SearchResult = Result;

/**
 * Type-ahead over /v1/search: asks after a 300 ms pause, from two characters; arrows, Enter and
 * Escape work. A pick opens the result's page, or goes to `onPick` (players only) when given.
 */
export function SearchBox({ onPick, label = 'Search players, clubs and competitions', placeholder = 'Search players, clubs…' }: { onPick?: (r: Result) => void; label?: string; placeholder?: string }) {
  const ids = useId();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const q = useDebounced(text.trim(), 300);
  const results = useApi(() => search(q, onPick ? 'player' : undefined), [q]);
  const list = results.state === 'ok' ? results.data : [];
  const go = (r: Result) => {
    if (onPick) onPick(r);
    else location.hash = hrefOf(r);
    setText('');
    setOpen(false);
    setActive(-1);
  };
  return (
    <div class="search" role="search">
      <label for={`${ids}-q`} class="sr-only">
        {label}
      </label>
      <input
        id={`${ids}-q`}
        type="text"
        placeholder={placeholder}
        autocomplete="off"
        role="combobox"
        aria-expanded={open && q.length >= 2}
        aria-controls={`${ids}-list`}
        aria-autocomplete="list"
        aria-activedescendant={open && q.length >= 2 && active >= 0 && active < list.length ? `${ids}-r${active}` : undefined}
        value={text}
        onInput={(e) => {
          setText(e.currentTarget.value);
          setOpen(true);
          setActive(-1);
        }}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') setActive((a) => Math.min(list.length - 1, a + 1));
          else if (e.key === 'ArrowUp') setActive((a) => Math.max(-1, a - 1));
          else if (e.key === 'Escape') setOpen(false);
          else if (e.key === 'Enter' && list.length > 0) go(list[Math.max(0, active)]);
          else return;
          e.preventDefault();
        }}
      />
      {open && q.length >= 2 && (
        <ul id={`${ids}-list`} role="listbox" class="search-results" aria-label="Search results">
          {results.state === 'loading' && <li class="muted">Searching…</li>}
          {results.state === 'error' && <li class="error">{results.message}</li>}
          {results.state === 'ok' && list.length === 0 && <li class="muted">No match for “{q}”.</li>}
          {list.map((r, i) => (
            <li key={`${r.type}-${r.service_id ?? r.competition}`} id={`${ids}-r${i}`} role="option" aria-selected={i === active} class={i === active ? 'active' : ''} onMouseDown={(e) => (e.preventDefault(), go(r))}>
              <span class="name">{r.name}</span> <span class="muted">{detail(r)}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
