//! The player's state: which run is wanted and which one is shown, the playhead, play
//! and speed, and the before → after of the last toggle. Pure data and pure updates
//! (called by the reducer in [`crate::state`]), so all of it is tested natively.

use std::fmt;
use std::ops::Deref;
use std::rc::Rc;

use lesson::{Lesson, Settings, SettingsError};

use crate::pacing::{self, Pace};
use crate::problem::{BadSetting, LinkProblem};
use crate::route::{LessonRoute, Seek, DOCK_TABS};
use crate::run::{BuildProgress, RunKey, RunModel, RunSummary};

/// An `Rc` compared by pointer: props and state stay cheap to compare however big the
/// value (a run with 30 000 events), and a new value always means a new pointer.
pub struct Shared<T>(pub Rc<T>);

impl<T> Shared<T> {
    pub fn new(value: T) -> Shared<T> {
        Shared(Rc::new(value))
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(Rc::clone(&self.0))
    }
}

impl<T> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> fmt::Debug for Shared<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Shared({:p})", Rc::as_ptr(&self.0))
    }
}

/// Play speeds: multiples of the pace of [`crate::pacing`] (1×: four events a second,
/// quiet stretches compressed).
pub const SPEEDS: &[f64] = &[0.25, 0.5, 1.0, 2.0, 4.0, 16.0, 64.0, 256.0, 1024.0];
pub const DEFAULT_SPEED: usize = 2;

/// The playhead: how many events have happened, and the virtual time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Playhead {
    pub events: usize,
    pub t_us: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Player {
    pub lesson: Shared<Lesson>,
    /// The run the page asks for now.
    pub key: RunKey,
    /// Problems with the URL (unknown toggle, bad value, bad `t`), worded when shown.
    pub warnings: Vec<LinkProblem>,
    /// The newest run received; while its key differs from `key` a new one is on its way.
    pub run: Option<Shared<RunModel>>,
    /// The run for `key` could not be built (the engine refused the SQL, say).
    pub error: Option<String>,
    /// How far the run for `key` got, once it has taken long enough to say so.
    pub progress: Option<BuildProgress>,
    /// The learner cancelled the run for `key` when it had got this far.
    pub cancelled: Option<BuildProgress>,
    /// The run shown before the last change of settings, for before → after.
    pub previous: Option<Rc<RunSummary>>,
    /// Toggles whose value the last change flipped (their text is highlighted).
    pub fresh: Vec<String>,
    /// Counts changes of settings, so the highlight animation restarts each time.
    pub flash: u32,
    /// Where the playhead goes when the run for `key` arrives.
    pub seek: Option<Seek>,
    /// `seek` came from a link (the page's first URL, an edited one), not from a toggle
    /// that keeps the playhead's time: a link past the run's end is told so.
    linked_seek: bool,
    /// The playhead is where a link put it (`t=`, `e=`, `anomaly=`), and nothing has
    /// moved it since: answering a prediction leaves it there rather than replaying.
    pub at_link_moment: bool,
    pub head: Playhead,
    pub playing: bool,
    pub speed: usize,
    /// The explanation panel ("why") is open.
    pub why: bool,
    /// The dock's tab shown (one of [`crate::route::DOCK_TABS`]).
    pub tab: &'static str,
    /// Real ms (at 1×) already spent towards the next event (see [`crate::pacing`]).
    credit: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub enum PlayerAction {
    /// A run finished building (possibly for settings the page has left since).
    RunReady(Shared<RunModel>),
    RunFailed {
        key: RunKey,
        error: String,
    },
    /// The run for `key` is still being built and has got this far.
    Progress {
        key: RunKey,
        progress: BuildProgress,
    },
    /// Stop building the run wanted now (the page's Cancel button).
    Cancel,
    /// Build the run again after a Cancel or an error.
    Retry,
    TogglePlay,
    Pause,
    StepForward,
    StepBack,
    Home,
    End,
    SeekTime(u64),
    SeekEvents(usize),
    SetSpeed(usize),
    /// Moves the playhead to the next (previous) anomaly's event (keys `]` and `[`).
    NextAnomaly,
    PrevAnomaly,
    /// Opens or closes the explanation of the event at the playhead (key `?`).
    ToggleWhy,
    /// Closes the explanation (key Escape); nothing when it is closed.
    CloseWhy,
    /// Shows this tab of the dock (one of [`crate::route::DOCK_TABS`]).
    ChooseTab(&'static str),
    /// One animation frame: `dt_ms` of real time passed while playing.
    Tick(f64),
    /// Reduced motion: one discrete step while playing.
    Advance,
}

/// Settings from URL pairs: each bad pair is skipped (its toggle keeps the default)
/// and explained, so a broken link still opens the lesson.
pub fn settings_from(lesson: &Lesson, pairs: &[(String, String)]) -> (Settings, Vec<LinkProblem>) {
    let mut warnings = Vec::new();
    let settings = settings_skipping(lesson, pairs, |name, value, error| {
        let default = lesson
            .toggles
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.default_value().to_owned());
        warnings.push(LinkProblem::Setting(Box::new(BadSetting {
            name: name.to_owned(),
            value: value.to_owned(),
            error,
            default,
        })));
    });
    (settings, warnings)
}

/// Settings from URL pairs, each bad pair skipped and handed to `bad` (name, value,
/// why). The worker passes a `bad` that ignores them: the page has said why already,
/// and the worker's wasm then carries no catalogue.
pub fn settings_skipping(
    lesson: &Lesson,
    pairs: &[(String, String)],
    mut bad: impl FnMut(&str, &str, SettingsError),
) -> Settings {
    let mut good: Vec<(&str, &str)> = Vec::new();
    for (name, value) in pairs {
        let mut trial = good.clone();
        trial.push((name, value));
        match lesson.settings_with(trial.iter().copied()) {
            Ok(_) => good = trial,
            Err(e) => bad(name, value, e),
        }
    }
    lesson
        .settings_with(good)
        .unwrap_or_else(|_| lesson.settings_default())
}

/// The toggles of `settings` that differ from the lesson's defaults, in toggle order:
/// what a URL needs to say.
pub fn non_default(lesson: &Lesson, settings: &Settings) -> Vec<(String, String)> {
    lesson
        .toggles
        .iter()
        .filter_map(|t| {
            let value = settings.get(&t.name)?;
            (value != t.default_value()).then(|| (t.name.clone(), value.to_string()))
        })
        .collect()
}

impl Player {
    pub fn new(lesson: Rc<Lesson>, route: &LessonRoute) -> Player {
        let (key, warnings) = Player::key_for(&lesson, route);
        Player {
            lesson: Shared(lesson),
            key,
            warnings,
            run: None,
            error: None,
            progress: None,
            cancelled: None,
            previous: None,
            fresh: Vec::new(),
            flash: 0,
            seek: Some(route.seek),
            linked_seek: true,
            at_link_moment: false,
            head: Playhead::default(),
            playing: false,
            speed: route.speed.unwrap_or(DEFAULT_SPEED),
            why: route.why,
            tab: route.tab.unwrap_or(DOCK_TABS[0]),
            credit: 0.0,
        }
    }

    fn key_for(lesson: &Lesson, route: &LessonRoute) -> (RunKey, Vec<LinkProblem>) {
        let (settings, mut warnings) = settings_from(lesson, &route.toggles);
        warnings.extend(route.problems.iter().cloned());
        // A link that repeats a bad pair 3 000 times gets the warning once.
        let mut seen = Vec::new();
        warnings.retain(|w| {
            let new = !seen.contains(w);
            if new {
                seen.push(w.clone());
            }
            new
        });
        let seed = route.seed.unwrap_or(lesson.seed);
        (
            RunKey {
                lesson_id: lesson.id.clone(),
                settings,
                seed,
                schedule: route.schedule.clone(),
            },
            warnings,
        )
    }

    /// The URL changed while this lesson is open (a toggle, back/forward, an edited link).
    pub fn navigate(&mut self, route: &LessonRoute) {
        let (key, warnings) = Player::key_for(&self.lesson, route);
        self.warnings = warnings;
        self.why = route.why;
        self.tab = route.tab.unwrap_or(DOCK_TABS[0]);
        self.speed = route.speed.unwrap_or(DEFAULT_SPEED);
        if key == self.key {
            match self.current() {
                Some(run) => {
                    // A link to a moment (a prediction's, an edited `e=`) stops there:
                    // playing on would carry the playhead past what it points at.
                    let head = resolve(&run, route.seek);
                    self.warnings.extend(past_the_run(&run, route.seek, true));
                    self.at_link_moment = route.seek != Seek::Start;
                    if head != self.head {
                        self.playing = false;
                    }
                    self.head = head;
                }
                None => self.seek = Some(route.seek),
            }
        } else {
            self.key = key;
            self.error = None;
            self.progress = None;
            self.cancelled = None;
            self.seek = Some(route.seek);
            self.linked_seek = false;
            self.at_link_moment = false;
            self.playing = false;
        }
    }

    /// The run for the wanted key, if it has arrived.
    pub fn current(&self) -> Option<Shared<RunModel>> {
        self.run.clone().filter(|r| r.key == self.key)
    }

    /// A new run is being built (the shown one, if any, is for other settings).
    pub fn pending(&self) -> bool {
        self.error.is_none() && self.cancelled.is_none() && self.current().is_none()
    }

    /// The route that describes this player now (for the URL).
    pub fn route(&self) -> LessonRoute {
        let mut route = LessonRoute::new(&self.lesson.id);
        route.toggles = non_default(&self.lesson, &self.key.settings);
        if self.key.seed != self.lesson.seed {
            route.seed = Some(self.key.seed);
        }
        route.schedule = self.key.schedule.clone();
        route.why = self.why;
        route.tab = Some(self.tab);
        route.speed = Some(self.speed);
        if let Some(run) = self.current() {
            let head = self.head;
            if head.events > 0 || head.t_us > 0 {
                route.time_us = Some(head.t_us);
                // `t` alone lands after every event at that instant; say which one.
                route.seek = if run.events_by(head.t_us) == head.events {
                    Seek::Time(head.t_us)
                } else {
                    Seek::Events(head.events)
                };
            }
        } else if let Some(seek) = self.seek {
            route.seek = seek;
            route.time_us = match seek {
                Seek::Time(us) => Some(us),
                _ => None,
            };
        }
        route
    }

    /// The route after setting toggle `name` to `value`: the playhead keeps its time
    /// (event counts differ between runs, virtual time means the same).
    pub fn route_with(&self, name: &str, value: &str) -> LessonRoute {
        let mut pairs: Vec<(&str, &str)> = self
            .key
            .settings
            .iter()
            .filter(|(n, _)| *n != name)
            .collect();
        pairs.push((name, value));
        let settings = self
            .lesson
            .settings_with(pairs)
            .unwrap_or_else(|_| self.key.settings.clone());
        self.route_for(&settings, self.key.seed)
    }

    /// The route for another seed (the lesson's own is left out of the URL); the
    /// playhead keeps its time, as for a toggle.
    pub fn route_with_seed(&self, seed: u64) -> LessonRoute {
        self.route_for(&self.key.settings, seed)
    }

    /// The route to `settings` and `seed` at the playhead's time. A schedule belongs to
    /// one setting and seed, so it is left behind.
    fn route_for(&self, settings: &Settings, seed: u64) -> LessonRoute {
        let mut route = LessonRoute::new(&self.lesson.id);
        route.toggles = non_default(&self.lesson, settings);
        route.seed = (seed != self.lesson.seed).then_some(seed);
        route.why = self.why;
        route.tab = Some(self.tab);
        route.speed = Some(self.speed);
        let t_us = if self.current().is_some() {
            self.head.t_us
        } else {
            route_time(self.seek)
        };
        if t_us > 0 {
            route.time_us = Some(t_us);
            route.seek = Seek::Time(t_us);
        }
        route
    }

    pub fn update(&mut self, action: PlayerAction) {
        match action {
            PlayerAction::RunReady(run) => self.receive(run),
            PlayerAction::RunFailed { key, error } => {
                if key == self.key {
                    self.error = Some(error);
                    self.progress = None;
                    self.playing = false;
                }
            }
            PlayerAction::Progress { key, progress } => {
                if key == self.key && self.pending() {
                    self.progress = Some(progress);
                }
            }
            // The dock is there before the run is.
            PlayerAction::ChooseTab(tab) => self.tab = tab,
            PlayerAction::Cancel => {
                if self.pending() {
                    self.cancelled = Some(self.progress.take().unwrap_or_default());
                    self.playing = false;
                }
            }
            PlayerAction::Retry => {
                self.cancelled = None;
                self.error = None;
            }
            action => {
                let Some(run) = self.current() else { return };
                self.at_link_moment = false;
                self.play(&run, action);
            }
        }
    }

    fn receive(&mut self, run: Shared<RunModel>) {
        if run.key != self.key {
            return; // settings moved on while it was built
        }
        if let Some(old) = self.run.take() {
            if old.key != run.key {
                self.fresh = self
                    .lesson
                    .toggles
                    .iter()
                    .filter(|t| old.key.settings.get(&t.name) != run.key.settings.get(&t.name))
                    .map(|t| t.name.clone())
                    .collect();
                self.flash += 1;
                self.previous = Some(Rc::clone(&old.summary));
            }
        }
        let linked = self.seek.is_some() && std::mem::take(&mut self.linked_seek);
        let seek = self.seek.take().unwrap_or(Seek::Time(self.head.t_us));
        self.at_link_moment = linked && seek != Seek::Start;
        self.head = resolve(&run, seek);
        self.warnings.extend(past_the_run(&run, seek, linked));
        self.error = None;
        self.progress = None;
        self.cancelled = None;
        self.run = Some(run);
    }

    fn play(&mut self, run: &RunModel, action: PlayerAction) {
        let n = run.events();
        let at = |k: usize| if k == 0 { 0 } else { run.trace[k - 1].at_us };
        match action {
            PlayerAction::TogglePlay => {
                if self.playing {
                    self.playing = false;
                } else {
                    if self.head.events >= n {
                        self.head = Playhead::default();
                    }
                    self.playing = true;
                    // The event on screen has been seen: the clock goes on at once.
                    self.credit = pacing::EVENT_MS;
                }
            }
            PlayerAction::Pause => self.playing = false,
            PlayerAction::StepForward => {
                self.playing = false;
                self.step_forward(run);
            }
            PlayerAction::Advance => {
                if self.head.events >= n {
                    self.head.t_us = run.end_us();
                    self.playing = false;
                } else {
                    self.step_forward(run);
                }
            }
            PlayerAction::StepBack => {
                self.playing = false;
                if self.head.events > 0 {
                    let k = self.head.events - 1;
                    self.head = Playhead {
                        events: k,
                        t_us: at(k),
                    };
                } else {
                    self.head.t_us = 0;
                }
            }
            PlayerAction::Home => {
                self.playing = false;
                self.head = Playhead::default();
            }
            PlayerAction::End => {
                self.playing = false;
                self.head = Playhead {
                    events: n,
                    t_us: run.end_us(),
                };
            }
            PlayerAction::SeekTime(us) => {
                self.playing = false;
                self.head = resolve(run, Seek::Time(us));
            }
            PlayerAction::SeekEvents(k) => {
                self.playing = false;
                self.head = resolve(run, Seek::Events(k));
            }
            PlayerAction::SetSpeed(i) => self.speed = i.min(SPEEDS.len() - 1),
            PlayerAction::NextAnomaly => {
                // The playhead shows an anomaly once its event is in: `event + 1` events.
                if let Some(a) = run.anomalies.iter().find(|a| a.event >= self.head.events) {
                    self.playing = false;
                    self.head = resolve(run, Seek::Events(a.event + 1));
                }
            }
            PlayerAction::PrevAnomaly => {
                if let Some(a) = run
                    .anomalies
                    .iter()
                    .rev()
                    .find(|a| a.event + 1 < self.head.events)
                {
                    self.playing = false;
                    self.head = resolve(run, Seek::Events(a.event + 1));
                }
            }
            PlayerAction::ToggleWhy => self.why = !self.why,
            PlayerAction::CloseWhy => self.why = false,
            PlayerAction::Tick(dt_ms) => {
                if self.playing {
                    self.tick(run, dt_ms);
                }
            }
            PlayerAction::RunReady(_)
            | PlayerAction::RunFailed { .. }
            | PlayerAction::Progress { .. }
            | PlayerAction::Cancel
            | PlayerAction::Retry
            | PlayerAction::ChooseTab(_) => {}
        }
    }

    fn step_forward(&mut self, run: &RunModel) {
        if self.head.events < run.events() {
            let k = self.head.events + 1;
            self.head = Playhead {
                events: k,
                t_us: run.trace[k - 1].at_us.max(self.head.t_us),
            };
        } else {
            self.head.t_us = run.end_us();
        }
    }

    fn tick(&mut self, run: &RunModel, dt_ms: f64) {
        let dt_ms = dt_ms.clamp(0.0, 250.0); // a background tab resumes without a jump
        let pace = Pace {
            events: self.head.events,
            t_us: self.head.t_us,
            dwell_ms: self.credit,
        };
        let pace = pacing::advance(pace, run, run.end_us(), dt_ms * SPEEDS[self.speed]);
        self.head = Playhead {
            events: pace.events,
            t_us: pace.t_us,
        };
        self.credit = pace.dwell_ms;
        if self.head.events >= run.events() && self.head.t_us >= run.end_us() {
            self.playing = false;
        }
    }

    /// The quiet stretch the playhead is in, when playback compresses it.
    pub fn idle(&self) -> Option<(u64, u64)> {
        let run = self.current()?;
        pacing::idle_at(&*run, run.end_us(), self.head.events, self.head.t_us)
    }
}

impl pacing::Times for RunModel {
    fn count(&self) -> usize {
        self.events()
    }
    fn at(&self, k: usize) -> u64 {
        self.trace[k].at_us
    }
}

fn route_time(seek: Option<Seek>) -> u64 {
    match seek {
        Some(Seek::Time(us)) => us,
        _ => 0,
    }
}

/// A link's `anomaly=N` past the run's anomalies (another seed, other toggles, an edited
/// link): the run opens at the start, and the page says why. A `linked` time or event
/// count past the run's end opens it at its end, and says so too (a toggle that keeps
/// the playhead's time in a shorter run is no link's mistake, and is not told).
fn past_the_run(run: &RunModel, seek: Seek, linked: bool) -> Option<LinkProblem> {
    match seek {
        Seek::Anomaly(n) if n > run.anomalies.len() => Some(LinkProblem::AnomalyBeyond {
            asked: n,
            count: run.anomalies.len(),
        }),
        Seek::Time(us) if linked && us > run.end_us() => Some(LinkProblem::TimeBeyond {
            asked_us: us,
            end_us: run.end_us(),
        }),
        Seek::Events(n) if linked && n > run.events() => Some(LinkProblem::EventsBeyond {
            asked: n,
            count: run.events(),
        }),
        _ => None,
    }
}

/// The playhead for a seek in a run, clamped to it.
pub fn resolve(run: &RunModel, seek: Seek) -> Playhead {
    match seek {
        Seek::Start => Playhead::default(),
        Seek::Time(us) => {
            let us = us.min(run.end_us());
            Playhead {
                events: run.events_by(us),
                t_us: us,
            }
        }
        Seek::Anomaly(n) => match n.checked_sub(1).and_then(|i| run.anomalies.get(i)) {
            Some(a) => resolve(run, Seek::Events(a.event + 1)),
            // Fewer anomalies in this run (another seed, other toggles): the start.
            None => Playhead::default(),
        },
        Seek::Events(k) => {
            let k = k.min(run.events());
            Playhead {
                events: k,
                t_us: if k == 0 { 0 } else { run.trace[k - 1].at_us },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::catalog;
    use crate::route::Route;

    fn lesson(id: &str) -> Rc<Lesson> {
        Rc::clone(catalog().lesson(id).unwrap())
    }

    fn route(hash: &str) -> LessonRoute {
        match Route::parse(hash) {
            Route::Lesson(r) => r,
            other => panic!("{other:?}"),
        }
    }

    fn ready(player: &mut Player) -> Shared<RunModel> {
        let run = Shared::new(
            RunModel::build(&player.lesson, &player.key.settings, player.key.seed).unwrap(),
        );
        player.update(PlayerAction::RunReady(run.clone()));
        run
    }

    /// A bad pair repeated in a link is named once, however often it is there.
    #[test]
    fn a_repeated_bad_pair_is_one_warning() {
        let lesson = || lesson("queue-wait-or-skip");
        let once = Player::new(lesson(), &route("#/lesson/queue-wait-or-skip?x=1&x=1"));
        let hash = format!("#/lesson/queue-wait-or-skip?{}", ["x=1"; 3000].join("&"));
        let many = Player::new(lesson(), &route(&hash));
        assert_eq!(once.warnings.len(), 2, "{:?}", once.warnings);
        assert_eq!(many.warnings.len(), 2, "{:?}", many.warnings);
        assert_eq!(many.warnings[0], once.warnings[0]);
        assert!(matches!(
            many.warnings[1],
            LinkProblem::Repeated { times: 3000, .. }
        ));
    }

    /// The dock's tab is in the address: chosen before the run arrives, kept by a
    /// toggle's and a seed's links, taken from a link.
    #[test]
    fn the_dock_s_tab_follows_the_address() {
        let lesson = || lesson("queue-wait-or-skip");
        let mut player = Player::new(lesson(), &route("#/lesson/queue-wait-or-skip"));
        assert_eq!(player.tab, "lesson");
        player.update(PlayerAction::ChooseTab("tables"));
        assert_eq!(
            player.route().to_string(),
            "/lesson/queue-wait-or-skip?tab=tables"
        );
        let toggled = player.route_with("readpast", "off").to_string();
        assert_eq!(
            toggled,
            "/lesson/queue-wait-or-skip?readpast=off&tab=tables"
        );
        let seeded = player.route_with_seed(5).to_string();
        assert_eq!(seeded, "/lesson/queue-wait-or-skip?seed=5&tab=tables");
        player.navigate(&route("#/lesson/queue-wait-or-skip?tab=events"));
        assert_eq!(player.tab, "events");
        let linked = Player::new(lesson(), &route("#/lesson/queue-wait-or-skip?tab=outcome"));
        assert_eq!(linked.tab, "outcome");
    }

    #[test]
    fn anomalies_are_reached_forward_and_back_and_by_link() {
        let mut player = Player::new(
            lesson("queue-claim-race"),
            &route("#/lesson/queue-claim-race"),
        );
        let run = ready(&mut player);
        let (first, second) = (run.anomalies[0].event, run.anomalies[1].event);
        player.update(PlayerAction::NextAnomaly);
        assert_eq!(player.head.events, first + 1);
        assert_eq!(player.head.t_us, 36_913);
        player.update(PlayerAction::NextAnomaly);
        assert_eq!(player.head.events, second + 1);
        player.update(PlayerAction::PrevAnomaly);
        assert_eq!(player.head.events, first + 1);
        // Nothing before the first: the playhead stays.
        player.update(PlayerAction::PrevAnomaly);
        assert_eq!(player.head.events, first + 1);
        player.update(PlayerAction::End);
        player.update(PlayerAction::NextAnomaly);
        assert_eq!(player.head.events, run.events(), "nothing after the last");
        player.update(PlayerAction::ToggleWhy);
        assert!(player.why);
        player.update(PlayerAction::CloseWhy);
        assert!(!player.why);
        player.update(PlayerAction::CloseWhy);
        assert!(
            !player.why,
            "Escape on a closed explanation leaves it closed"
        );

        let mut linked = Player::new(
            lesson("queue-claim-race"),
            &route("#/lesson/queue-claim-race?anomaly=2"),
        );
        ready(&mut linked);
        assert_eq!(linked.head.events, second + 1);
        // A run without anomalies opens at the start.
        let mut none = Player::new(
            lesson("queue-claim-race"),
            &route("#/lesson/queue-claim-race?claim=one-statement&anomaly=1"),
        );
        ready(&mut none);
        assert_eq!(none.head, Playhead::default());
        // ... and says why, as it does for a link it cannot read.
        assert_eq!(
            none.warnings,
            ["`anomaly=1`: this run has no anomaly, so it opens at the start"]
        );
        let mut beyond = Player::new(
            lesson("queue-claim-race"),
            &route("#/lesson/queue-claim-race?anomaly=9999"),
        );
        let run = ready(&mut beyond);
        assert_eq!(beyond.head, Playhead::default());
        assert_eq!(
            beyond.warnings,
            [format!(
                "`anomaly=9999`: this run has {} anomalies, so it opens at the start",
                run.anomalies.len()
            )
            .as_str()]
        );
        assert!(linked.warnings.is_empty(), "{:?}", linked.warnings);
    }

    #[test]
    fn bad_url_values_fall_back_with_a_warning() {
        let lesson = lesson("queue-wait-or-skip");
        let pairs = [
            ("readpast".to_string(), "maybe".to_string()),
            ("ranks".to_string(), "3,1,1".to_string()),
            ("colour".to_string(), "red".to_string()),
        ];
        let (settings, warnings) = settings_from(&lesson, &pairs);
        assert_eq!(settings.get("readpast"), Some("on"));
        assert_eq!(settings.get("ranks"), Some("3,1,1"));
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(
            warnings[0].contains("`readpast=maybe`") && warnings[0].contains("values: on, off"),
            "{}",
            warnings[0]
        );
        assert!(
            warnings[1].contains("unknown toggle `colour`"),
            "{}",
            warnings[1]
        );
    }

    #[test]
    fn url_seek_is_applied_when_the_run_arrives() {
        let mut player = Player::new(
            lesson("queue-wait-or-skip"),
            &route("#/lesson/queue-wait-or-skip?readpast=off&t=2000"),
        );
        assert!(player.pending());
        let run = ready(&mut player);
        assert_eq!(player.head.t_us, 2_000_000);
        assert_eq!(player.head.events, run.events_by(2_000_000));
        assert_eq!(
            player.route().to_string(),
            "/lesson/queue-wait-or-skip?readpast=off&t=2000"
        );
    }

    /// A link's time or event count past the run's end opens the run at its end and says
    /// so; a toggle that keeps a later time than the new run's end does not.
    #[test]
    fn a_link_past_the_run_opens_at_its_end_and_says_so() {
        let mut player = Player::new(
            lesson("queue-wait-or-skip"),
            &route("#/lesson/queue-wait-or-skip?t=999999"),
        );
        let run = ready(&mut player);
        assert_eq!(player.head.events, run.events());
        assert_eq!(player.head.t_us, run.end_us());
        let end = crate::route::ms_text(run.end_us());
        assert_eq!(
            player.warnings,
            [
                format!("`t=999999` is past this run's end (`t={end}`), so it opens at its end")
                    .as_str()
            ]
        );

        let mut events = Player::new(
            lesson("queue-wait-or-skip"),
            &route("#/lesson/queue-wait-or-skip?e=100000"),
        );
        let run = ready(&mut events);
        assert_eq!(events.head.events, run.events());
        assert_eq!(
            events.warnings,
            [format!(
                "`e=100000`: this run has {} events, so it opens at its end",
                run.events()
            )
            .as_str()]
        );

        assert!(
            player.at_link_moment,
            "the playhead is where the link put it"
        );
        player.update(PlayerAction::Home);
        assert!(!player.at_link_moment, "moved since");

        // Exactly at the run's end: no word. (Without READPAST, B waits: a longer run.)
        let mut within = Player::new(
            lesson("queue-wait-or-skip"),
            &route("#/lesson/queue-wait-or-skip?readpast=off"),
        );
        let longer = ready(&mut within);
        let end = crate::route::ms_text(longer.end_us());
        let mut within = Player::new(
            lesson("queue-wait-or-skip"),
            &route(&format!("#/lesson/queue-wait-or-skip?readpast=off&t={end}")),
        );
        ready(&mut within);
        assert_eq!(within.head.t_us, longer.end_us());
        assert!(within.warnings.is_empty(), "{:?}", within.warnings);

        // A toggle carries the playhead's time into the new run: no link asked for it.
        within.update(PlayerAction::End);
        let to = within.route_with("readpast", "on");
        within.navigate(&to);
        let shorter = ready(&mut within);
        assert!(shorter.end_us() < longer.end_us());
        assert_eq!(within.head.t_us, shorter.end_us());
        assert!(within.warnings.is_empty(), "{:?}", within.warnings);
        assert!(
            !within.at_link_moment,
            "a toggle's time is no link's moment"
        );
        let mut start = Player::new(
            lesson("queue-wait-or-skip"),
            &route("#/lesson/queue-wait-or-skip"),
        );
        ready(&mut start);
        assert!(!start.at_link_moment);
    }

    /// Cancel stops waiting for the run (the page drops its build); a late run is not
    /// shown; Run again asks for it anew; a new setting forgets the cancel.
    #[test]
    fn cancel_stops_the_wanted_run_until_run_again() {
        let mut player = Player::new(
            lesson("queue-wait-or-skip"),
            &route("#/lesson/queue-wait-or-skip"),
        );
        let progress = BuildProgress {
            steps: 10,
            events: 30,
            now_us: 500,
        };
        let key = player.key.clone();
        player.update(PlayerAction::Progress { key, progress });
        assert_eq!(player.progress, Some(progress));
        player.update(PlayerAction::Cancel);
        assert!(!player.pending());
        assert_eq!((player.cancelled, player.progress), (Some(progress), None));
        let run = Shared::new(
            RunModel::build(&player.lesson, &player.key.settings, player.key.seed).unwrap(),
        );
        player.update(PlayerAction::RunReady(run.clone()));
        // The run arrived after all (a cancel raced with its last slice): it is shown.
        assert!(player.current().is_some() && player.cancelled.is_none());
        player.update(PlayerAction::Retry);
        assert!(player.cancelled.is_none() && !player.pending());

        player.navigate(&route("#/lesson/queue-wait-or-skip?readpast=off"));
        player.update(PlayerAction::Cancel);
        assert!(player.cancelled.is_some());
        player.update(PlayerAction::Retry);
        assert!(player.pending());
        player.navigate(&route("#/lesson/queue-wait-or-skip"));
        assert!(player.cancelled.is_none());
    }

    #[test]
    fn a_toggle_keeps_the_time_and_remembers_the_previous_run() {
        let lesson = lesson("queue-wait-or-skip");
        let mut player = Player::new(
            Rc::clone(&lesson),
            &route("#/lesson/queue-wait-or-skip?t=1500"),
        );
        ready(&mut player);
        player.navigate(&route("#/lesson/queue-wait-or-skip?readpast=off&t=1500"));
        assert!(player.pending());
        ready(&mut player);
        assert_eq!(player.head.t_us, 1_500_000);
        assert_eq!(player.fresh, ["readpast"]);
        assert_eq!(player.flash, 1);
        let previous = player.previous.as_ref().unwrap();
        assert_eq!(previous.key.settings.get("readpast"), Some("on"));
        assert_eq!(
            player.route_with("readpast", "on").to_string(),
            "/lesson/queue-wait-or-skip?t=1500"
        );
        assert_eq!(
            player.route_with("ranks", "3,1,1").to_string(),
            "/lesson/queue-wait-or-skip?readpast=off&ranks=3,1,1&t=1500"
        );
    }

    #[test]
    fn another_seed_keeps_toggles_and_time() {
        let lesson = lesson("queue-wait-or-skip");
        let mut player = Player::new(
            Rc::clone(&lesson),
            &route("#/lesson/queue-wait-or-skip?readpast=off&t=1500"),
        );
        ready(&mut player);
        assert_eq!(
            player.route_with_seed(lesson.seed + 1).to_string(),
            format!(
                "/lesson/queue-wait-or-skip?readpast=off&t=1500&seed={}",
                lesson.seed + 1
            )
        );
        assert_eq!(
            player.route_with_seed(lesson.seed).to_string(),
            "/lesson/queue-wait-or-skip?readpast=off&t=1500"
        );
    }

    #[test]
    fn a_stale_run_is_ignored() {
        let lesson = lesson("queue-wait-or-skip");
        let mut player = Player::new(Rc::clone(&lesson), &route("#/lesson/queue-wait-or-skip"));
        let stale = Shared::new(RunModel::build(&lesson, &lesson.settings_default(), 1).unwrap());
        player.navigate(&route("#/lesson/queue-wait-or-skip?readpast=off"));
        player.update(PlayerAction::RunReady(stale));
        assert!(player.run.is_none());
    }

    #[test]
    fn steps_and_seeks() {
        let mut player = Player::new(
            lesson("queue-wait-or-skip"),
            &route("#/lesson/queue-wait-or-skip"),
        );
        let run = ready(&mut player);
        let n = run.events();
        player.update(PlayerAction::StepForward);
        assert_eq!(player.head, Playhead { events: 1, t_us: 0 });
        player.update(PlayerAction::End);
        assert_eq!(player.head.events, n);
        player.update(PlayerAction::StepForward);
        assert_eq!(player.head.events, n);
        player.update(PlayerAction::StepBack);
        assert_eq!(
            player.head,
            Playhead {
                events: n - 1,
                t_us: run.trace[n - 2].at_us
            }
        );
        player.update(PlayerAction::SeekTime(1_600_000));
        assert_eq!(player.head.t_us, 1_600_000);
        assert!(run.trace[player.head.events - 1].at_us <= 1_600_000);
        assert!(run.trace[player.head.events].at_us > 1_600_000);
        player.update(PlayerAction::SeekEvents(3));
        assert_eq!(
            player.route().to_string(),
            format!(
                "/lesson/queue-wait-or-skip?t={}&e=3",
                crate::route::ms_text(run.trace[2].at_us)
            )
        );
        player.update(PlayerAction::Home);
        assert_eq!(player.head, Playhead::default());
    }

    #[test]
    fn playing_paces_bursts_and_stops_at_the_end() {
        let mut player = Player::new(
            lesson("queue-wait-or-skip"),
            &route("#/lesson/queue-wait-or-skip"),
        );
        let run = ready(&mut player);
        player.update(PlayerAction::TogglePlay);
        assert!(player.playing);
        // One second at 1×: at most ~4 more events although ~18 happen before 1 ms.
        for _ in 0..60 {
            player.update(PlayerAction::Tick(1000.0 / 60.0));
        }
        assert!((4..=6).contains(&player.head.events), "{:?}", player.head);
        player.update(PlayerAction::SetSpeed(SPEEDS.len() - 1));
        for _ in 0..10_000 {
            if !player.playing {
                break;
            }
            player.update(PlayerAction::Tick(16.0));
        }
        assert!(!player.playing);
        assert_eq!(
            player.head,
            Playhead {
                events: run.events(),
                t_us: run.end_us()
            }
        );
        // Play at the end starts again.
        player.update(PlayerAction::TogglePlay);
        assert_eq!(player.head, Playhead::default());
    }
}
