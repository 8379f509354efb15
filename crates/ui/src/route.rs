//! Hash routes. The app lives in one `index.html` served from any static host (or an
//! iframe), so the route is carried in the URL fragment:
//!
//! - `#/`: the lesson list;
//! - `#/lesson/<id>?<toggle>=<value>&...&t=<ms>&e=<events>&seed=<n>`: a lesson with
//!   toggles (only those that differ from the default are written), the playhead at
//!   `t` milliseconds of virtual time, or after exactly `e` events (used when several
//!   events share one instant), an optional seed other than the lesson's, and an
//!   optional `schedule=` to replay (an untimed one, `u.…`, runs the lesson untimed and
//!   is narrated with its two conflicting steps marked: see [`crate::conflict`]);
//! - `#/lesson/<id>/schedule?<toggle>=<value>&...&seed=<n>&schedule=<u.…>&steps=<n>`: be
//!   the scheduler, the learner's picks so far (see [`crate::scheduling`]);
//! - `#/lesson/<id>/compare?left=<toggle>:<value>;...&right=...&seed=<n>&t=<ms>`: two
//!   runs of a lesson on one time axis, their first divergence marked (see
//!   [`crate::compare`]); `#/embed/<id>/compare?...` is the same for an iframe;
//! - `#/lesson/<id>/matrix`: the outcome matrix, every toggle combination over several
//!   seeds (see `components::matrix`);
//! - `#/embed/<id>?...&view=compact|full&theme=light|dark`: one lesson's player
//!   without site chrome, for an `<iframe>` (see [`crate::embed`]);
//! - `#/exercise/<id>`: an exercise (goal, hints, editable SQL, Check);
//! - `#/facilitator`: every exercise with its goals and hints, printable;
//! - `#/debug/panic`: panics on purpose (for the panic test); `#/debug/panic-run` in a
//!   run's slice, `#/debug/panic-worker` inside the worker; `#/debug/abort` stops the
//!   instance without a panic (as running out of memory does).
//!
//! A lesson route (and an embed's) also takes `why=1`, `tab=<tab>` and `speed=<n>` (the
//! play speed, `0.25` to `1024`; 1× is not written).
//!
//! Every route also takes `lang=en|pl|ja`, the interface's language (see
//! [`crate::i18n`]): [`Route::parse`] sets it aside ([`lang_of`]) before reading the
//! rest, and [`Route::href`] writes it back when the page carries one, so internal links
//! and embed codes keep the language. A URL without it works as before.
//!
//! Values are taken as written here; the lesson decides which toggles and values exist.

use std::fmt;

use crate::i18n::{self, Lang};
use crate::problem::LinkProblem;

pub use crate::compare::CompareRoute;
pub use crate::embed::EmbedRoute;
pub use crate::scheduling::ScheduleRoute;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Route {
    /// `#/` (also an empty or missing hash): the lesson list.
    #[default]
    Home,
    /// `#/lesson/<id>?...`: the lesson player.
    Lesson(LessonRoute),
    /// `#/embed/<id>?...`: the player alone, for an iframe.
    Embed(EmbedRoute),
    /// `#/lesson/<id>/schedule?...`: be the scheduler (see [`crate::scheduling`]).
    Schedule(ScheduleRoute),
    /// `#/lesson/<id>/compare?left=...&right=...` (or `#/embed/<id>/compare?...`): two
    /// runs on one time axis (see [`crate::compare`]).
    Compare(CompareRoute),
    /// `#/lesson/<id>/matrix`: the outcome matrix of a lesson.
    Matrix(String),
    /// `#/exercise/<id>`: an exercise to solve.
    Exercise(String),
    /// `#/facilitator`: the exercises for a workshop facilitator.
    Facilitator,
    /// `#/debug/panic`: panics on purpose, so the browser tests can prove that a wasm
    /// panic shows the error panel instead of a dead page.
    DebugPanic,
    /// `#/debug/panic-run`: starts a run that panics in its first slice, so the browser
    /// tests can prove a failure inside a run reaches the error panel too.
    DebugPanicRun,
    /// `#/debug/panic-worker`: asks the worker to panic, so the browser tests can prove
    /// a panic inside the worker reaches the page's error panel.
    DebugPanicWorker,
    /// `#/debug/abort`: stops the wasm instance without a panic, so the browser tests can
    /// prove the page's fallback writes the error panel when no hook runs.
    DebugAbort,
    /// Anything else; keeps the path so the page can say what was not found.
    NotFound(String),
}

/// Where the playhead goes when a run is shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Seek {
    /// The start (no `t` or `e`).
    #[default]
    Start,
    /// `t=`: virtual time in microseconds (written in ms).
    Time(u64),
    /// `e=`: after this many events of the trace (wins over `t`).
    Events(usize),
    /// `anomaly=N`: on the run's N-th anomaly, counting from 1 (wins over `t` and `e`),
    /// so a link can open a lesson where its bug happens.
    Anomaly(usize),
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LessonRoute {
    pub id: String,
    /// `(toggle, value)` in URL order, unchecked.
    pub toggles: Vec<(String, String)>,
    pub seek: Seek,
    /// `t=` as given, kept alongside `e=` so a link round-trips.
    pub time_us: Option<u64>,
    pub seed: Option<u64>,
    /// `schedule=`: the picks at choice points to replay (`lockstep run --schedule`'s
    /// form; `u.` first runs the lesson untimed), e.g. a counterexample of Explore.
    pub schedule: Option<engine::Schedule>,
    /// `why=1`: the Why panel open.
    pub why: bool,
    /// `tab=`: the dock's tab shown (one of [`DOCK_TABS`]); none is the first, the lesson.
    pub tab: Option<&'static str>,
    /// `speed=`: the play speed, an index into [`crate::player::SPEEDS`]; none is 1×.
    pub speed: Option<usize>,
    /// Parameters that could not be read (`t=soon`), worded when the page shows them.
    pub problems: Vec<LinkProblem>,
}

/// Query names that are not toggles.
pub const TIME_PARAM: &str = "t";
pub const EVENTS_PARAM: &str = "e";
pub const SEED_PARAM: &str = "seed";
pub const ANOMALY_PARAM: &str = "anomaly";
pub const SCHEDULE_PARAM: &str = "schedule";
/// `why=1`: the explanation (the Why panel) open, so a link can point at a moment's why.
pub const WHY_PARAM: &str = "why";
/// `tab=tables` (`outcome`, `events`; `lesson` is the default): the dock's tab shown, so
/// a link can point at the locks in the tables or at the outcome of a moment.
pub const TAB_PARAM: &str = "tab";
/// The dock's tabs, in order, as `tab=` names them.
pub const DOCK_TABS: [&str; 4] = ["lesson", "tables", "outcome", "events"];
/// `speed=0.5` (`0.25`, `1`, `2`, `4`, `16`, `64`, `256`, `1024`): the play speed, as the
/// transport's menu offers it, so a workshop link plays at the pace it was made at.
pub const SPEED_PARAM: &str = "speed";
/// The interface's language, in every route.
pub const LANG_PARAM: &str = "lang";

/// The index in [`crate::player::SPEEDS`] of a `speed=` value (`0.5`, `4`; also `4x`,
/// `4×`, as the menu writes it).
fn speed_index(value: &str) -> Option<usize> {
    let number = value.trim_end_matches(['x', '×']).parse::<f64>().ok()?;
    crate::player::SPEEDS.iter().position(|&s| s == number)
}

/// A speed as `speed=` writes it: `0.25`, `1`, `1024`.
fn speed_text(index: usize) -> String {
    crate::player::SPEEDS
        .get(index)
        .map_or_else(String::new, |s| s.to_string())
}

/// The language a hash names with `lang=` (the last one; an unknown value is ignored,
/// and [`unknown_lang`] names it).
pub fn lang_of(hash: &str) -> Option<Lang> {
    lang_values(hash).filter_map(Lang::parse).next_back()
}

/// A `lang=` value of the hash that is not a language of the interface (the page
/// shows the language it would show without it, and says why).
pub fn unknown_lang(hash: &str) -> Option<LinkProblem> {
    lang_values(hash)
        .find(|value| Lang::parse(value).is_none())
        .map(|value| LinkProblem::Lang {
            value: percent_decode(value),
        })
}

fn lang_values(hash: &str) -> impl DoubleEndedIterator<Item = &str> {
    let query = hash.split_once('?').map_or("", |(_, query)| query);
    query
        .split('&')
        .filter_map(|pair| pair.strip_prefix("lang="))
}

/// Parameters a link gives more than once (`t=1&t=2`, a toggle twice): the last is
/// used, as before, and the page says so.
fn repeated(query: &str) -> Vec<LinkProblem> {
    let mut seen: Vec<(&str, usize, &str)> = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        match seen.iter_mut().find(|(n, _, _)| *n == name) {
            Some(entry) => {
                entry.1 += 1;
                entry.2 = value;
            }
            None => seen.push((name, 1, value)),
        }
    }
    seen.into_iter()
        .filter(|(_, times, _)| *times > 1)
        .map(|(name, times, kept)| LinkProblem::Repeated {
            name: percent_decode(name),
            times,
            kept: percent_decode(kept),
        })
        .collect()
}

impl Route {
    /// Parses `location.hash` (with or without the leading `#`).
    pub fn parse(hash: &str) -> Route {
        let hash = hash.strip_prefix('#').unwrap_or(hash);
        let (path, query) = hash.split_once('?').unwrap_or((hash, ""));
        // `lang=` belongs to the page, not to the route: no lesson sees it as a toggle.
        let query = query
            .split('&')
            .filter(|pair| pair.split('=').next() != Some(LANG_PARAM))
            .collect::<Vec<_>>()
            .join("&");
        let query = query.as_str();
        let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
        let mut route = match segments.as_slice() {
            // The list of lessons also answers at `/lessons` (the home page holds it).
            [] | ["lessons"] => Route::Home,
            ["debug", "panic"] => Route::DebugPanic,
            ["debug", "panic-run"] => Route::DebugPanicRun,
            ["debug", "panic-worker"] => Route::DebugPanicWorker,
            ["debug", "abort"] => Route::DebugAbort,
            ["lesson", id] => Route::Lesson(LessonRoute::parse(&percent_decode(id), query)),
            ["lesson", id, "schedule"] => {
                Route::Schedule(ScheduleRoute::parse(&percent_decode(id), query))
            }
            ["lesson", id, "matrix"] => Route::Matrix(percent_decode(id)),
            ["embed", id] => Route::Embed(EmbedRoute::parse(&percent_decode(id), query)),
            // An iframe whose address lost its id is still a widget: it says so in its
            // frame, not with the whole site's "page not found".
            ["embed"] => Route::Embed(EmbedRoute::parse("", query)),
            ["lesson", id, "compare"] => {
                Route::Compare(CompareRoute::parse(&percent_decode(id), query, false))
            }
            ["embed", id, "compare"] => {
                Route::Compare(CompareRoute::parse(&percent_decode(id), query, true))
            }
            ["exercise", id] => Route::Exercise(percent_decode(id)),
            ["facilitator"] => Route::Facilitator,
            _ => Route::NotFound(path.to_owned()),
        };
        if let Some(problems) = route.problems_mut() {
            problems.extend(repeated(query));
        }
        route
    }

    /// Where a route keeps the problems of its link, for the routes that show them.
    fn problems_mut(&mut self) -> Option<&mut Vec<LinkProblem>> {
        match self {
            Route::Lesson(lesson) => Some(&mut lesson.problems),
            Route::Embed(embed) => Some(&mut embed.lesson.problems),
            Route::Schedule(schedule) => Some(&mut schedule.lesson.problems),
            Route::Compare(compare) => Some(&mut compare.problems),
            _ => None,
        }
    }

    /// The `href` that leads to this route, in the language links carry now
    /// ([`i18n::link_lang`]).
    pub fn href(&self) -> String {
        self.href_in(i18n::link_lang())
    }

    /// The `href` of this route with `lang=` when `lang` is given.
    pub fn href_in(&self, lang: Option<Lang>) -> String {
        let route = self.to_string();
        match lang {
            Some(lang) => {
                let join = if route.contains('?') { '&' } else { '?' };
                format!("#{route}{join}{LANG_PARAM}={}", lang.as_str())
            }
            None => format!("#{route}"),
        }
    }
}

impl LessonRoute {
    pub fn new(id: &str) -> LessonRoute {
        LessonRoute {
            id: id.to_owned(),
            ..LessonRoute::default()
        }
    }

    pub(crate) fn parse(id: &str, query: &str) -> LessonRoute {
        let mut route = LessonRoute::new(id);
        let mut events = None;
        let mut anomaly = None;
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let (name, value) = (percent_decode(name), percent_decode(value));
            match name.as_str() {
                TIME_PARAM => match parse_ms(&value) {
                    Some(us) => route.time_us = Some(us),
                    None => route.problems.push(LinkProblem::Time { value }),
                },
                EVENTS_PARAM => match value.parse::<usize>() {
                    Ok(n) => events = Some(n),
                    Err(_) => route.problems.push(LinkProblem::Events { value }),
                },
                ANOMALY_PARAM => match value.parse::<usize>() {
                    Ok(n) if n > 0 => anomaly = Some(n),
                    _ => route.problems.push(LinkProblem::Anomaly { value }),
                },
                SEED_PARAM => match value.parse::<u64>() {
                    Ok(seed) => route.seed = Some(seed),
                    Err(_) => route.problems.push(LinkProblem::Seed { value }),
                },
                SCHEDULE_PARAM => match value.parse::<engine::Schedule>() {
                    Ok(schedule) => route.schedule = Some(schedule),
                    Err(e) => route.problems.push(LinkProblem::Schedule(e)),
                },
                WHY_PARAM => match value.as_str() {
                    "1" => route.why = true,
                    "0" => route.why = false,
                    _ => route.problems.push(LinkProblem::Why { value }),
                },
                TAB_PARAM => match DOCK_TABS.iter().find(|t| **t == value) {
                    Some(tab) => route.tab = Some(tab),
                    None => route.problems.push(LinkProblem::Tab { value }),
                },
                SPEED_PARAM => match speed_index(&value) {
                    Some(i) => route.speed = Some(i),
                    None => route.problems.push(LinkProblem::Speed { value }),
                },
                _ => route.toggles.push((name, value)),
            }
        }
        route.seek = match (events, route.time_us) {
            _ if anomaly.is_some() => Seek::Anomaly(anomaly.unwrap_or(1)),
            (Some(n), _) => Seek::Events(n),
            (None, Some(us)) => Seek::Time(us),
            (None, None) => Seek::Start,
        };
        route
    }
}

impl fmt::Display for Route {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Route::Home => f.write_str("/"),
            Route::Lesson(lesson) => lesson.fmt(f),
            Route::Embed(embed) => embed.fmt(f),
            Route::Schedule(schedule) => schedule.fmt(f),
            Route::Compare(compare) => compare.fmt(f),
            Route::Matrix(id) => write!(f, "/lesson/{id}/matrix"),
            Route::Exercise(id) => write!(f, "/exercise/{id}"),
            Route::Facilitator => f.write_str("/facilitator"),
            Route::DebugPanic => f.write_str("/debug/panic"),
            Route::DebugPanicRun => f.write_str("/debug/panic-run"),
            Route::DebugPanicWorker => f.write_str("/debug/panic-worker"),
            Route::DebugAbort => f.write_str("/debug/abort"),
            Route::NotFound(path) => f.write_str(path),
        }
    }
}

impl fmt::Display for LessonRoute {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "/lesson/{}", self.id)?;
        let mut params: Vec<String> = self
            .toggles
            .iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        if let Some(us) = self.time_us {
            params.push(format!("{TIME_PARAM}={}", ms_text(us)));
        }
        match self.seek {
            Seek::Events(n) => params.push(format!("{EVENTS_PARAM}={n}")),
            Seek::Anomaly(n) => params.push(format!("{ANOMALY_PARAM}={n}")),
            Seek::Start | Seek::Time(_) => {}
        }
        if let Some(seed) = self.seed {
            params.push(format!("{SEED_PARAM}={seed}"));
        }
        if let Some(schedule) = &self.schedule {
            params.push(format!("{SCHEDULE_PARAM}={schedule}"));
        }
        if self.why {
            params.push(format!("{WHY_PARAM}=1"));
        }
        if let Some(tab) = self.tab.filter(|t| *t != DOCK_TABS[0]) {
            params.push(format!("{TAB_PARAM}={tab}"));
        }
        if let Some(i) = self.speed.filter(|&i| i != crate::player::DEFAULT_SPEED) {
            params.push(format!("{SPEED_PARAM}={}", speed_text(i)));
        }
        if !params.is_empty() {
            write!(f, "?{}", params.join("&"))?;
        }
        Ok(())
    }
}

/// Splits a query into the pairs a route reads itself (`own` names, values as written)
/// and the rest, joined again for [`LessonRoute::parse`].
pub(crate) fn split_query<'a>(query: &'a str, own: &[&str]) -> (Vec<(&'a str, &'a str)>, String) {
    let mut mine = Vec::new();
    let mut rest = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        match pair.split_once('=').unwrap_or((pair, "")) {
            (name, value) if own.contains(&name) => mine.push((name, value)),
            _ => rest.push(pair),
        }
    }
    (mine, rest.join("&"))
}

/// Milliseconds as a URL writes them: `1500`, `1500.021` (µs precision, no trailing zeros).
pub fn ms_text(us: u64) -> String {
    let whole = us / 1000;
    let frac = us % 1000;
    if frac == 0 {
        whole.to_string()
    } else {
        format!("{whole}.{frac:03}")
            .trim_end_matches('0')
            .to_string()
    }
}

/// `1500`, `1500.021`, `1.5` (ms) → µs; finer than a microsecond is rounded.
pub(crate) fn parse_ms(text: &str) -> Option<u64> {
    let ms: f64 = text.trim().parse().ok()?;
    (0.0..1e12)
        .contains(&ms)
        .then(|| (ms * 1000.0).round() as u64)
}

/// Decodes `%XX` escapes (and `+` as a space is *not* applied: hashes are not forms).
pub(crate) fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_hashes() {
        let cases = [
            ("", Route::Home),
            ("#", Route::Home),
            ("#/", Route::Home),
            ("#/?theme=dark", Route::Home),
            ("#/lessons", Route::Home),
            ("#/debug/panic", Route::DebugPanic),
            ("/debug/panic/", Route::DebugPanic),
            ("#/debug/panic-run", Route::DebugPanicRun),
            ("#/debug/panic-worker", Route::DebugPanicWorker),
            ("#/debug/abort", Route::DebugAbort),
            ("#/nope", Route::NotFound("/nope".to_owned())),
            ("#/lesson/a/b", Route::NotFound("/lesson/a/b".to_owned())),
            // A widget without its lesson's id is a widget that says so.
            ("#/embed/", Route::Embed(EmbedRoute::parse("", ""))),
        ];
        for (hash, want) in cases {
            assert_eq!(Route::parse(hash), want, "hash {hash:?}");
        }
    }

    #[test]
    fn parses_lesson_routes() {
        let Route::Lesson(route) =
            Route::parse("#/lesson/queue-wait-or-skip?readpast=off&ranks=3%2C1%2C1&t=1500")
        else {
            panic!("not a lesson route");
        };
        assert_eq!(route.id, "queue-wait-or-skip");
        assert_eq!(
            route.toggles,
            [
                ("readpast".to_owned(), "off".to_owned()),
                ("ranks".to_owned(), "3,1,1".to_owned())
            ]
        );
        assert_eq!(route.seek, Seek::Time(1_500_000));
        assert!(route.problems.is_empty());

        let Route::Lesson(route) = Route::parse("#/lesson/x?t=0.021&e=12&seed=9") else {
            panic!()
        };
        assert_eq!(route.seek, Seek::Events(12));
        assert_eq!(route.time_us, Some(21));
        assert_eq!(route.seed, Some(9));

        let Route::Lesson(route) = Route::parse("#/lesson/x?t=soon&e=-1&seed=x") else {
            panic!()
        };
        assert_eq!(route.seek, Seek::Start);
        assert_eq!(route.problems.len(), 3, "{:?}", route.problems);
        assert!(route.problems[0].contains("`t=soon`"));
    }

    /// `tab=` shows a tab of the dock and round-trips (the first, the lesson, is not
    /// written); another value is named, and the lesson's tab shows.
    #[test]
    fn tab_shows_a_tab_of_the_dock() {
        let lesson = |hash| match Route::parse(hash) {
            Route::Lesson(route) => route,
            other => panic!("{other:?}"),
        };
        let route = lesson("#/lesson/x?readpast=off&tab=tables&why=1");
        assert_eq!((route.tab, route.problems.len()), (Some("tables"), 0));
        assert_eq!(route.toggles, [("readpast".to_string(), "off".to_string())]);
        assert_eq!(route.to_string(), "/lesson/x?readpast=off&why=1&tab=tables");
        let route = lesson("#/lesson/x?tab=lesson");
        assert_eq!(
            (route.tab, route.to_string().as_str()),
            (Some("lesson"), "/lesson/x")
        );
        let route = lesson("#/lesson/x?tab=locks");
        assert_eq!((route.tab, route.problems.len()), (None, 1));
        let problem = &route.problems[0];
        assert!(problem.contains("`tab=locks` is not one of"), "{problem:?}");
    }

    /// Every name a lesson route reads beside its toggles is one a lesson may not give a
    /// toggle, so no toggle is ever shadowed by a parameter.
    #[test]
    fn route_parameters_are_reserved_toggle_names() {
        for name in [
            TIME_PARAM,
            EVENTS_PARAM,
            SEED_PARAM,
            ANOMALY_PARAM,
            SCHEDULE_PARAM,
            WHY_PARAM,
            TAB_PARAM,
            SPEED_PARAM,
            LANG_PARAM,
        ] {
            assert!(lesson::RESERVED_TOGGLE_NAMES.contains(&name), "{name}");
        }
    }

    /// `speed=` sets the play speed and round-trips (1×, the default, is not written);
    /// a speed the menu does not offer is named, and the default plays.
    #[test]
    fn speed_sets_the_play_speed() {
        let Route::Lesson(route) = Route::parse("#/lesson/x?e=7&speed=0.5") else {
            panic!()
        };
        assert_eq!(route.speed, Some(1));
        assert!(route.problems.is_empty() && route.toggles.is_empty());
        assert_eq!(route.to_string(), "/lesson/x?e=7&speed=0.5");
        for (value, index) in [("4x", 4), ("4×", 4), ("1024", 8), ("1", 2), ("0.25", 0)] {
            let Route::Lesson(route) = Route::parse(&format!("#/lesson/x?speed={value}")) else {
                panic!()
            };
            assert_eq!(route.speed, Some(index), "{value}");
        }
        let Route::Lesson(route) = Route::parse("#/lesson/x?speed=1") else {
            panic!()
        };
        assert_eq!(route.to_string(), "/lesson/x");
        let Route::Lesson(route) = Route::parse("#/lesson/x?speed=3") else {
            panic!()
        };
        assert_eq!(route.speed, None);
        assert_eq!(route.problems.len(), 1);
        let text = route.problems[0].to_string();
        assert!(
            text.contains("`speed=3`") && text.contains("0.25"),
            "{text}"
        );
    }

    /// `why=1` opens the explanation and round-trips; another value is named, closed.
    #[test]
    fn why_opens_the_explanation() {
        let Route::Lesson(route) = Route::parse("#/lesson/x?e=7&why=1") else {
            panic!()
        };
        assert!(route.why && route.problems.is_empty() && route.toggles.is_empty());
        assert_eq!(route.to_string(), "/lesson/x?e=7&why=1");
        let Route::Lesson(route) = Route::parse("#/lesson/x?why=0") else {
            panic!()
        };
        assert!(!route.why && route.problems.is_empty());
        assert_eq!(route.to_string(), "/lesson/x");
        let Route::Lesson(route) = Route::parse("#/lesson/x?why=yes") else {
            panic!()
        };
        assert!(!route.why);
        assert_eq!(route.problems.len(), 1);
        assert!(
            route.problems[0].contains("`why=yes` is not `why=1`"),
            "{:?}",
            route.problems
        );
    }

    #[test]
    fn an_anomaly_number_wins_over_time_and_events_and_round_trips() {
        let Route::Lesson(route) = Route::parse("#/lesson/x?t=5&e=3&anomaly=2") else {
            panic!()
        };
        assert_eq!(route.seek, Seek::Anomaly(2));
        assert_eq!(
            Route::Lesson(route.clone()).href(),
            "#/lesson/x?t=5&anomaly=2"
        );
        let Route::Lesson(route) = Route::parse("#/lesson/x?anomaly=0") else {
            panic!()
        };
        assert_eq!(route.seek, Seek::Start);
        assert!(
            route.problems[0].contains("`anomaly=0`"),
            "{:?}",
            route.problems
        );
    }

    #[test]
    fn href_round_trips() {
        let mut lesson = LessonRoute::new("queue-claim-race");
        lesson.toggles = vec![
            ("claim".into(), "one-statement".into()),
            ("workers".into(), "4".into()),
        ];
        lesson.time_us = Some(1_500_021);
        lesson.seek = Seek::Events(40);
        lesson.seed = Some(3);
        lesson.schedule = Some("u.0~2.1".parse().unwrap());
        let route = Route::Lesson(lesson);
        assert_eq!(
            route.href(),
            "#/lesson/queue-claim-race?claim=one-statement&workers=4&t=1500.021&e=40&seed=3&schedule=u.0~2.1"
        );
        for route in [
            Route::Home,
            Route::DebugPanic,
            Route::DebugPanicRun,
            Route::DebugPanicWorker,
            Route::Matrix("queue-isolation".into()),
            route,
        ] {
            assert_eq!(Route::parse(&route.href()), route);
        }
    }

    #[test]
    fn the_matrix_route_is_a_lesson_id_then_matrix() {
        assert_eq!(
            Route::parse("#/lesson/queue-isolation/matrix"),
            Route::Matrix("queue-isolation".into())
        );
        assert_eq!(
            Route::Matrix("queue-isolation".into()).href(),
            "#/lesson/queue-isolation/matrix"
        );
    }

    #[test]
    fn every_route_takes_a_language_and_keeps_it_in_its_href() {
        for hash in [
            "#/?lang=pl",
            "#/lesson/queue-wait-or-skip?readpast=off&lang=pl&t=5",
            "#/embed/queue-wait-or-skip?lang=ja&view=full",
            "#/lesson/queue-wait-or-skip/matrix?lang=pl",
            "#/exercise/exercise-claim-fix?lang=pl",
            "#/facilitator?lang=ja",
        ] {
            let route = Route::parse(hash);
            let lang = lang_of(hash).expect(hash);
            assert!(!route.to_string().contains("lang"), "{hash}: {route}");
            let href = route.href_in(Some(lang));
            assert!(href.ends_with(&format!("lang={}", lang.as_str())), "{href}");
            assert_eq!(Route::parse(&href), route, "{hash}");
        }
        let Route::Lesson(lesson) = Route::parse("#/lesson/x?readpast=off&lang=pl") else {
            panic!()
        };
        assert_eq!(lesson.toggles, [("readpast".to_owned(), "off".to_owned())]);
        assert_eq!(lang_of("#/lesson/x?lang=de"), None);
        assert_eq!(lang_of("#/lesson/x"), None);
        assert_eq!(Route::Home.href_in(None), "#/");
        assert_eq!(Route::Home.href_in(Some(Lang::Pl)), "#/?lang=pl");
    }

    #[test]
    fn a_language_the_page_does_not_have_is_named() {
        assert_eq!(
            unknown_lang("#/?lang=de").map(|p| p.to_string()),
            Some(
                "`lang=de` is not a language of this page: write `lang=en`, `lang=pl` or `lang=ja`"
                    .to_owned()
            )
        );
        // The known one still applies beside it.
        let hash = "#/lesson/x?lang=xx&lang=pl";
        assert_eq!(lang_of(hash), Some(Lang::Pl));
        assert!(unknown_lang(hash).is_some_and(|p| p.contains("`lang=xx`")));
        assert_eq!(unknown_lang("#/lesson/x?lang=ja&t=5"), None);
        assert_eq!(unknown_lang("#/lesson/x"), None);
    }

    #[test]
    fn a_parameter_given_twice_uses_the_last_and_says_so() {
        let Route::Lesson(route) =
            Route::parse("#/lesson/x?t=100&readpast=off&t=200&readpast=on&t=300&seed=1")
        else {
            panic!()
        };
        assert_eq!(route.seek, Seek::Time(300_000));
        assert_eq!(
            route.problems,
            [
                "`t=` appears 3 times in the link: the last, `t=300`, is used",
                "`readpast=` appears 2 times in the link: the last, `readpast=on`, is used",
            ]
        );
        for hash in [
            "#/embed/x?view=full&view=compact",
            "#/lesson/x/schedule?steps=1&steps=2",
            "#/lesson/x/compare?left=a:b&left=a:c",
        ] {
            let problems = match Route::parse(hash) {
                Route::Embed(e) => e.lesson.problems,
                Route::Schedule(s) => s.lesson.problems,
                Route::Compare(c) => c.problems,
                other => panic!("{other:?}"),
            };
            assert_eq!(problems.len(), 1, "{hash}: {problems:?}");
            assert!(
                problems[0].contains("appears 2 times"),
                "{hash}: {problems:?}"
            );
        }
        // `lang=` twice is the page's matter, and a single parameter is no problem.
        let Route::Lesson(route) = Route::parse("#/lesson/x?lang=pl&lang=ja&t=5") else {
            panic!()
        };
        assert!(route.problems.is_empty(), "{:?}", route.problems);
    }

    #[test]
    fn ms_text_trims() {
        assert_eq!(ms_text(0), "0");
        assert_eq!(ms_text(1_500_000), "1500");
        assert_eq!(ms_text(1_500_020), "1500.02");
        assert_eq!(ms_text(21), "0.021");
    }
}
