//! The interface's languages: English, Polish and Japanese.
//!
//! Strings live in Fluent catalogues, `crates/i18n/locales/<lang>/<area>.ftl`, embedded at
//! build time and parsed on first use of a language. [`t!`](crate::t) looks a message up
//! in the language in effect, with arguments; plural forms come from the catalogue's
//! plural rules (CLDR, through `fluent-bundle`), numbers are written as the language
//! writes them ([`group_digits`], [`decimal`]). A key missing from a language falls back
//! to English; one missing from English shows as `⟦key⟧`, which the browser tests look
//! for (and `tests::every_key_is_in_every_language` fails before it ships).
//!
//! The language in effect is one per thread (the page's main thread, or the CLI's), set
//! by the app as it renders or by `--lang`, so pure functions that write sentences need
//! no extra parameter; unit tests set it for their own thread with [`set_lang`].
//!
//! [`detail`] words a check's verdict ([`lesson::Detail`]) in the language in effect, and
//! [`settings_error`] a toggle setting that does not fit a lesson
//! ([`lesson::SettingsError`]).

use std::cell::{Cell, OnceCell};

use fluent_bundle::{FluentArgs, FluentBundle, FluentResource, FluentValue};

/// A language of the interface; `lang=` in URLs and `<html lang>` use [`Lang::as_str`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    #[default]
    En,
    Pl,
    Ja,
}

impl Lang {
    pub const ALL: [Lang; 3] = [Lang::En, Lang::Pl, Lang::Ja];

    pub fn as_str(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Pl => "pl",
            Lang::Ja => "ja",
        }
    }

    pub fn parse(text: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|l| l.as_str() == text)
    }

    /// The language's own name, for the switch.
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Pl => "Polski",
            Lang::Ja => "日本語",
        }
    }

    /// The first of the browser's languages (`navigator.languages`, e.g. `pl-PL`) that
    /// the interface speaks; English when none is.
    pub fn from_browser<S: AsRef<str>>(languages: &[S]) -> Lang {
        languages
            .iter()
            .find_map(|tag| {
                let primary = tag.as_ref().split(['-', '_']).next()?;
                Lang::parse(&primary.to_ascii_lowercase())
            })
            .unwrap_or_default()
    }

    fn index(self) -> usize {
        self as usize
    }
}

thread_local! {
    static CURRENT: Cell<Lang> = const { Cell::new(Lang::En) };
    static BUNDLES: [OnceCell<Bundle>; 3] = const { [OnceCell::new(), OnceCell::new(), OnceCell::new()] };
}

/// The language in effect on this thread.
pub fn lang() -> Lang {
    CURRENT.with(Cell::get)
}

/// Sets the language in effect on this thread (the app does it as it renders).
pub fn set_lang(lang: Lang) {
    CURRENT.with(|c| c.set(lang));
}

type Bundle = FluentBundle<FluentResource>;

/// One `(area, text)` per catalogue file of a language.
macro_rules! catalogue {
    ($lang:literal: $($area:literal),+ $(,)?) => {
        &[$(($area, include_str!(concat!("../locales/", $lang, "/", $area, ".ftl")))),+]
    };
}

/// The catalogue files, one per area of the interface. A new file is added to all three.
#[cfg(not(feature = "cli"))]
pub(crate) const CATALOGUES: [&[(&str, &str)]; 3] = [
    catalogue!("en": "app", "player", "stage", "exercise", "outcome", "check", "why", "embed", "link", "trace"),
    catalogue!("pl": "app", "player", "stage", "exercise", "outcome", "check", "why", "embed", "link", "trace"),
    catalogue!("ja": "app", "player", "stage", "exercise", "outcome", "check", "why", "embed", "link", "trace"),
];

/// As above, with the CLI's own words.
#[cfg(feature = "cli")]
pub(crate) const CATALOGUES: [&[(&str, &str)]; 3] = [
    catalogue!("en": "app", "player", "stage", "exercise", "outcome", "check", "why", "embed", "link", "cli", "trace"),
    catalogue!("pl": "app", "player", "stage", "exercise", "outcome", "check", "why", "embed", "link", "cli", "trace"),
    catalogue!("ja": "app", "player", "stage", "exercise", "outcome", "check", "why", "embed", "link", "cli", "trace"),
];

fn build(lang: Lang) -> Bundle {
    let id = lang
        .as_str()
        .parse()
        .expect("en, pl and ja are language identifiers");
    let mut bundle = Bundle::new(vec![id]);
    // No Unicode isolation marks around arguments: the interface is left to right, and
    // the marks would sit inside every copied or tested sentence.
    bundle.set_use_isolating(false);
    bundle.set_formatter(Some(match lang {
        Lang::En => format_en,
        Lang::Pl => format_pl,
        Lang::Ja => format_ja,
    }));
    for (area, text) in CATALOGUES[lang.index()] {
        let resource = FluentResource::try_new((*text).to_owned())
            .unwrap_or_else(|(_, errors)| panic!("{}/{area}.ftl: {errors:?}", lang.as_str()));
        // A key defined twice is a catalogue bug the key test reports; keep the first.
        let _ = bundle.add_resource(resource);
    }
    bundle
}

fn with_bundle<R>(lang: Lang, f: impl FnOnce(&Bundle) -> R) -> R {
    BUNDLES.with(|bundles| f(bundles[lang.index()].get_or_init(|| build(lang))))
}

/// An argument of a message: a number (selects the plural form, written per locale) or
/// text.
#[derive(Clone, Debug)]
pub enum Arg {
    Number(f64),
    Text(String),
}

macro_rules! arg_from_number {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg {
            fn from(n: $t) -> Arg {
                Arg::Number(n as f64)
            }
        }
    )*};
}
arg_from_number!(u8, u16, u32, u64, usize, i32, i64, f64);

impl From<String> for Arg {
    fn from(text: String) -> Arg {
        Arg::Text(text)
    }
}

impl From<&String> for Arg {
    fn from(text: &String) -> Arg {
        Arg::Text(text.clone())
    }
}

impl From<&str> for Arg {
    fn from(text: &str) -> Arg {
        Arg::Text(text.to_owned())
    }
}

/// The message `key` in the language in effect, falling back to English.
pub fn text(key: &str, args: &[(&str, Arg)]) -> String {
    text_in(lang(), key, args)
}

/// The message `key` in `lang`, falling back to English, else `⟦key⟧`.
pub fn text_in(lang: Lang, key: &str, args: &[(&str, Arg)]) -> String {
    let fluent_args = (!args.is_empty()).then(|| {
        let mut fluent_args = FluentArgs::new();
        for (name, value) in args {
            match value {
                Arg::Number(n) => fluent_args.set(*name, FluentValue::from(*n)),
                Arg::Text(s) => fluent_args.set(*name, FluentValue::from(s.as_str())),
            }
        }
        fluent_args
    });
    let format = |bundle: &Bundle| {
        let pattern = bundle.get_message(key)?.value()?;
        let mut errors = Vec::new();
        Some(
            bundle
                .format_pattern(pattern, fluent_args.as_ref(), &mut errors)
                .into_owned(),
        )
    };
    let text = with_bundle(lang, format)
        .or_else(|| {
            (lang != Lang::En)
                .then(|| with_bundle(Lang::En, format))
                .flatten()
        })
        .unwrap_or_else(|| format!("⟦{key}⟧"));
    match lang {
        Lang::Ja => tighten_japanese(text),
        _ => text,
    }
}

/// Japanese puts no space between two words of its own. The catalogue spaces its
/// placeables off (`{ $access } で`), which is right beside a name, a number or SQL,
/// and wrong where the placeable's text ends or starts in Japanese (`…のシーク で`):
/// there the space goes.
fn tighten_japanese(text: String) -> String {
    fn japanese(c: char) -> bool {
        matches!(c,
            '\u{3000}'..='\u{303F}' // punctuation: 、。「」
            | '\u{3040}'..='\u{30FF}' // hiragana, katakana, ー
            | '\u{4E00}'..='\u{9FFF}' // kanji
            | '\u{FF00}'..='\u{FFEF}') // full-width forms: （）：
    }
    if !text.contains(' ') {
        return text;
    }
    let chars: Vec<char> = text.chars().collect();
    chars
        .iter()
        .enumerate()
        .filter(|&(i, &c)| {
            !(c == ' '
                && i > 0
                && japanese(chars[i - 1])
                && chars.get(i + 1).is_some_and(|&n| japanese(n)))
        })
        .map(|(_, &c)| c)
        .collect()
}

/// `t!("key")`, `t!("key", count = n, name = "B")`: the message in the language in
/// effect (see [`text`]); `t!("key" in lang, ...)`: in `lang` (see [`text_in`]).
#[macro_export]
macro_rules! t {
    ($key:literal) => {
        $crate::text($key, &[])
    };
    ($key:literal in $lang:expr) => {
        $crate::text_in($lang, $key, &[])
    };
    ($key:literal in $lang:expr, $($name:ident = $value:expr),+ $(,)?) => {
        $crate::text_in($lang, $key, &[$((stringify!($name), $crate::Arg::from($value))),+])
    };
    ($key:literal, $($name:ident = $value:expr),+ $(,)?) => {
        $crate::text($key, &[$((stringify!($name), $crate::Arg::from($value))),+])
    };
}

// ---------------------------------------------------------------------------------------
// Numbers

/// How a language writes numbers: the digit group separator and the decimal mark.
fn marks(lang: Lang) -> (char, char) {
    match lang {
        // Polish groups with a no-break space, so `15 000 ms` never breaks in two.
        Lang::Pl => ('\u{a0}', ','),
        Lang::En | Lang::Ja => (',', '.'),
    }
}

/// `1500` → `1,500` (English, Japanese), `1500` (Polish); `15000` → `15 000` (Polish,
/// U+00A0).
pub fn group_digits(n: u64) -> String {
    group_in(lang(), n)
}

fn group_in(lang: Lang, n: u64) -> String {
    let (sep, _) = marks(lang);
    let digits = n.to_string();
    // CLDR's minimum grouping digits: Polish groups a number of five digits or more
    // (`1500`, `15 000`), as `Intl.NumberFormat('pl')` does.
    if lang == Lang::Pl && digits.len() <= 4 {
        return digits;
    }
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(sep);
        }
        out.push(c);
    }
    out
}

/// `whole` and up to three decimals of `thousandths` (zeros trimmed): `2.5`, `2,5`.
pub fn decimal(whole: u64, thousandths: u64) -> String {
    decimal_in(lang(), whole, thousandths)
}

fn decimal_in(lang: Lang, whole: u64, thousandths: u64) -> String {
    let mut out = group_in(lang, whole);
    if thousandths % 1000 != 0 {
        let frac = format!("{:03}", thousandths % 1000);
        out.push(marks(lang).1);
        out.push_str(frac.trim_end_matches('0'));
    }
    out
}

/// Virtual time in milliseconds: `1,500 ms`, `1500 ms`, `0.021 ms` (µs precision).
pub fn ms(us: u64) -> String {
    format!("{} ms", decimal(us / 1000, us % 1000))
}

/// Seconds to a tenth: `2.5 s`, `2,5 s`.
pub fn seconds(ms: u64) -> String {
    let tenths = (ms + 50) / 100;
    format!("{} s", decimal(tenths / 10, (tenths % 10) * 100))
}

fn format_number(lang: Lang, value: &FluentValue) -> Option<String> {
    match value {
        FluentValue::Number(n) if n.value.is_finite() && n.value >= 0.0 => {
            let thousandths = (n.value * 1000.0).round() as u64;
            Some(decimal_in(lang, thousandths / 1000, thousandths % 1000))
        }
        _ => None,
    }
}

fn format_en<M>(value: &FluentValue, _: &M) -> Option<String> {
    format_number(Lang::En, value)
}

fn format_pl<M>(value: &FluentValue, _: &M) -> Option<String> {
    format_number(Lang::Pl, value)
}

fn format_ja<M>(value: &FluentValue, _: &M) -> Option<String> {
    format_number(Lang::Ja, value)
}

mod detail;
pub use detail::detail;

mod parse_error;
pub use parse_error::parse_error;

mod settings;
pub use settings::{settings_error, settings_error_in};

mod trace;
pub use trace::event_line;

/// A lock resource's text with the simulation's words for a key range in `lang`:
/// `KEY send (end of index)` is `KEY send (koniec indeksu)` in Polish, and `KEY t
/// (range below 5)` `KEY t (zakres poniżej 5)`. The rest (kinds, tables, keys) is the
/// database's own and stays.
pub fn key_words(lang: Lang, resource: &str) -> String {
    // The engine's words (`state::storage::END_OF_INDEX`, `RANGE_BELOW`).
    const END: &str = "(end of index)";
    const BELOW: &str = "(range below ";
    if lang == Lang::En {
        return resource.to_string();
    }
    if let Some(kind) = resource.strip_suffix(END) {
        return format!("{kind}({})", t!("key-end-of-index" in lang));
    }
    match resource.find(BELOW) {
        Some(at) if resource.ends_with(')') => {
            let key = &resource[at + BELOW.len()..resource.len() - 1];
            format!(
                "{}({})",
                &resource[..at],
                t!("key-range-below" in lang, key = key)
            )
        }
        _ => resource.to_string(),
    }
}

/// The dialect's name for the `logical_reads` figure (`Dialect::reads_name`), in the
/// language in effect.
pub fn reads_label(reads_name: &str) -> String {
    match reads_name {
        "shared buffers hit" => t!("figure-buffers"),
        _ => t!("figure-reads"),
    }
}

#[cfg(test)]
mod tests;
