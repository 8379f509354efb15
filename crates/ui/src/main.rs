//! Wasm entry point: install the panic hook first, then mount the app on `<body>`.

fn main() {
    lockstep_ui::panic::install();
    yew::Renderer::<lockstep_ui::App>::new().render();
}
