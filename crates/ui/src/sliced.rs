//! Long work in slices between frames, so a run never freezes the page: a job does a
//! few engine steps per call, and [`run_sliced`] calls it until a slice has taken
//! [`SLICE_MS`], then yields to the browser (which paints and handles input) through a
//! `MessageChannel` (a zero-delay task; a timer would be clamped to 4 ms) and goes on.
//! Dropping the returned [`Sliced`] cancels the job: no slice runs after that, so a
//! newer request, a Cancel button or leaving the page all stop it the same way.
//!
//! This is browser glue; the jobs themselves (`run::RunBuilder`, `exercise::Checker`,
//! `exploring::Exploring`)
//! are plain state machines, tested natively.

use std::cell::{Cell, RefCell};

use gloo::events::EventListener;
use gloo::utils::window;
use wasm_bindgen::JsValue;
use web_sys::{MessageChannel, MessagePort};

use crate::exercise::{CheckProgress, Checker, SeedsCheck, Verdict};
use crate::exploring::Exploring;
use crate::run::{BuildProgress, RunBuilder, RunModel};

/// Work per slice, in ms: well under the 50 ms that makes a long task, so input is
/// answered within a frame or two while a run builds.
pub const SLICE_MS: f64 = 12.0;
/// Engine steps between two looks at the clock.
pub const STEPS_PER_CALL: usize = 64;
/// A job that takes longer than this shows its progress (and a Cancel button).
pub const PROGRESS_AFTER_MS: f64 = 150.0;
/// How often progress is reported after that (each report re-renders the page).
pub const PROGRESS_EVERY_MS: f64 = 100.0;

/// Work that can be done a few engine steps at a time.
pub trait Job: 'static {
    type Output: 'static;
    type Progress: 'static;
    /// Does at most about `steps` engine steps; the output once the work is done.
    fn advance(&mut self, steps: usize) -> Option<Self::Output>;
    fn progress(&self) -> Self::Progress;
}

/// A run being built (`finish` takes the builder, hence the `Option`).
impl Job for Option<RunBuilder> {
    type Output = RunModel;
    type Progress = BuildProgress;
    fn advance(&mut self, steps: usize) -> Option<RunModel> {
        if self.as_mut()?.advance(steps) {
            self.take().map(RunBuilder::finish)
        } else {
            None
        }
    }
    fn progress(&self) -> BuildProgress {
        self.as_ref().map(RunBuilder::progress).unwrap_or_default()
    }
}

impl Job for Checker {
    type Output = Verdict;
    type Progress = CheckProgress;
    fn advance(&mut self, steps: usize) -> Option<Verdict> {
        Checker::advance(self, steps)
    }
    fn progress(&self) -> CheckProgress {
        Checker::progress(self)
    }
}

impl Job for SeedsCheck {
    type Output = Result<lesson::ExerciseReport, Verdict>;
    type Progress = CheckProgress;
    fn advance(&mut self, steps: usize) -> Option<Self::Output> {
        SeedsCheck::advance(self, steps)
    }
    fn progress(&self) -> CheckProgress {
        SeedsCheck::progress(self)
    }
}

/// The outcome matrix (run in the worker).
impl Job for lesson::MatrixRun {
    type Output = lesson::Matrix;
    type Progress = lesson::MatrixProgress;
    fn advance(&mut self, steps: usize) -> Option<lesson::Matrix> {
        lesson::MatrixRun::advance(self, steps as u64)
    }
    fn progress(&self) -> lesson::MatrixProgress {
        lesson::MatrixRun::progress(self)
    }
}

impl Job for Exploring {
    type Output = Result<explore::Report, String>;
    type Progress = explore::Progress;
    fn advance(&mut self, steps: usize) -> Option<Self::Output> {
        Exploring::advance(self, steps)
    }
    fn progress(&self) -> explore::Progress {
        Exploring::progress(self)
    }
}

/// A job running in slices; dropping it cancels the job.
pub struct Sliced {
    _listener: EventListener,
    port: MessagePort,
}

impl Drop for Sliced {
    fn drop(&mut self) {
        self.port.close();
    }
}

fn now_ms() -> f64 {
    window().performance().map_or(0.0, |p| p.now())
}

/// Starts `job` in the next task. `on_progress` is called now and then once it has run
/// for [`PROGRESS_AFTER_MS`]; `on_done` once, with the output. Without
/// `MessageChannel` (no browser Lockstep runs in lacks it) the job runs in one go and
/// `None` comes back.
pub fn run_sliced<J: Job>(
    mut job: J,
    on_progress: impl Fn(J::Progress) + 'static,
    on_done: impl FnOnce(J::Output) + 'static,
) -> Option<Sliced> {
    let Ok(channel) = MessageChannel::new() else {
        loop {
            if let Some(output) = job.advance(usize::MAX) {
                on_done(output);
                return None;
            }
        }
    };
    let (inbox, outbox) = (channel.port1(), channel.port2());
    let started = now_ms();
    let last_report = Cell::new(started);
    let work = RefCell::new(Some((job, on_done)));
    let next = outbox.clone();
    let listener = EventListener::new(&inbox, "message", move |_| {
        let slice_start = now_ms();
        let mut slot = work.borrow_mut();
        let Some((job, _)) = slot.as_mut() else {
            return;
        };
        loop {
            if let Some(output) = job.advance(STEPS_PER_CALL) {
                let (_, on_done) = slot.take().expect("the job is there");
                drop(slot);
                on_done(output);
                return;
            }
            if now_ms() - slice_start >= SLICE_MS {
                break;
            }
        }
        let now = now_ms();
        if now - started >= PROGRESS_AFTER_MS && now - last_report.get() >= PROGRESS_EVERY_MS {
            last_report.set(now);
            on_progress(job.progress());
        }
        let _ = next.post_message(&JsValue::NULL);
    });
    // A port listened to with addEventListener delivers only once started.
    inbox.start();
    let _ = outbox.post_message(&JsValue::NULL);
    Some(Sliced {
        _listener: listener,
        port: inbox,
    })
}
