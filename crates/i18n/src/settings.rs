//! A toggle setting that does not fit a lesson, in the language in effect: the sentence
//! for each [`SettingsError`], from the `link` catalogue. Toggle names and values are
//! the lesson file's words, as SQL is, and stay as written.

use lesson::SettingsError;

use crate::{text_in, Arg, Lang};

/// `error` as the language in effect words it.
pub fn settings_error(error: &SettingsError) -> String {
    settings_error_in(crate::lang(), error)
}

/// `error` as `lang` words it.
pub fn settings_error_in(lang: Lang, error: &SettingsError) -> String {
    let text = |key: &str, args: &[(&str, Arg)]| text_in(lang, key, args);
    match error {
        SettingsError::UnknownToggle { name, known } if known.is_empty() => {
            text("link-unknown-toggle-none", &[("name", Arg::from(name))])
        }
        SettingsError::UnknownToggle { name, known } => text(
            "link-unknown-toggle",
            &[
                ("name", Arg::from(name)),
                ("known", Arg::from(known.join(", "))),
            ],
        ),
        SettingsError::NotAValue { name, values, .. } if error.empty_value() => text(
            "link-empty-value",
            &[
                ("name", Arg::from(name)),
                ("values", Arg::from(values.join(", "))),
            ],
        ),
        SettingsError::NotAValue {
            name,
            value,
            values,
        } => text(
            "link-not-a-value",
            &[
                ("name", Arg::from(name)),
                ("value", Arg::from(value)),
                ("values", Arg::from(values.join(", "))),
            ],
        ),
    }
}
