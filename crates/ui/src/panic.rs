//! The panic hook. Release builds use `panic = "abort"`, so after a panic the wasm
//! instance is dead and Yew can render nothing more. The hook therefore writes the
//! error panel with plain DOM calls, before the abort, and links to a fresh start.

use std::cell::RefCell;
use std::panic::PanicHookInfo;

use wasm_bindgen::JsCast;
use web_sys::{Document, Element, HtmlElement};

/// `id` of the error panel (the browser tests look for it).
pub const PANEL_ID: &str = "panic-panel";

thread_local! {
    /// The panel's heading, explanation and link, in the page's language: written by
    /// the app whenever the language changes, so the hook itself looks nothing up.
    static TEXTS: RefCell<[String; 3]> = RefCell::new([
        "Lockstep stopped".to_owned(),
        "An internal error stopped the page, and it cannot carry on. Reload to start again; if it happens again, please report the message below.".to_owned(),
        "Reload Lockstep".to_owned(),
    ]);
}

/// Sets the panel's texts (heading, explanation, link) for the language now in effect.
/// They are also left on `window` for the page's own fallback (`index.html`), which
/// writes the panel when the instance stops without a panic: running out of memory
/// aborts at once, and the hook never runs.
pub fn set_texts(texts: [String; 3]) {
    if let Some(window) = web_sys::window() {
        let list = js_sys::Array::new();
        for text in &texts {
            list.push(&text.into());
        }
        let _ = js_sys::Reflect::set(&window, &"LOCKSTEP_PANIC_TEXTS".into(), &list);
    }
    TEXTS.with(|t| *t.borrow_mut() = texts);
}

/// Installs the hook through Yew, which would otherwise replace any hook set earlier
/// with its own when the app is rendered.
pub fn install() {
    yew::set_custom_panic_hook(Box::new(hook));
}

fn hook(info: &PanicHookInfo<'_>) {
    // Full message and stack trace in the console for whoever debugs it.
    console_error_panic_hook::hook(info);
    // Never panic inside the panic hook: each DOM step may fail, and then we stop.
    show_panel(&info.to_string());
}

/// Writes the error panel with `message` (once: the first panic is the one shown).
pub fn show_panel(message: &str) {
    let _ = write_panel(message);
}

fn write_panel(message: &str) -> Option<()> {
    let document = web_sys::window()?.document()?;
    if document.get_element_by_id(PANEL_ID).is_some() {
        return Some(()); // the first panic is the one worth showing
    }
    let panel = element(&document, "div", None)?;
    panel.set_id(PANEL_ID);
    panel.set_class_name("panic-panel");
    panel.set_attribute("role", "alert").ok()?;
    // Focusable from script, so keyboard and screen-reader users land on the panel.
    panel.set_attribute("tabindex", "-1").ok()?;

    // A panic while the texts are borrowed (never expected) leaves the heading empty.
    let [title, explanation, reload_text] = TEXTS
        .with(|t| t.try_borrow().map(|t| t.clone()))
        .unwrap_or_default();
    let heading = element(&document, "h2", Some(&title))?;
    let explain = element(&document, "p", Some(&explanation))?;
    // text_content, not inner_html: the message may contain user text.
    let details = element(&document, "pre", Some(message))?;
    details.set_class_name("panic-panel__message");
    let reload = element(&document, "a", Some(&reload_text))?;
    reload.set_attribute("href", "./").ok()?;
    reload.set_class_name("panic-panel__reload");

    for child in [&heading, &explain, &details, &reload] {
        panel.append_child(child).ok()?;
    }
    let body = document.body()?;
    body.append_child(&panel).ok()?;
    if let Some(main) = document.get_element_by_id("main") {
        // The dead app's controls would only mislead; hide them from mouse and reader.
        let _ = main.set_attribute("inert", "");
    }
    panel.dyn_into::<HtmlElement>().ok()?.focus().ok()
}

fn element(document: &Document, tag: &str, text: Option<&str>) -> Option<Element> {
    let element = document.create_element(tag).ok()?;
    if text.is_some() {
        element.set_text_content(text);
    }
    Some(element)
}
