//! The worker's side (binary `lockstep-worker`, loaded by `www/lockstep-worker-loader.js`):
//! it reads one request at a time (`wire.rs`), runs it to the end without yielding, and
//! posts its progress about every 100 ms and then its answer. It never needs to look
//! for a Cancel: the page terminates the worker, which stops even a loop that never
//! ends. A panic is posted to the page before the instance aborts.

use std::panic::PanicHookInfo;

use explore::Options;
use js_sys::{Date, Uint8Array};
use lesson::MatrixRun;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

use crate::catalog::catalog;
use crate::exercise::seeds_check;
use crate::exploring::{Answer, Exploring};
use crate::player::settings_skipping;
use crate::scheduling::properties;
use crate::sliced::{Job, PROGRESS_AFTER_MS, PROGRESS_EVERY_MS, STEPS_PER_CALL};
use crate::wire::{ExploreRequest, Reply, Request};

/// The panic message of `Request::Panic` (the browser test looks for it).
pub const DEBUG_PANIC_MESSAGE: &str = "deliberate panic inside the worker";

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

fn post(reply: &Reply) {
    let bytes = Uint8Array::from(reply.encode().as_slice());
    let buffer = bytes.buffer();
    // The buffer is handed over, not copied.
    let transfer = js_sys::Array::of1(&buffer);
    let _ = scope().post_message_with_transfer(&buffer, &transfer);
}

/// The worker's entry point: the panic hook, then requests as they come.
pub fn serve() {
    std::panic::set_hook(Box::new(hook));
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(|event: MessageEvent| {
        let bytes = Uint8Array::new(&event.data()).to_vec();
        match Request::decode(&bytes) {
            Ok(request) => post(&answer(request)),
            Err(e) => post(&Reply::Failed(format!(
                "the worker could not read the request (byte {}: {})",
                e.at, e.message
            ))),
        }
    });
    scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The worker lives as long as its handler.
    on_message.forget();
    warm_up();
    post(&Reply::Ready);
}

/// How many times the warm-up runs its search.
const WARM_UP_SEARCHES: usize = 3;

/// Reads the lessons and runs a short search a few times before the worker says it is ready.
/// The browser first compiles wasm with a quick baseline compiler and optimizes the
/// functions that run hot, in the background: without this the learner's first search
/// ran several times slower than the next ones (the claim race's duplicate, 2 × 3:
/// 306 ms, then 228, then 65). The scheduler and the exercise page start the worker as
/// they open, so this happens while the learner reads.
fn warm_up() {
    let Some(lesson) = catalog().lesson("queue-claim-race").cloned() else {
        return;
    };
    let settings = [("claim", "two-step"), ("tasks", "3"), ("workers", "2")];
    let Ok(applied) = lesson
        .settings_with(settings)
        .map_err(|e| e.to_string())
        .and_then(|s| lesson.apply(&s).map_err(|e| e.to_string()))
    else {
        return;
    };
    let Some(property) = properties(&applied).into_iter().next() else {
        return;
    };
    // The optimizing compiler needs more than one pass over the hot code: with one warm-up
    // search the first real one still took 126-187 ms against 56-72 ms for later ones.
    for _ in 0..WARM_UP_SEARCHES {
        let Ok(mut search) = Exploring::new(&applied, lesson.seed, property.clone()) else {
            return;
        };
        while search.advance(STEPS_PER_CALL).is_none() {}
    }
}

fn hook(info: &PanicHookInfo<'_>) {
    console_error_panic_hook::hook(info);
    post(&Reply::Panicked(info.to_string()));
}

fn answer(request: Request) -> Reply {
    match request {
        Request::Explore(r) => Reply::Explored(explore(&r)),
        Request::Check { lesson, edits } => {
            let Some(lesson) = catalog().lesson(&lesson).cloned() else {
                return Reply::Failed(format!("no lesson {lesson}"));
            };
            Reply::Checked(seeds_check(&lesson, &edits).and_then(|job| {
                let (report, progress) = run(job, Reply::Checking);
                report.map(|report| (report, progress.steps))
            }))
        }
        Request::Panic => panic!("{DEBUG_PANIC_MESSAGE}"),
        Request::Matrix { lesson, seeds } => Reply::Tabulated(match catalog().lesson(&lesson) {
            Some(lesson) => Ok(run(MatrixRun::new(lesson, &seeds), Reply::Tabulating).0),
            None => Err(format!("no lesson {lesson}")),
        }),
    }
}

fn explore(r: &ExploreRequest) -> Result<Answer, String> {
    // The worker has its own language setting: the page's, for the steps' words.
    crate::i18n::set_lang(crate::i18n::Lang::parse(&r.lang).unwrap_or(crate::i18n::Lang::En));
    let lesson = catalog()
        .lesson(&r.lesson)
        .cloned()
        .ok_or_else(|| format!("no lesson {}", r.lesson))?;
    let settings = settings_skipping(&lesson, &r.settings, |_, _, _| {});
    let applied = lesson.apply(&settings).map_err(|e| e.to_string())?;
    let property = properties(&applied)
        .into_iter()
        .find(|p| p.name == r.property)
        .ok_or_else(|| format!("no property {}", r.property))?;
    let options = Options {
        max_steps: r.max_steps,
        max_states: r.max_states,
        ..Options::default()
    };
    let job = Exploring::with_options(&applied, r.seed, property, options)?;
    let (report, _) = run(job, Reply::Searching);
    report.map(|report| Answer::from(&report))
}

/// Runs `job` to the end, posting its progress after 150 ms and every 100 ms after
/// that; its output and its progress at the end.
fn run<J: Job>(mut job: J, progress: impl Fn(J::Progress) -> Reply) -> (J::Output, J::Progress) {
    let started = Date::now();
    let mut last = started;
    loop {
        if let Some(output) = job.advance(STEPS_PER_CALL) {
            return (output, job.progress());
        }
        let now = Date::now();
        if now - started >= PROGRESS_AFTER_MS && now - last >= PROGRESS_EVERY_MS {
            last = now;
            post(&progress(job.progress()));
        }
    }
}
