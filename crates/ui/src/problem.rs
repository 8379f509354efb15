//! What a link asks for that the page cannot follow (`t=soon`, `view=wide`, an unknown
//! toggle): data read from the URL when it is parsed, worded when the page shows it,
//! in the page's language then (the route is read before the language applies).
//! Each type words itself in one place, `words(lang)`, from the `link` catalogue:
//! `text()` in the language in effect, `Display` in English (as tests and logs read it). Parameter
//! names, values and examples stay as the URL writes them.
//!
//! The worker never words one: it skips bad settings without a reason (see
//! [`crate::player::settings_skipping`]), so its wasm carries no catalogue.

use std::fmt;

use engine::{ParseScheduleError, ScheduleError};
use lesson::SettingsError;

use crate::i18n::{self, Lang};
use crate::t;

/// One parameter of a link that could not be followed, with its value as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkProblem {
    /// `t=` is not milliseconds of virtual time.
    Time { value: String },
    /// `e=` is not an event count.
    Events { value: String },
    /// `anomaly=` is not a number counting from 1.
    Anomaly { value: String },
    /// `anomaly=asked` is past the run's `count` anomalies.
    AnomalyBeyond { asked: usize, count: usize },
    /// `t=asked_us` is past the run's end, `end_us`: the run opens at its end.
    TimeBeyond { asked_us: u64, end_us: u64 },
    /// `e=asked` is past the run's `count` events: the run opens at its end.
    EventsBeyond { asked: usize, count: usize },
    /// `seed=` is not a whole number.
    Seed { value: String },
    /// `why=` is neither `1` nor `0`.
    Why { value: String },
    /// `tab=` names no tab of the dock.
    Tab { value: String },
    /// `speed=` is no speed the player offers.
    Speed { value: String },
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
    /// `lang=` is not a language of the interface.
    Lang { value: String },
    /// A parameter given `times` times: the last value, `kept`, is used.
    Repeated {
        name: String,
        times: usize,
        kept: String,
    },
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
    fn words(&self, lang: Lang) -> String {
        let BadSetting {
            name,
            value,
            error,
            default,
        } = self;
        let default = default
            .as_ref()
            .map(|d| t!("link-showing-default" in lang, setting = format!("{name}={d}")))
            .unwrap_or_default();
        t!(
            "link-bad-setting" in lang,
            setting = format!("{name}={value}"),
            error = i18n::settings_error_in(lang, error),
            default = default
        )
    }
}

impl LinkProblem {
    /// The sentence in the language in effect.
    pub fn text(&self) -> String {
        self.words(i18n::lang())
    }

    fn words(&self, lang: Lang) -> String {
        use LinkProblem::*;
        match self {
            Time { value } => t!("link-time" in lang, value = value),
            Events { value } => t!("link-events" in lang, value = value),
            Anomaly { value } => t!("link-anomaly" in lang, value = value),
            Why { value } => t!("link-why" in lang, value = value),
            Tab { value } => t!("link-tab" in lang, value = value),
            Speed { value } => t!("link-speed" in lang, value = value,
                speeds = crate::player::SPEEDS.iter().map(f64::to_string).collect::<Vec<_>>().join(", ")),
            AnomalyBeyond { asked, count } => {
                // The parameter as written (a number would be grouped: `9,999`).
                t!("link-anomaly-beyond" in lang, asked = asked.to_string(), count = *count)
            }
            TimeBeyond { asked_us, end_us } => t!("link-time-beyond" in lang,
                value = crate::route::ms_text(*asked_us), end = crate::route::ms_text(*end_us)),
            EventsBeyond { asked, count } => {
                t!("link-events-beyond" in lang, asked = asked.to_string(), count = *count)
            }
            Seed { value } => t!("link-seed" in lang, value = value),
            TimedSchedule { value } => t!("link-timed-schedule" in lang, value = value),
            Steps { value } => t!("link-steps" in lang, value = value),
            View { value } => t!("link-view" in lang, value = value),
            Theme { value } => t!("link-theme" in lang, value = value),
            Schedule(e) => t!(
                "link-schedule" in lang,
                text = &e.text,
                item = e.item,
                token = &e.token
            ),
            CompareParam { name } => t!("link-compare-param" in lang, name = name),
            TogglePair { side, item } => t!("link-toggle-pair" in lang, side = side, item = item),
            Lang { value } => t!("link-lang" in lang, value = value),
            Repeated { name, times, kept } => t!(
                "link-repeated" in lang,
                name = name,
                times = *times,
                kept = kept
            ),
            Setting(setting) => setting.words(lang),
        }
    }

    /// Whether the English sentence contains `text` (for tests and logs).
    pub fn contains(&self, text: &str) -> bool {
        self.to_string().contains(text)
    }
}

/// The English sentence.
impl fmt::Display for LinkProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.words(Lang::En))
    }
}

/// Compares the English sentence, so a test can list the sentences it expects.
impl PartialEq<&str> for LinkProblem {
    fn eq(&self, other: &&str) -> bool {
        let english = self.to_string();
        english == *other
    }
}

/// Why a run could not follow its schedule to the end (a link's `schedule=`, or the
/// scheduler's `steps=`): found while replaying, worded when shown, like [`LinkProblem`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayProblem {
    /// The schedule picks a session that cannot run at that choice (the player's run).
    Schedule(ScheduleError),
    /// The scheduler's pick at `choice` (counting from 1) failed.
    Pick { choice: usize, error: PickError },
    /// The run ended after `run` statements, before the `asked` of `steps=`.
    Ended { run: usize, asked: usize },
    /// The schedule had no choice left after `run` statements, before the `asked`.
    OutOfChoices { run: usize, asked: usize },
    /// `steps=` stops after `run` statements with `unused` of `total` choices left.
    Unused {
        run: usize,
        unused: usize,
        total: usize,
    },
    /// Every session finished after `run` statements with `unused` of `total` choices
    /// left (the link gives more choices than the run has).
    Finished {
        run: usize,
        unused: usize,
        total: usize,
    },
}

/// Why the scheduler could not step a session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PickError {
    /// The session (its name, when it exists) cannot run now.
    CannotRun(Option<String>),
    /// The lesson has no session with this number; `known` lists its sessions as
    /// `A (0), B (1)`.
    NoSuchSession { session: usize, known: String },
    /// The engine refused the step.
    Schedule(ScheduleError),
    /// A property's SQL failed on the new state: the lesson's error, as written.
    Property(String),
}

impl ReplayProblem {
    /// The sentence in the language in effect.
    pub fn text(&self) -> String {
        self.words(i18n::lang())
    }

    fn words(&self, lang: Lang) -> String {
        match self {
            ReplayProblem::Schedule(e) => schedule_error_words(e, lang),
            ReplayProblem::Pick { choice, error } => {
                t!("replay-pick" in lang, choice = *choice, error = error.words(lang))
            }
            ReplayProblem::Ended { run, asked } => {
                t!("replay-ended" in lang, run = *run, asked = *asked)
            }
            ReplayProblem::OutOfChoices { run, asked } => {
                t!("replay-out-of-choices" in lang, run = *run, asked = *asked)
            }
            ReplayProblem::Unused { run, unused, total } => t!(
                "replay-unused" in lang,
                run = *run,
                unused = *unused,
                total = *total
            ),
            ReplayProblem::Finished { run, unused, total } => t!(
                "replay-finished" in lang,
                run = *run,
                unused = *unused,
                total = *total
            ),
        }
    }
}

impl PickError {
    fn words(&self, lang: Lang) -> String {
        match self {
            PickError::NoSuchSession { session, known } => t!(
                "replay-no-such-session" in lang,
                session = *session,
                known = known.clone()
            ),
            PickError::CannotRun(who) => t!(
                "replay-cannot-run" in lang,
                who = who.clone().unwrap_or_else(|| t!("replay-that-session" in lang))
            ),
            PickError::Schedule(e) => schedule_error_words(e, lang),
            PickError::Property(message) => message.clone(),
        }
    }
}

/// An engine's refused pick, worded (in English as its own `Display` writes it).
fn schedule_error_words(e: &ScheduleError, lang: Lang) -> String {
    let enabled = e.enabled.join(", ");
    match &e.wanted_name {
        Some(name) => t!(
            "replay-not-enabled" in lang,
            choice = e.choice,
            session = e.wanted,
            name = name,
            enabled = enabled
        ),
        None => t!(
            "replay-not-enabled-missing" in lang,
            choice = e.choice,
            session = e.wanted,
            enabled = enabled
        ),
    }
}

/// The English sentence.
impl fmt::Display for ReplayProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.words(Lang::En))
    }
}

/// The English sentence.
impl fmt::Display for PickError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.words(Lang::En))
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
        "`e=-1` is not an event count: write a whole number from 0 up, e.g. `e=12`",
        "`seed=x` is not a seed: write a whole number from 0 up, e.g. `seed=7`",
        "`anomaly=0` is not an anomaly's number: write one counting from 1, e.g. `anomaly=1`",
        "schedule `0.x.1`: item 2 (`x`) is not a session number or NUMBER~COUNT",
        "`view=wide` is not a view: write `view=compact` or `view=full`",
        "`theme=pink` is not a theme: write `theme=light` or `theme=dark`",
        "`schedule=0.1` is a timed schedule: the scheduler runs untimed, and its schedules start `u.`",
        "`steps=many` is not a number of statements: write a whole number from 0 up, e.g. `steps=6`",
        "`left=readpast` is not a toggle setting: write `name:value`, e.g. `left=readpast:off`",
        "`speed` is not a compare parameter: use `left`, `right`, `seed` or `t`",
        "The link asks for `readpast=maybe`: `maybe` is not a value of toggle `readpast` (values: on, off); showing `readpast=on`.",
        "The link asks for `colour=red`: unknown toggle `colour` (toggles: readpast, ranks).",
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

    /// Every replay problem: English as `Display` wrote it before it was data, Polish
    /// and Japanese with no English framing and the same numbers and names.
    #[test]
    fn replay_problems_read_in_english_as_before_and_are_translated() {
        let refused = ScheduleError {
            choice: 3,
            wanted: 1,
            wanted_name: Some("worker2".into()),
            enabled: vec!["worker1".into()],
        };
        let missing = ScheduleError {
            wanted: 7,
            wanted_name: None,
            ..refused.clone()
        };
        let all = [
            ReplayProblem::Schedule(refused.clone()),
            ReplayProblem::Schedule(missing),
            ReplayProblem::Pick {
                choice: 2,
                error: PickError::CannotRun(Some("worker2".into())),
            },
            ReplayProblem::Pick {
                choice: 2,
                error: PickError::CannotRun(None),
            },
            ReplayProblem::Pick {
                choice: 4,
                error: PickError::Schedule(refused),
            },
            ReplayProblem::Ended { run: 5, asked: 9 },
            ReplayProblem::OutOfChoices { run: 1, asked: 9 },
            ReplayProblem::Unused {
                run: 5,
                unused: 2,
                total: 7,
            },
            ReplayProblem::Pick {
                choice: 1,
                error: PickError::NoSuchSession {
                    session: 9,
                    known: "A (0), B (1)".into(),
                },
            },
            ReplayProblem::Finished {
                run: 31,
                unused: 76,
                total: 99,
            },
        ];
        let english = [
            "schedule choice 3 picks session 1 (worker2), but only worker1 can run then",
            "schedule choice 3 picks session 7, which does not exist, but only worker1 can run then",
            "choice 2: worker2 cannot run now",
            "choice 2: that session cannot run now",
            "choice 4: schedule choice 3 picks session 1 (worker2), but only worker1 can run then",
            "the run ended after 5 statements, before the 9 the link asks for",
            "the schedule ran out of choices after 1 statements, before the 9 the link asks for",
            "the link stops after 5 statements, so 2 of its 7 choices were not used",
            "choice 1: there is no session 9 (this lesson's sessions: A (0), B (1))",
            "every session finished after 31 statements, so 76 of the link's 99 choices were not used",
        ];
        set_lang(Lang::En);
        for (problem, english) in all.iter().zip(english) {
            assert_eq!(problem.to_string(), english);
            assert_eq!(problem.text(), english);
        }
        for lang in [Lang::Pl, Lang::Ja] {
            set_lang(lang);
            for problem in &all {
                let text = problem.text();
                for word in ["choice", "cannot", "statements", "picks", "session "] {
                    assert!(!text.contains(word), "{lang:?}: {text}");
                }
            }
        }
        set_lang(Lang::Pl);
        assert_eq!(
            all[5].text(),
            "przebieg skończył się po 5 instrukcjach, a link prosi o 9"
        );
        assert_eq!(
            all[6].text(),
            "wybory harmonogramu skończyły się po 1 instrukcji, a link prosi o 9"
        );
        assert_eq!(all[3].text(), "wybór 2: ta sesja nie może teraz działać");
        assert_eq!(
            all[9].text(),
            "wszystkie sesje skończyły się po 31 instrukcjach, więc nie użyto 76 z 99 wyborów linku"
        );
        set_lang(Lang::Ja);
        assert_eq!(
            all[7].text(),
            "リンクは 5 文で止まるため、7 個の選択のうち 2 個は使われませんでした"
        );
        set_lang(Lang::En);
    }
}
