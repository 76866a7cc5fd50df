import { HEADER, leb128, name, section, vector } from '../genetics/statistics/wasm-listing';
import { I32 } from './wasm-opcodes';

/** The most pages a scan's memory may have: 4 GiB, the 32-bit address space (shared-memory.ts). */
const MAX_PAGES = 65_536;

/** One exported function of a generated module: its name, its count of i32 parameters (it returns an i32) and its body. */
export interface ScanExport {
  name: string;
  params: number;
  body: () => number[];
}

/** A module exporting `functions`, each (i32 × params) → i32, over the shared memory it imports as env.memory. */
function scanModule(functions: readonly ScanExport[]): WebAssembly.Module {
  const codes = functions.map((f) => f.body());
  return new WebAssembly.Module(
    new Uint8Array([
      ...HEADER,
      ...section(1, vector(functions.map((f) => [0x60, ...vector(Array.from({ length: f.params }, () => [I32])), ...vector([[I32]])]))),
      ...section(2, vector([[...name('env'), ...name('memory'), 0x02, 0x03, ...leb128(0), ...leb128(MAX_PAGES)]])),
      ...section(3, vector(functions.map((_, i) => leb128(i)))),
      ...section(7, vector(functions.map((f, i) => [...name(f.name), 0x00, ...leb128(i)]))),
      ...section(10, vector(codes.map((code) => [...leb128(code.length), ...code]))),
    ]),
  );
}

const modules = new Map<string, WebAssembly.Module>();
const instances = new WeakMap<WebAssembly.Memory, Map<string, WebAssembly.Exports>>();

/**
 * Generated scan functions over a column memory (the category and placements passes): their module assembled once per
 * `key` (what the bodies depend on), instantiated once per memory in this thread; the exports by name.
 */
export function scanFunctions(memory: WebAssembly.Memory, key: string, functions: readonly ScanExport[]): WebAssembly.Exports {
  let byKey = instances.get(memory);
  if (!byKey) instances.set(memory, (byKey = new Map()));
  let exports = byKey.get(key);
  if (!exports) {
    let module = modules.get(key);
    if (!module) modules.set(key, (module = scanModule(functions)));
    exports = new WebAssembly.Instance(module, { env: { memory } }).exports;
    byKey.set(key, exports);
  }
  return exports;
}

/** One generated function `scan` of `params` i32 parameters (scanFunctions with one export). */
export function scanFunction<T>(memory: WebAssembly.Memory, key: string, params: number, body: () => number[]): T {
  return scanFunctions(memory, key, [{ name: 'scan', params, body }]).scan as T;
}
