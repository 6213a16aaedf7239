/**
 * The Available to message rows of a big room: a scroll box of their own with only the rows in and near the view in
 * the page (@tanstack/react-virtual, loaded with this chunk on demand, so the room page's initial JavaScript stays
 * within its budget). When the last rows come into view, `onEnd` asks for the online list's next page.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { PersonView } from '../../state/conversationSelectors.ts';

/** a person row's height in px (avatar 30 + padding) */
const ROW_PX = 44;
/** rows from the end at which the next page is asked for */
const END_ROWS = 10;

interface Props {
  people: PersonView[];
  row(p: PersonView): ReactNode;
  onEnd?(): void;
}

export default function VirtualPeople({ people, row, onEnd }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: people.length,
    getScrollElement: () => box.current,
    estimateSize: () => ROW_PX,
    getItemKey: (i) => people[i]!.id,
    overscan: 8,
  });
  const items = virtualizer.getVirtualItems();
  const last = items.at(-1)?.index ?? 0;
  useEffect(() => {
    if (onEnd && last >= people.length - END_ROWS) onEnd();
  }, [onEnd, last, people.length]);
  return (
    <div ref={box} className="people-scroll" data-testid="people-scroll">
      <ul className="channel-list" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {items.map((v) => (
          <li
            key={v.key}
            className="conv-item person-item"
            data-index={v.index}
            ref={virtualizer.measureElement}
            style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${v.start}px)` }}
          >
            {row(people[v.index]!)}
          </li>
        ))}
      </ul>
    </div>
  );
}
