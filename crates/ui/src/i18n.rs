//! The interface's languages. The words, plural rules and numbers are the `lockstep-i18n`
//! crate's (shared with the CLI); what is the app's own is the `lang=` its links carry.

use std::cell::Cell;

pub use ::i18n::*;

thread_local! {
    static LINK: Cell<Option<Lang>> = const { Cell::new(None) };
}

/// The `lang=` that internal links carry (see [`crate::route::Route::href`]): none while
/// the page speaks English and its URL named no language, so English links stay as
/// they always were.
pub fn link_lang() -> Option<Lang> {
    LINK.with(Cell::get)
}

pub fn set_link_lang(lang: Option<Lang>) {
    LINK.with(|c| c.set(lang));
}

/// An error's code as the interface shows it: the dialect's code (see
/// [`engine::error_code`]), or "(no number)" in the page's language for an error that
/// has none (a rule whose number our sources do not give, what is not simulated).
pub fn error_code(number: u32, sqlstate: Option<&str>) -> String {
    if number == engine::UNNUMBERED && sqlstate.is_none() {
        crate::t!("error-unnumbered")
    } else {
        engine::error_code(number, sqlstate)
    }
}
