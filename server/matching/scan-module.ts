import { HEADER, leb128, name, section, vector } from '../genetics/statistics/wasm-listing';
import { I32 } from './wasm-opcodes';

/** The most pages a scan's memory may have: 4 GiB, the 32-bit address space (shared-memory.ts). */
const MAX_PAGES = 65_536;

/** A module exporting one function `scan`, (i32 × params) → i32, over the shared memory it imports as env.memory. */
function scanModule(code: readonly number[], params: number): WebAssembly.Module {
  return new WebAssembly.Module(
    new Uint8Array([
      ...HEADER,
      ...section(1, vector([[0x60, ...vector(Array.from({ length: params }, () => [I32])), ...vector([[I32]])]])),
      ...section(2, vector([[...name('env'), ...name('memory'), 0x02, 0x03, ...leb128(0), ...leb128(MAX_PAGES)]])),
      ...section(3, vector([leb128(0)])),
      ...section(7, vector([[...name('scan'), 0x00, ...leb128(0)]])),
      ...section(10, vector([[...leb128(code.length), ...code]])),
    ]),
  );
}

const modules = new Map<string, WebAssembly.Module>();
const instances = new WeakMap<WebAssembly.Memory, Map<string, unknown>>();

/**
 * A generated scan function over a column memory (the category and placements passes): its module assembled once per
 * `key` (what its body depends on) from `body()`, instantiated once per memory in this thread.
 */
export function scanFunction<T>(memory: WebAssembly.Memory, key: string, params: number, body: () => number[]): T {
  let byKey = instances.get(memory);
  if (!byKey) instances.set(memory, (byKey = new Map()));
  let scan = byKey.get(key) as T | undefined;
  if (!scan) {
    let module = modules.get(key);
    if (!module) modules.set(key, (module = scanModule(body(), params)));
    scan = new WebAssembly.Instance(module, { env: { memory } }).exports.scan as T;
    byKey.set(key, scan);
  }
  return scan;
}
