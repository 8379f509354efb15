//! Explore mode: search every interleaving of a lesson's sessions for a state that breaks
//! one of its properties (`[[properties]]`, `lesson::Property`).
//!
//! The search runs the engine untimed (every statement boundary is a choice, WAITFOR
//! only yields), depth first, skipping states it has seen (`Simulation::fingerprint`)
//! and, with sleep sets over the steps' footprints, orders of independent steps it has
//! already tried. When a budget of states runs out before the search ends, seeded random
//! walks go on from the start. It answers with a counterexample (the shortest found,
//! then shrunk to fewer context switches, with a schedule `lockstep run --schedule`
//! replays) or "holds for every interleaving up to these bounds".
//!
//! [`Search`] does a bounded amount of work per [`Search::step`], so a caller that must
//! not block (the browser) runs it in slices and cancels by dropping it. Deterministic:
//! the same lesson, settings, seed and options give the same figures and counterexample.

mod conflict;
mod path;
mod search;

pub use conflict::{explain, Conflict};
pub use path::{about, after_subject, english, About, Counterexample, Narrated, Word};
pub use search::{Options, Progress, Report, Search, Verdict};

/// Why a search could not run: the lesson's SQL, or a property's SQL, is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExploreError {
    /// The engine refused the lesson's SQL (placed in the file).
    Lesson(lesson::LessonError),
    /// A property's query failed or did not give one number.
    Property(lesson::PropertyError),
}

impl std::fmt::Display for ExploreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExploreError::Lesson(e) => e.fmt(f),
            ExploreError::Property(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ExploreError {}
