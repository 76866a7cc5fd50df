import { useEffect, useId, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import './chemistries.css';

/** A marker the editor can show or offer: its id, its name, and the aliases it may be typed as. */
export interface MarkerChoice {
  id: string;
  name: string;
  aliases?: readonly string[];
}

export interface MarkerOrderEditorProps {
  /** The configuration, in order (spec 3: markerConfiguration, an ordered list of entries each holding a marker). */
  value: readonly MarkerChoice[];
  onChange(next: MarkerChoice[]): void;
  /** Markers that may be added; those already in the list are not offered again. */
  choices: readonly MarkerChoice[];
  /** How a choice is called in messages: "No Y-STR marker named Amelogenin". */
  choiceNoun?: string;
  /** Shows the order only, without the controls that change it. */
  readOnly?: boolean;
  /** The form's message for the whole list, e.g. "Add at least one marker". */
  error?: string | undefined;
  legend?: string;
  required?: boolean;
}

type Direction = 'up' | 'down';

function moved<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}

/**
 * An ordered marker list (a kit's configuration) the user extends, shortens and reorders. Move up,
 * Move down and Remove are buttons named after their marker, so keyboard and screen-reader users
 * can do everything; dragging a row (native HTML5 drag and drop) is a shortcut for mouse users.
 * Focus follows the moved marker, and each change is announced in a live region.
 */
export function MarkerOrderEditor(props: MarkerOrderEditorProps) {
  const { value, onChange, choices, choiceNoun = 'marker', readOnly = false, error, legend = 'Markers', required = false } = props;
  const id = useId();
  const [text, setText] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [dragFrom, setDragFrom] = useState<number | null>(null);
  const [dropAt, setDropAt] = useState<number | null>(null);
  const controls = useRef(new Map<string, HTMLButtonElement | null>());
  const input = useRef<HTMLInputElement>(null);
  const focusNext = useRef<string | null>(null);

  useEffect(() => {
    if (focusNext.current === null) return;
    const target = focusNext.current === 'input' ? input.current : controls.current.get(focusNext.current);
    focusNext.current = null;
    target?.focus();
  });

  const inList = new Set(value.map((m) => m.id));
  const offered = choices.filter((c) => !inList.has(c.id));
  const messages = [note, error].filter((m): m is string => Boolean(m));

  const place = (from: number, to: number) => {
    const marker = value[from]!;
    onChange(moved(value, from, to));
    setAnnouncement(`${marker.name} moved to position ${to + 1} of ${value.length}`);
  };
  const move = (from: number, direction: Direction) => {
    const to = direction === 'up' ? from - 1 : from + 1;
    const marker = value[from]!;
    // At either end the button just pressed is disabled; focus its twin so the keyboard user stays on the marker.
    const atEnd = to === 0 || to === value.length - 1;
    focusNext.current = `${marker.id}:${atEnd ? (direction === 'up' ? 'down' : 'up') : direction}`;
    place(from, to);
  };
  const remove = (index: number) => {
    const marker = value[index]!;
    const neighbour = value[index + 1] ?? value[index - 1];
    focusNext.current = neighbour ? `${neighbour.id}:remove` : 'input';
    onChange(value.filter((_, i) => i !== index));
    setAnnouncement(`${marker.name} removed`);
  };
  const add = () => {
    const typed = text.trim();
    if (!typed) return;
    const key = typed.toLowerCase();
    const matches = (m: MarkerChoice) => m.name.toLowerCase() === key || (m.aliases ?? []).some((a) => a.toLowerCase() === key);
    const present = value.find(matches);
    const found = offered.find(matches);
    if (present) setNote(`${present.name} is already in the list`);
    else if (!found) setNote(`No ${choiceNoun} named ${typed}`);
    else {
      onChange([...value, found]);
      setNote(null);
      setText('');
      setAnnouncement(`${found.name} added at position ${value.length + 1}`);
    }
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      // Enter adds the marker instead of submitting the form.
      e.preventDefault();
      add();
    }
  };

  const dragHandlers = (index: number) =>
    readOnly
      ? {}
      : {
          draggable: true,
          onDragStart: (e: DragEvent) => {
            setDragFrom(index);
            e.dataTransfer.effectAllowed = 'move';
            e.dataTransfer.setData('text/plain', value[index]!.name);
          },
          onDragOver: (e: DragEvent) => {
            if (dragFrom === null) return;
            e.preventDefault();
            e.dataTransfer.dropEffect = 'move';
            setDropAt(index);
          },
          onDrop: (e: DragEvent) => {
            e.preventDefault();
            if (dragFrom !== null && dragFrom !== index) place(dragFrom, index);
            setDragFrom(null);
            setDropAt(null);
          },
          onDragEnd: () => {
            setDragFrom(null);
            setDropAt(null);
          },
        };

  const ref = (key: string) => (el: HTMLButtonElement | null) => {
    controls.current.set(key, el);
  };

  return (
    <fieldset className={`marker-order${error ? ' field--invalid' : ''}`} aria-describedby={messages.length > 0 ? `${id}-error` : undefined}>
      <legend className="field__label">
        {legend}
        {required ? <span aria-hidden="true"> *</span> : null}
        <span className="marker-order__count"> ({value.length})</span>
      </legend>
      {value.length === 0 ? (
        <p className="marker-order__empty">No markers yet.{readOnly ? '' : ' Add them in the order the kit reports them.'}</p>
      ) : (
        <ol className="marker-order__list" aria-label={`${legend} in order`}>
          {value.map((marker, index) => (
            <li
              key={marker.id}
              className={`marker-order__item${dragFrom === index ? ' marker-order__item--dragging' : ''}${dropAt === index && dragFrom !== index ? ' marker-order__item--drop' : ''}`}
              {...dragHandlers(index)}
            >
              <span className="marker-order__position">{index + 1}</span>
              <span className="marker-order__name">{marker.name}</span>
              {readOnly ? null : (
                <span className="marker-order__actions">
                  <button type="button" className="marker-order__button" aria-label={`Move ${marker.name} up`} disabled={index === 0} onClick={() => move(index, 'up')} ref={ref(`${marker.id}:up`)}>
                    <span aria-hidden="true">↑</span>
                  </button>
                  <button
                    type="button"
                    className="marker-order__button"
                    aria-label={`Move ${marker.name} down`}
                    disabled={index === value.length - 1}
                    onClick={() => move(index, 'down')}
                    ref={ref(`${marker.id}:down`)}
                  >
                    <span aria-hidden="true">↓</span>
                  </button>
                  <button type="button" className="marker-order__button marker-order__button--remove" aria-label={`Remove ${marker.name}`} onClick={() => remove(index)} ref={ref(`${marker.id}:remove`)}>
                    <span aria-hidden="true">×</span>
                  </button>
                </span>
              )}
            </li>
          ))}
        </ol>
      )}
      {readOnly ? null : (
        <div className="marker-order__add">
          <label className="field__label" htmlFor={`${id}-add`}>
            Marker to add
          </label>
          <div className="marker-order__entry">
            <input
              id={`${id}-add`}
              ref={input}
              className="input"
              list={`${id}-choices`}
              value={text}
              autoComplete="off"
              aria-describedby={`${id}-hint`}
              onChange={(e) => {
                setText(e.target.value);
                setNote(null);
              }}
              onKeyDown={onKeyDown}
            />
            <datalist id={`${id}-choices`}>
              {offered.map((c) => (
                <option key={c.id} value={c.name} />
              ))}
            </datalist>
            <button type="button" className="button button--secondary" onClick={add}>
              Add marker
            </button>
          </div>
          <p className="field__hint" id={`${id}-hint`}>
            Type to search by name or alias, then press Enter or Add marker. Reorder with the arrow buttons, or drag a row.
          </p>
        </div>
      )}
      {messages.length > 0 ? (
        <p className="field__error" id={`${id}-error`}>
          {messages.join('. ')}
        </p>
      ) : null}
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
    </fieldset>
  );
}
