// The wasm half of the native/wasm parity check (`cargo xtask parity`, also a step of
// `cargo xtask test`): runs every lesson's default run in the lockstep-parity wasm
// module and prints `<file name>\t<digest>` per lesson, sorted by name, exactly as the
// native `lockstep-parity` binary does; xtask compares the two outputs.
//
//   node e2e/parity.mjs <lockstep_parity.wasm> [lessons dir]
//
// Build the module first:
//   cargo rustc -p lockstep-parity --lib --crate-type cdylib --target wasm32-unknown-unknown --release
// (the module is then target/wasm32-unknown-unknown/release/lockstep_parity.wasm).
// The module has no imports and no wasm-bindgen glue: crates/parity/src/lib.rs (`ffi`)
// documents the functions it exports. Not a *.test.mjs file: the browser runner
// (run.mjs) does not pick it up.

import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';

const [wasmPath, lessonsDir = 'lessons'] = process.argv.slice(2);
if (!wasmPath) {
  console.error('usage: node e2e/parity.mjs <lockstep_parity.wasm> [lessons dir]');
  process.exit(2);
}

const { instance } = await WebAssembly.instantiate(await readFile(wasmPath), {});
const wasm = instance.exports;
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Copies bytes into wasm memory; returns [pointer, length] for parity_free. */
function pass(bytes) {
  const ptr = wasm.parity_alloc(bytes.length);
  // A fresh view every time: allocating may have grown (and detached) the memory.
  new Uint8Array(wasm.memory.buffer, ptr, bytes.length).set(bytes);
  return [ptr, bytes.length];
}

/** The digest of one lesson's default run, or `error: ...` as the native side prints. */
function digest(name, text) {
  const [namePtr, nameLen] = pass(encoder.encode(name));
  const [textPtr, textLen] = pass(encoder.encode(text));
  const status = wasm.parity_digest(namePtr, nameLen, textPtr, textLen);
  const ptr = wasm.parity_result_ptr();
  const len = wasm.parity_result_len();
  const result = decoder.decode(new Uint8Array(wasm.memory.buffer, ptr, len));
  wasm.parity_free(namePtr, nameLen);
  wasm.parity_free(textPtr, textLen);
  return status === 0 ? result : `error: ${result.replace(/[\r\n]/g, ' ')}`;
}

const names = (await readdir(lessonsDir))
  .filter((f) => f.endsWith('.md') && f.toLowerCase() !== 'readme.md')
  .sort();
for (const name of names) {
  const text = await readFile(join(lessonsDir, name), 'utf8');
  console.log(`${name}\t${digest(name, text)}`);
}
