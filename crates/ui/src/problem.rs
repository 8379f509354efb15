//! What a link asks for that the page cannot follow (`t=soon`, `view=wide`, an unknown
//! toggle): data read from the URL when it is parsed, worded when the page shows it,
//! in the page's language then (the route is read before the language applies).
//! `Display` is the English sentence, as tests and logs read it; [`LinkProblem::text`]
//! is the sentence in the language in effect, from the `link` catalogue. Parameter
//! names, values and examples stay as the URL writes them.
//!
//! The worker never words one: it skips bad settings without a reason (see
//! [`crate::player::settings_skipping`]), so its wasm carries no catalogue.

use std::fmt;

use engine::ParseScheduleError;
use lesson::SettingsError;

use crate::i18n;

/// One parameter of a link that could not be followed, with its value as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkProblem {
    /// `t=` is not milliseconds of virtual time.
    Time { value: String },
    /// `e=` is not an event count.
    Events { value: String },
    /// `anomaly=` is not a number counting from 1.
    Anomaly { value: String },
    /// `seed=` is not a whole number.
    Seed { value: String },
    /// `schedule=` does not read as a schedule.
    Schedule(ParseScheduleError),
    /// `schedule=` is timed where the scheduler wants an untimed one.
    TimedSchedule { value: String },
    /// `steps=` is not a number of statements.
    Steps { value: String },
    /// `view=` is neither `compact` nor `full`.
    View { value: String },
    /// `theme=` is neither `light` nor `dark`.
    Theme { value: String },
    /// A parameter compare does not take.
    CompareParam { name: String },
    /// An item of compare's `left=`/`right=` (`side`) that is not `name:value`.
    TogglePair { side: String, item: String },
    /// A toggle setting the lesson refuses (boxed: it is the largest problem by far).
    Setting(Box<BadSetting>),
}

/// A toggle setting of a link that the lesson refuses, `name=value`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadSetting {
    pub name: String,
    pub value: String,
    pub error: SettingsError,
    /// The toggle's default value, shown instead (none for an unknown toggle).
    pub default: Option<String>,
}

impl BadSetting {
    /// The sentence in the language in effect.
    pub fn text(&self) -> String {
        let BadSetting {
            name,
            value,
            error,
            default,
        } = self;
        let default = default
            .as_ref()
            .map(|d| crate::t!("link-showing-default", setting = format!("{name}={d}")))
            .unwrap_or_default();
        crate::t!(
            "link-bad-setting",
            setting = format!("{name}={value}"),
            error = i18n::settings_error(error),
            default = default
        )
    }
}

/// The English sentence.
impl fmt::Display for BadSetting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = &self.name;
        write!(
            f,
            "The link asks for `{name}={}`, but {}",
            self.value, self.error
        )?;
        if let Some(default) = &self.default {
            write!(f, "; showing `{name}={default}`")?;
        }
        f.write_str(".")
    }
}

impl LinkProblem {
    /// The sentence in the language in effect.
    pub fn text(&self) -> String {
        use crate::t;
        if let Some((key, _, value, _)) = self.bad_value() {
            return i18n::text(key, &[("value", i18n::Arg::from(value))]);
        }
        match self {
            LinkProblem::Schedule(e) => t!(
                "link-schedule",
                text = &e.text,
                item = e.item,
                token = &e.token
            ),
            LinkProblem::CompareParam { name } => t!("link-compare-param", name = name),
            LinkProblem::TogglePair { side, item } => {
                t!("link-toggle-pair", side = side, item = item)
            }
            LinkProblem::Setting(setting) => setting.text(),
            _ => unreachable!("a bad value is worded above"),
        }
    }

    /// A parameter whose value does not read (`t=soon`): its catalogue key, its name
    /// in the URL, the value, and the English sentence after `name=value`.
    fn bad_value(&self) -> Option<(&'static str, &'static str, &str, &'static str)> {
        use LinkProblem::*;
        let (key, name, value, english) = match self {
            Time { value } => (
                "link-time",
                "t",
                value,
                "is not a time: write milliseconds of virtual time, e.g. `t=1500`",
            ),
            Events { value } => (
                "link-events",
                "e",
                value,
                "is not an event count: write a whole number, e.g. `e=12`",
            ),
            Anomaly { value } => (
                "link-anomaly",
                "anomaly",
                value,
                "is not an anomaly's number: write one counting from 1, e.g. `anomaly=1`",
            ),
            Seed { value } => (
                "link-seed",
                "seed",
                value,
                "is not a seed: write a whole number, e.g. `seed=7`",
            ),
            TimedSchedule { value } => (
                "link-timed-schedule",
                "schedule",
                value,
                "is a timed schedule: the scheduler runs untimed, and its schedules start `u.`",
            ),
            Steps { value } => (
                "link-steps",
                "steps",
                value,
                "is not a number of statements: write a whole number, e.g. `steps=6`",
            ),
            View { value } => (
                "link-view",
                "view",
                value,
                "is not a view: write `view=compact` or `view=full`",
            ),
            Theme { value } => (
                "link-theme",
                "theme",
                value,
                "is not a theme: write `theme=light` or `theme=dark`",
            ),
            Schedule(_) | CompareParam { .. } | TogglePair { .. } | Setting(_) => return None,
        };
        Some((key, name, value, english))
    }

    /// Whether the English sentence contains `text` (for tests and logs).
    pub fn contains(&self, text: &str) -> bool {
        self.to_string().contains(text)
    }
}

/// The English sentence.
impl fmt::Display for LinkProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some((_, name, value, english)) = self.bad_value() {
            return write!(f, "`{name}={value}` {english}");
        }
        match self {
            LinkProblem::Schedule(e) => e.fmt(f),
            LinkProblem::CompareParam { name } => write!(
                f,
                "`{name}` is not a compare parameter: use `left`, `right`, `seed` or `t`"
            ),
            LinkProblem::TogglePair { side, item } => write!(
                f,
                "`{side}={item}` is not a toggle setting: write `name:value`, e.g. `{side}=readpast:off`"
            ),
            LinkProblem::Setting(setting) => setting.fmt(f),
            _ => unreachable!("a bad value is written above"),
        }
    }
}

/// Compares the English sentence, so a test can list the sentences it expects.
impl PartialEq<&str> for LinkProblem {
    fn eq(&self, other: &&str) -> bool {
        let english = self.to_string();
        english == *other
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::catalog;
    use crate::i18n::{set_lang, Lang};
    use crate::player::settings_from;
    use crate::route::Route;

    /// Links with every problem a route can have, one link per kind of page.
    const HASHES: [&str; 4] = [
        "#/lesson/x?t=soon&e=-1&seed=x&anomaly=0&schedule=0.x.1",
        "#/embed/x?view=wide&theme=pink",
        "#/lesson/x/schedule?schedule=0.1&steps=many",
        "#/lesson/x/compare?left=readpast&speed=2",
    ];

    /// What [`HASHES`] and two bad toggle settings have always said in English.
    const ENGLISH: [&str; 13] = [
        "`t=soon` is not a time: write milliseconds of virtual time, e.g. `t=1500`",
        "`e=-1` is not an event count: write a whole number, e.g. `e=12`",
        "`seed=x` is not a seed: write a whole number, e.g. `seed=7`",
        "`anomaly=0` is not an anomaly's number: write one counting from 1, e.g. `anomaly=1`",
        "schedule `0.x.1`: item 2 (`x`) is not a session number or NUMBER~COUNT",
        "`view=wide` is not a view: write `view=compact` or `view=full`",
        "`theme=pink` is not a theme: write `theme=light` or `theme=dark`",
        "`schedule=0.1` is a timed schedule: the scheduler runs untimed, and its schedules start `u.`",
        "`steps=many` is not a number of statements: write a whole number, e.g. `steps=6`",
        "`left=readpast` is not a toggle setting: write `name:value`, e.g. `left=readpast:off`",
        "`speed` is not a compare parameter: use `left`, `right`, `seed` or `t`",
        "The link asks for `readpast=maybe`, but `maybe` is not a value of toggle `readpast` (values: on, off); showing `readpast=on`.",
        "The link asks for `colour=red`, but unknown toggle `colour` (toggles: readpast, ranks).",
    ];

    fn problems(hash: &str) -> Vec<LinkProblem> {
        match Route::parse(hash) {
            Route::Lesson(route) => route.problems,
            Route::Embed(embed) => embed.lesson.problems,
            Route::Schedule(schedule) => schedule.lesson.problems,
            Route::Compare(compare) => compare.problems,
            other => panic!("{hash}: {other:?}"),
        }
    }

    /// One of each problem, in the order of [`ENGLISH`].
    fn each() -> Vec<LinkProblem> {
        let mut all: Vec<LinkProblem> = HASHES.into_iter().flat_map(problems).collect();
        let lesson = catalog().lesson("queue-wait-or-skip").unwrap().clone();
        let pairs = [("readpast", "maybe"), ("colour", "red")].map(|(n, v)| (n.into(), v.into()));
        all.extend(settings_from(&lesson, &pairs).1);
        all
    }

    #[test]
    fn english_reads_as_before_in_display_and_in_the_catalogue() {
        set_lang(Lang::En);
        let all = each();
        assert_eq!(all, ENGLISH);
        for problem in all {
            assert_eq!(problem.text(), problem.to_string(), "{problem:?}");
        }
    }

    /// A broken link read while the page speaks Polish or Japanese shows no English, and
    /// keeps the values as the link wrote them.
    #[test]
    fn polish_and_japanese_word_every_problem_with_its_value() {
        for lang in [Lang::Pl, Lang::Ja] {
            set_lang(lang);
            for (problem, english) in each().into_iter().zip(ENGLISH) {
                let text = problem.text();
                for word in [" is ", "is not", "write", "unknown", "toggle", "e.g."] {
                    assert!(!text.contains(word), "{lang:?}: {text}");
                }
                // The first thing in backquotes: `t=soon`, `0.x.1`, `readpast=maybe`.
                let raw = english.split('`').nth(1).unwrap();
                assert!(text.contains(raw), "{lang:?}: {text} lacks {raw}");
            }
        }
        set_lang(Lang::Pl);
        assert_eq!(
            problems(HASHES[0])[0].text(),
            "`t=soon` to nie czas: podaj milisekundy czasu wirtualnego, np. `t=1500`"
        );
        set_lang(Lang::Ja);
        assert_eq!(
            problems(HASHES[1])[0].text(),
            "`view=wide` は表示形式ではありません。`view=compact` か `view=full` と書いてください"
        );
        set_lang(Lang::En);
    }
}
