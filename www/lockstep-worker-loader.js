// The Web Worker that runs Lockstep's long work (Explore, Check) off the page's main
// thread. Trunk builds its glue and wasm (data-type="worker": named after the binary,
// not hashed, since the page names them at run time). What stops the wasm from
// starting goes to the page as text, so the page can say so instead of waiting.
try {
  importScripts("lockstep-worker.js");
  wasm_bindgen({ module_or_path: "lockstep-worker_bg.wasm" }).catch(function (e) {
    postMessage("its wasm did not start: " + e);
  });
} catch (e) {
  postMessage("its script did not load: " + e);
}
