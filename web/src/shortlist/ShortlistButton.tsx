import { useEffect, useId, useState } from 'preact/hooks';
import { addToShortlist, loadShortlist, removeFromShortlist } from './data';

/** "Add to shortlist" ⇄ "Remove from shortlist", with the account's note on him. */
export function ShortlistButton({ playerId }: { playerId: string }) {
  const ids = useId();
  const [listed, setListed] = useState<boolean | null>(null);
  const [note, setNote] = useState('');
  const [saved, setSaved] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    loadShortlist().then(
      (list) => {
        if (!live) return;
        const e = list.find((p) => p.player_id === playerId);
        setListed(Boolean(e));
        setNote(e?.note ?? '');
        setSaved(e?.note ?? '');
      },
      (err: unknown) => live && setError(err instanceof Error ? err.message : 'Could not read the shortlist.'),
    );
    return () => {
      live = false;
    };
  }, [playerId]);

  const act = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(err instanceof Error ? err.message : 'The shortlist did not change.');
    } finally {
      setBusy(false);
    }
  };

  const toggle = () =>
    void act(async () => {
      if (listed) {
        await removeFromShortlist(playerId);
        setListed(false);
      } else {
        const e = await addToShortlist(playerId, note.trim() === '' ? undefined : note);
        setSaved(e.note ?? '');
        setListed(true);
      }
    });

  const saveNote = (e: Event) => {
    e.preventDefault();
    void act(async () => {
      const entry = await addToShortlist(playerId, note);
      setSaved(entry.note ?? '');
      setListed(true);
    });
  };

  return (
    <form class="shortlist-box" onSubmit={saveNote}>
      <button type="button" onClick={toggle} disabled={busy || listed === null} aria-pressed={listed ?? false}>
        {listed ? 'Remove from shortlist' : 'Add to shortlist'}
      </button>
      <label for={`${ids}-note`}>
        Note
        <input id={`${ids}-note`} type="text" maxLength={2000} value={note} onInput={(e) => setNote(e.currentTarget.value)} placeholder="Why he is worth a look" />
      </label>
      <button type="submit" class="secondary" disabled={busy || note === saved}>
        Save note
      </button>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
