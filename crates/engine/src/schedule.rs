//! Schedules as data: who picks the next session at a choice point, the choices a run
//! made, and their short text form (`0.1~3.2`) that fits in a URL and replays the run.
//!
//! A *choice point* is a step where more than one session is enabled. In timed mode that
//! is a tie at the same microsecond; in untimed mode every statement boundary with two or
//! more runnable sessions. Only choice points are recorded: a step with one enabled
//! session has nothing to choose.

use std::fmt;
use std::str::FromStr;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

/// Whether virtual time orders the sessions (timed, the default), or every statement
/// boundary is a free choice and WAITFOR only yields (untimed, the way an isolation
/// tester permutes steps).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    #[default]
    Timed,
    Untimed,
}

/// Picks one of the enabled sessions (indices into the scenario's sessions, ascending).
pub trait Scheduler {
    /// `enabled` has at least two entries. Returns the pick, or `None` when this
    /// scheduler has no answer (a script that ran out).
    fn pick(&mut self, enabled: &[usize]) -> Option<usize>;
}

/// How ties between enabled sessions are broken.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum SchedulePolicy {
    /// Seeded random choice (the default). Its stream is its own: it never shifts the
    /// statement costs, so a recorded random run replays as a script.
    #[default]
    Random,
    RoundRobin,
    /// A replayable interleaving: the session to pick at each choice point, in order.
    /// A pick that is not enabled is an error naming the choice; when the list runs out
    /// the run goes on with seeded random choices (and records them).
    Scripted(Vec<usize>),
}

/// The built-in schedulers, as one cloneable value (a `Simulation` is `Clone`).
#[derive(Clone, Debug)]
pub(crate) enum Policy {
    Random(ChaCha8Rng),
    RoundRobin {
        next: usize,
    },
    Scripted {
        picks: Vec<usize>,
        pos: usize,
        then: ChaCha8Rng,
    },
}

/// The schedule RNG: the run's seed on a stream of its own (the cost model uses stream 0).
fn schedule_rng(seed: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(1);
    rng
}

impl Policy {
    pub(crate) fn new(policy: SchedulePolicy, seed: u64) -> Policy {
        match policy {
            SchedulePolicy::Random => Policy::Random(schedule_rng(seed)),
            SchedulePolicy::RoundRobin => Policy::RoundRobin { next: 0 },
            SchedulePolicy::Scripted(picks) => Policy::Scripted {
                picks,
                pos: 0,
                then: schedule_rng(seed),
            },
        }
    }
}

fn random_pick(rng: &mut ChaCha8Rng, enabled: &[usize]) -> usize {
    enabled[rng.next_u32() as usize % enabled.len()]
}

impl Scheduler for Policy {
    fn pick(&mut self, enabled: &[usize]) -> Option<usize> {
        match self {
            Policy::Random(rng) => Some(random_pick(rng, enabled)),
            Policy::RoundRobin { next } => {
                let pick = enabled
                    .iter()
                    .copied()
                    .find(|&s| s >= *next)
                    .unwrap_or(enabled[0]);
                *next = pick + 1;
                Some(pick)
            }
            Policy::Scripted { picks, pos, then } => match picks.get(*pos) {
                Some(&want) => {
                    *pos += 1;
                    Some(want)
                }
                None => Some(random_pick(then, enabled)),
            },
        }
    }
}

/// A scripted pick that is not enabled at its choice point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduleError {
    /// 1-based number of the choice point in the schedule.
    pub choice: usize,
    /// The session the schedule asked for (index), and its name when it exists.
    pub wanted: usize,
    pub wanted_name: Option<String>,
    /// The sessions that were enabled, by name.
    pub enabled: Vec<String>,
}

impl fmt::Display for ScheduleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let who = match &self.wanted_name {
            Some(name) => format!("session {} ({name})", self.wanted),
            None => format!("session {}, which does not exist", self.wanted),
        };
        write!(
            f,
            "schedule choice {} picks {who}, but only {} can run then",
            self.choice,
            self.enabled.join(", ")
        )
    }
}

impl std::error::Error for ScheduleError {}

/// The choices a run made, in order, with the mode they were made in.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Schedule {
    pub mode: Mode,
    pub choices: Vec<usize>,
}

impl Schedule {
    /// The policy that replays this schedule.
    pub fn policy(&self) -> SchedulePolicy {
        SchedulePolicy::Scripted(self.choices.clone())
    }
}

/// `-` for no choices; otherwise session indices joined by `.`, a run of the same index
/// written once with `~count` (`0.1~3.0` is 0, 1, 1, 1, 0). Untimed schedules start `u.`.
/// Only URL-safe characters.
impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.mode == Mode::Untimed {
            f.write_str("u.")?;
        }
        if self.choices.is_empty() {
            return f.write_str("-");
        }
        let mut first = true;
        let mut k = 0;
        while k < self.choices.len() {
            let c = self.choices[k];
            let run = self.choices[k..].iter().take_while(|&&x| x == c).count();
            if !first {
                f.write_str(".")?;
            }
            first = false;
            if run > 1 {
                write!(f, "{c}~{run}")?;
            } else {
                write!(f, "{c}")?;
            }
            k += run;
        }
        Ok(())
    }
}

/// A `Schedule`'s text that does not read: the item that is not a session number or
/// `NUMBER~COUNT` (or whose count is 0 or too large), as data, so a page can word it in
/// its own language; `Display` is the English sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseScheduleError {
    /// The whole text, as given.
    pub text: String,
    /// 1-based position of the bad item among the `.`-separated items.
    pub item: usize,
    /// The bad item, as written.
    pub token: String,
}

impl fmt::Display for ParseScheduleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "schedule `{}`: item {} (`{}`) is not a session number or NUMBER~COUNT",
            self.text, self.item, self.token
        )
    }
}

impl std::error::Error for ParseScheduleError {}

impl FromStr for Schedule {
    type Err = ParseScheduleError;

    fn from_str(text: &str) -> Result<Schedule, ParseScheduleError> {
        let (mode, body) = match text.strip_prefix("u.") {
            Some(rest) => (Mode::Untimed, rest),
            None => (Mode::Timed, text),
        };
        let mut choices = Vec::new();
        if body != "-" {
            for (k, token) in body.split('.').enumerate() {
                let (index, count) = match token.split_once('~') {
                    Some((i, n)) => (i, n),
                    None => (token, "1"),
                };
                let bad = || ParseScheduleError {
                    text: text.to_owned(),
                    item: k + 1,
                    token: token.to_owned(),
                };
                let index: usize = index.parse().map_err(|_| bad())?;
                let count: usize = count.parse().map_err(|_| bad())?;
                if count == 0 || count > 1_000_000 || index > 1_000 {
                    return Err(bad());
                }
                choices.extend(std::iter::repeat_n(index, count));
            }
        }
        Ok(Schedule { mode, choices })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_form_round_trips() {
        for (choices, mode, text) in [
            (vec![], Mode::Timed, "-"),
            (vec![0, 1, 1, 1, 0], Mode::Timed, "0.1~3.0"),
            (vec![2, 2], Mode::Untimed, "u.2~2"),
            (vec![], Mode::Untimed, "u.-"),
            (vec![10, 3], Mode::Timed, "10.3"),
        ] {
            let s = Schedule { mode, choices };
            assert_eq!(s.to_string(), text);
            assert_eq!(text.parse::<Schedule>().unwrap(), s);
        }
    }

    #[test]
    fn bad_text_names_the_item() {
        let e = "0.x.1".parse::<Schedule>().unwrap_err();
        assert!(e.to_string().contains("item 2 (`x`)"), "{e}");
        assert_eq!(
            e.to_string(),
            "schedule `0.x.1`: item 2 (`x`) is not a session number or NUMBER~COUNT"
        );
        assert_eq!((e.item, e.token.as_str()), (2, "x"));
        assert!("1~0".parse::<Schedule>().is_err());
        assert!("".parse::<Schedule>().is_err());
    }

    #[test]
    fn round_robin_rotates_over_the_enabled() {
        let mut p = Policy::new(SchedulePolicy::RoundRobin, 0);
        let picks: Vec<usize> = (0..4).map(|_| p.pick(&[0, 2, 3]).unwrap()).collect();
        assert_eq!(picks, [0, 2, 3, 0]);
    }
}
