//! The Web Worker's wasm entry point (Trunk builds it with `data-type="worker"`): it
//! answers the page's requests for long work (`lockstep_ui::worker`).

fn main() {
    lockstep_ui::worker::serve();
}
