import { useState } from 'preact/hooks';
import { useApi } from '../api/use-api';
import { ScrollRegion } from '../ui/ScrollRegion';
import { Show } from '../ui/states';
import { loadActivity, removeMember, ROLES, setMember, type Members, type Role } from './data';

/** The organisation's members; an owner adds, changes roles and removes. */
export function MembersPanel({ org, act }: { org: Members; act: (work: () => Promise<unknown>) => Promise<void> }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('scout');
  const owner = org.role === 'owner' || org.role === null;
  return (
    <section class="card" aria-labelledby="members-h">
      <h2 id="members-h">Members of {org.organisation}</h2>
      <ul class="members">
        {org.members.map((m) => (
          <li key={m.email}>
            <span>{m.email}</span>
            {owner ? (
              <>
                <select aria-label={`Role of ${m.email}`} value={m.role} onChange={(e) => void act(() => setMember(m.email, e.currentTarget.value as Role))}>
                  {ROLES.map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                </select>
                <button type="button" class="remove" aria-label={`Remove ${m.email}`} onClick={() => void act(() => removeMember(m.email))}>
                  Remove
                </button>
              </>
            ) : (
              <span class="muted">{m.role}</span>
            )}
          </li>
        ))}
      </ul>
      {owner && (
        <form
          class="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (email.trim()) void act(() => setMember(email.trim(), role).then(() => setEmail('')));
          }}
        >
          <label>
            Email
            <input type="email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
          </label>
          <label>
            Role
            <select value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </label>
          <button type="submit">Add member</button>
        </form>
      )}
    </section>
  );
}

/** The last 200 changes, newest first. */
export function ActivityPanel({ version }: { version: number }) {
  const activity = useApi(() => loadActivity(), [version]);
  return (
    <section class="card" aria-labelledby="activity-h">
      <h2 id="activity-h">Activity</h2>
      <Show loaded={activity} what="the activity">
        {(rows) =>
          rows.length === 0 ? (
            <p>Nothing yet.</p>
          ) : (
            <ScrollRegion label="Activity">
              <ol class="activity">
                {rows.map((a, i) => (
                  <li key={i}>
                    <time dateTime={a.at}>{a.at.slice(0, 16).replace('T', ' ')}</time> <strong>{a.actor}</strong> {a.detail}
                  </li>
                ))}
              </ol>
            </ScrollRegion>
          )
        }
      </Show>
    </section>
  );
}
