import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { sanitizeRichHtml } from './sanitize-rich-html';
import { LinkDialog } from './link-dialog';

type Command = 'bold' | 'italic' | 'insertUnorderedList' | 'insertOrderedList';

const BUTTONS: readonly { command: Command; label: string; text: string }[] = [
  { command: 'bold', label: 'Bold', text: 'B' },
  { command: 'italic', label: 'Italic', text: 'I' },
  { command: 'insertUnorderedList', label: 'Bulleted list', text: '• List' },
  { command: 'insertOrderedList', label: 'Numbered list', text: '1. List' },
];

/** Arrow keys, Home and End move between the toolbar's buttons (WAI-ARIA toolbar pattern). */
const TOOLBAR_KEYS: Readonly<Record<string, (index: number, count: number) => number>> = {
  ArrowRight: (i, n) => (i + 1) % n,
  ArrowLeft: (i, n) => (i - 1 + n) % n,
  Home: () => 0,
  End: (_i, n) => n - 1,
};

/**
 * execCommand is deprecated but is still the one editing API every browser implements for
 * contentEditable; where it is missing (tests, old engines) the buttons do nothing and typing still works.
 */
function exec(command: string, value?: string): void {
  if (typeof document.execCommand === 'function') document.execCommand(command, false, value);
}
function commandState(command: Command): boolean {
  try {
    return typeof document.queryCommandState === 'function' && document.queryCommandState(command);
  } catch {
    return false;
  }
}

interface RichTextEditorProps {
  /** The id of the visible label naming the text. */
  labelId: string;
  hintId?: string;
  initialHtml: string;
  /** Moves focus into the text when the editor opens (it replaces the Edit button the user pressed). */
  autoFocus?: boolean;
  /** Called with the sanitized HTML after every change. */
  onChange(html: string): void;
}

/**
 * A small rich-text editor: a contentEditable text box with Bold, Italic, bulleted and numbered
 * lists and links. The toolbar is one tab stop (arrow keys move inside it, WAI-ARIA toolbar
 * pattern); pasted content arrives as plain text; the output is cleaned to the allow-list on
 * every change, so what is saved is what the preview of the page shows.
 */
export function RichTextEditor({ labelId, hintId, initialHtml, autoFocus = false, onChange }: RichTextEditorProps) {
  const area = useRef<HTMLDivElement>(null);
  const range = useRef<Range | null>(null);
  const [pressed, setPressed] = useState<Record<Command, boolean>>({ bold: false, italic: false, insertUnorderedList: false, insertOrderedList: false });
  const [focusIndex, setFocusIndex] = useState(0);
  const [linkHref, setLinkHref] = useState<string | null>(null);
  const toolbar = useRef<HTMLDivElement>(null);

  useEffect(() => {
    // Set once: rewriting the content while the user types would move the caret.
    if (!area.current) return;
    area.current.innerHTML = sanitizeRichHtml(initialHtml);
    if (autoFocus) area.current.focus();
  }, []);

  useEffect(() => {
    // Remember the selection inside the text, so the toolbar (which takes focus) acts on it.
    const remember = () => {
      const selection = document.getSelection();
      if (selection && selection.rangeCount > 0 && area.current?.contains(selection.anchorNode)) {
        range.current = selection.getRangeAt(0).cloneRange();
        setPressed({
          bold: commandState('bold'),
          italic: commandState('italic'),
          insertUnorderedList: commandState('insertUnorderedList'),
          insertOrderedList: commandState('insertOrderedList'),
        });
      }
    };
    document.addEventListener('selectionchange', remember);
    return () => document.removeEventListener('selectionchange', remember);
  }, []);

  const emit = () => {
    if (area.current) onChange(sanitizeRichHtml(area.current.innerHTML));
  };
  const restoreSelection = () => {
    area.current?.focus();
    const selection = document.getSelection();
    if (selection && range.current) {
      selection.removeAllRanges();
      selection.addRange(range.current);
    }
  };
  const run = (command: string, value?: string) => {
    restoreSelection();
    exec(command, value);
    emit();
  };

  const openLink = () => {
    const anchor = range.current?.startContainer.parentElement?.closest('a');
    setLinkHref(anchor && area.current?.contains(anchor) ? (anchor.getAttribute('href') ?? '') : '');
  };
  const applyLink = (href: string) => {
    setLinkHref(null);
    restoreSelection();
    if (range.current?.collapsed) {
      // Nothing selected: the address itself becomes the link text.
      const text = document.createTextNode(href);
      const anchor = document.createElement('a');
      anchor.href = href;
      anchor.append(text);
      exec('insertHTML', anchor.outerHTML);
    } else {
      exec('createLink', href);
    }
    emit();
  };

  const cancelLink = () => {
    setLinkHref(null);
    restoreSelection();
  };

  const buttons = [
    ...BUTTONS.map((b) => ({ key: b.command, label: b.label, text: b.text, pressed: pressed[b.command], onClick: () => run(b.command) })),
    { key: 'link', label: 'Link', text: 'Link', pressed: undefined, onClick: openLink },
    { key: 'unlink', label: 'Remove link', text: 'Unlink', pressed: undefined, onClick: () => run('unlink') },
  ];
  const moveFocus = (event: KeyboardEvent) => {
    const move = TOOLBAR_KEYS[event.key];
    if (!move) return;
    event.preventDefault();
    const target = move(focusIndex, buttons.length);
    setFocusIndex(target);
    toolbar.current?.querySelectorAll('button')[target]?.focus();
  };

  return (
    <div className="rich-editor">
      <div ref={toolbar} role="toolbar" aria-label="Formatting" className="rich-editor__toolbar" onKeyDown={moveFocus}>
        {buttons.map((b, i) => (
          <button
            key={b.key}
            type="button"
            className="button button--ghost rich-editor__button"
            aria-label={b.label}
            aria-pressed={b.pressed}
            tabIndex={i === focusIndex ? 0 : -1}
            // Keep the text's selection when the button is clicked with the mouse.
            onMouseDown={(e) => e.preventDefault()}
            onFocus={() => setFocusIndex(i)}
            onClick={b.onClick}
          >
            {b.text}
          </button>
        ))}
      </div>
      <div
        ref={area}
        className="input rich-editor__area rich-text"
        role="textbox"
        aria-multiline="true"
        aria-labelledby={labelId}
        aria-describedby={hintId}
        contentEditable
        suppressContentEditableWarning
        onFocus={() => exec('defaultParagraphSeparator', 'p')}
        onInput={emit}
        onPaste={(event) => {
          event.preventDefault();
          exec('insertText', event.clipboardData.getData('text/plain'));
          emit();
        }}
      />
      <LinkDialog open={linkHref !== null} initialHref={linkHref ?? ''} onSubmit={applyLink} onCancel={cancelLink} />
    </div>
  );
}
