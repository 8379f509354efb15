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

/// An author's HTML (a lesson's text, a goal, a hint) whose links to the app's own pages
/// (`href="#/..."`) carry [`link_lang`], as the links the app builds do: a learner who
/// came by a `lang=pl` link and follows one stays in Polish. Links that name a language
/// already, and links elsewhere, are left alone.
pub fn localize_links(html: &str) -> std::borrow::Cow<'_, str> {
    const HREF: &str = "href=\"#/";
    let Some(lang) = link_lang() else {
        return html.into();
    };
    if !html.contains(HREF) {
        return html.into();
    }
    let mut out = String::with_capacity(html.len() + 16);
    let mut rest = html;
    while let Some(at) = rest.find(HREF) {
        let start = at + HREF.len();
        let Some(len) = rest[start..].find('"') else {
            break;
        };
        let url = &rest[start..start + len];
        out.push_str(&rest[..start + len]);
        if !url.contains("lang=") {
            // The Markdown renderer escapes `&` in attributes.
            out.push_str(if url.contains('?') {
                "&amp;lang="
            } else {
                "?lang="
            });
            out.push_str(lang.as_str());
        }
        rest = &rest[start + len..];
    }
    out.push_str(rest);
    out.into()
}

/// A lock resource's text with a key range named in the page's language (see
/// [`::i18n::key_words`]).
pub fn resource_words(resource: &str) -> String {
    ::i18n::key_words(lang(), resource)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_in_authors_html_carry_the_links_language() {
        let html = r##"<p>See <a href="#/lesson/queue-wait-or-skip">Wait</a>, <a href="#/lesson/queue-claim-race?anomaly=1&amp;t=5">the first</a>, <a href="#/lesson/x?lang=ja">ja</a> and <a href="https://example.org/">out</a>.</p>"##;
        set_link_lang(None);
        assert_eq!(localize_links(html), html);
        set_link_lang(Some(Lang::Pl));
        assert_eq!(
            localize_links(html),
            r##"<p>See <a href="#/lesson/queue-wait-or-skip?lang=pl">Wait</a>, <a href="#/lesson/queue-claim-race?anomaly=1&amp;t=5&amp;lang=pl">the first</a>, <a href="#/lesson/x?lang=ja">ja</a> and <a href="https://example.org/">out</a>.</p>"##
        );
        set_link_lang(None);
    }
}
