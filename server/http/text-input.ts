import type { FastifyInstance } from 'fastify';
// From the errors' own module, not ./errors, which registers this check: neither imports the other.
import { BadRequest } from '../errors';

/** A lone half of a UTF-16 surrogate pair: JSON.parse("\"\\ud800\"") makes one, and PostgreSQL would store U+FFFD instead. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What keeps PostgreSQL from storing `text` as sent (text columns refuse NUL, jsonb refuses \u0000), or null. */
export function textProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'text may not contain the NUL character';
  if (LONE_SURROGATE.test(text)) return 'text may not contain a lone surrogate (broken UTF-16)';
  return null;
}

const UNPRINTABLE = new RegExp(`\u0000|${LONE_SURROGATE.source}`, 'g');
/** A key or file name as it can be shown: the characters refused written as escapes ("a\u0000b"). */
const shown = (text: string) => text.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Refuses `text` with a 400 whose message starts with `label` (the field as people read it) and whose details give `path`. */
export function checkText(label: string, path: string, text: string): void {
  const problem = textProblem(text);
  if (problem) throw new BadRequest(`${shown(label)}: ${problem}`, [{ path: shown(path), message: problem }]);
}

const WHERE = { body: '', query: 'query parameter ', params: 'path parameter ' } as const;

/** Where a value sits: its key and its parent's place, so a path is only spelled out for the one refused. */
interface Place {
  key: string;
  parent: Place | null;
}
const segmentsOf = (place: Place | null): string[] => {
  const segments: string[] = [];
  for (let p = place; p; p = p.parent) segments.push(p.key);
  return segments.reverse();
};

/**
 * Checks every string and key of a parsed body, query or params. A loop over a stack, not
 * recursion: JSON.parse reads a 1 MB body of nested arrays fine, and this must not overflow on it.
 */
export function checkTextTree(root: unknown, where: keyof typeof WHERE): void {
  const stack: [Place | null, unknown][] = [[null, root]];
  const check = (place: Place | null, text: string) => {
    if (textProblem(text) === null) return;
    const segments = segmentsOf(place);
    checkText(`${WHERE[where]}${segments.join('/') || where}`, `/${segments.join('/')}`, text);
  };
  while (stack.length > 0) {
    const [place, value] = stack.pop()!;
    if (typeof value === 'string') check(place, value);
    else if (Array.isArray(value)) value.forEach((item, i) => stack.push([{ key: String(i), parent: place }, item]));
    else if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) {
      for (const [key, item] of Object.entries(value)) {
        const child = { key, parent: place };
        check(child, key);
        stack.push([child, item]);
      }
    }
  }
}

/**
 * Refuses NUL characters and lone surrogates in every request's JSON body, query string and path
 * parameters, before validation and so before any handler writes: PostgreSQL's refusal (22021,
 * 22P05) surfaced as a 500, and a lone surrogate was stored as U+FFFD, not as sent.
 * Multipart fields and file names are checked where they are read (multipart-form.ts).
 */
export function registerTextInputCheck(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    checkTextTree(request.params, 'params');
    checkTextTree(request.query, 'query');
    checkTextTree(request.body, 'body');
  });
}
