import type { ComponentChildren } from 'preact';

/**
 * A wide table's box, scrolled sideways on a phone. It can take the focus, so arrow keys scroll it
 * without a mouse (axe: scrollable-region-focusable), and it is named for the screen reader's list
 * of regions.
 */
export function ScrollRegion({ label, describedBy, class: extra, children }: { label: string; describedBy?: string; class?: string; children: ComponentChildren }) {
  return (
    <div class={extra ? `table-wrap ${extra}` : 'table-wrap'} role="region" aria-label={label} aria-describedby={describedBy} tabindex={0}>
      {children}
    </div>
  );
}
