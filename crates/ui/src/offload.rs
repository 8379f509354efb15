//! The page's side of the worker: long work (Explore, Check) is posted to a Web Worker
//! (`worker.rs`), so the main thread only renders. The worker is created the first
//! time work is asked for, or when a page that asks for it opens ([`warm`]: the
//! scheduler, an exercise), so a lesson page never downloads it; it is kept while idle. There is one job at a time: a newer request,
//! Cancel and leaving the page all drop the job's [`Offloaded`], and dropping the job
//! that runs terminates the worker, which stops even a loop that never ends; the next
//! request starts a fresh one.
//!
//! A panic inside the worker comes back as a message and shows the error panel; a
//! worker that cannot load (its script or wasm missing) answers the job with
//! [`Reply::Failed`].

use std::cell::{Cell, RefCell};

use gloo::events::EventListener;
use gloo::timers::callback::Timeout;
use js_sys::Uint8Array;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, MessageEvent, Worker};

use crate::hooks::Measure;
use crate::wire::{Reply, Request};

/// The worker's script, next to `index.html` (`www/`, copied by Trunk). Relative, so
/// the app works from any path and in an iframe.
pub const LOADER: &str = "lockstep-worker-loader.js";

/// Performance API measure of a worker's start: created → `Ready` (fetching and
/// compiling its wasm, reading the lessons).
pub const MEASURE_WORKER_START: &str = "lockstep:worker-start";

/// What the page says when the worker does not start.
const LOAD_FAILED: &str = "Lockstep could not load the background worker that runs long work";

/// A job in the worker; dropping it cancels the job (it terminates the worker if the
/// job is still running).
pub struct Offloaded {
    id: u32,
}

struct Slot {
    worker: Worker,
    /// The worker said `Ready`: it reads requests from now on (earlier ones are lost).
    ready: bool,
    /// The request to post once the worker is ready.
    pending: Option<Vec<u8>>,
    /// The job running, if any.
    current: Option<u32>,
    on_reply: Option<Box<dyn FnMut(Reply)>>,
    /// Ends when the worker is ready.
    starting: Option<Measure>,
    _listeners: [EventListener; 2],
}

thread_local! {
    static SLOT: RefCell<Option<Slot>> = const { RefCell::new(None) };
    static NEXT_ID: Cell<u32> = const { Cell::new(1) };
}

/// Posts `request` to the worker (created now if there is none); `on_reply` gets its
/// progress and its answer (`Ready` never reaches it).
pub fn offload(request: &Request, on_reply: impl FnMut(Reply) + 'static) -> Offloaded {
    let id = NEXT_ID.with(|n| {
        let id = n.get();
        n.set(id.wrapping_add(1));
        id
    });
    let bytes = request.encode();
    let spawned = SLOT.with(|cell| {
        let mut slot = cell.borrow_mut();
        // A worker busy with an older job: that job is cancelled.
        if slot.as_ref().is_some_and(|s| s.current.is_some()) {
            retire(slot.take());
        }
        if slot.is_none() {
            *slot = Some(spawn()?);
        }
        Ok(())
    });
    match spawned {
        Err(message) => {
            // Answered in a later task, as the worker would have.
            let mut on_reply = on_reply;
            Timeout::new(0, move || on_reply(Reply::Failed(message))).forget();
        }
        Ok(()) => SLOT.with(|cell| {
            if let Some(s) = cell.borrow_mut().as_mut() {
                s.current = Some(id);
                s.on_reply = Some(Box::new(on_reply));
                if s.ready {
                    post(&s.worker, bytes);
                } else {
                    s.pending = Some(bytes);
                }
            }
        }),
    }
    Offloaded { id }
}

/// Starts the worker ahead of any job, on the pages where long work is one click away
/// (the scheduler's Explore, an exercise's Check), so its wasm loads and compiles while
/// the learner reads rather than after the click.
pub fn warm() {
    SLOT.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            *slot = spawn().ok();
        }
    });
}

impl Drop for Offloaded {
    fn drop(&mut self) {
        SLOT.with(|cell| {
            let mut slot = cell.borrow_mut();
            if slot.as_ref().and_then(|s| s.current) == Some(self.id) {
                retire(slot.take());
            }
        });
    }
}

fn post(worker: &Worker, bytes: Vec<u8>) {
    let buffer = Uint8Array::from(bytes.as_slice()).buffer();
    let _ = worker.post_message_with_transfer(&buffer, &js_sys::Array::of1(&buffer));
}

/// Terminates a worker and drops its listeners in a later task (one of them may be
/// running now).
fn retire(slot: Option<Slot>) {
    if let Some(slot) = slot {
        slot.worker.terminate();
        Timeout::new(0, move || drop(slot)).forget();
    }
}

fn spawn() -> Result<Slot, String> {
    let starting = Measure::start(MEASURE_WORKER_START);
    let worker = Worker::new(LOADER).map_err(|e| format!("{LOAD_FAILED}: {e:?}"))?;
    let on_message = EventListener::new(&worker, "message", |event| {
        let Some(event) = event.dyn_ref::<MessageEvent>() else {
            return;
        };
        let data = event.data();
        // The loader reports in plain text what stopped the wasm from starting.
        let reply = match data.as_string() {
            Some(text) => Reply::Failed(format!("{LOAD_FAILED} ({text}).")),
            None => Reply::decode(&Uint8Array::new(&data).to_vec()).unwrap_or_else(|e| {
                Reply::Failed(format!(
                    "The worker's answer could not be read (byte {}: {}).",
                    e.at, e.message
                ))
            }),
        };
        receive(reply);
    });
    let on_error = EventListener::new(&worker, "error", |event| {
        event.prevent_default();
        let message = event
            .dyn_ref::<ErrorEvent>()
            .map(ErrorEvent::message)
            .filter(|m| !m.is_empty())
            .unwrap_or_else(|| format!("its script {LOADER} did not run"));
        let ready = SLOT.with(|cell| cell.borrow().as_ref().is_some_and(|s| s.ready));
        receive(if ready {
            // After it started, an error it did not catch is a crash, as a panic is.
            Reply::Panicked(format!("the background worker stopped: {message}"))
        } else {
            Reply::Failed(format!("{LOAD_FAILED} ({message})."))
        });
    });
    Ok(Slot {
        worker,
        ready: false,
        pending: None,
        current: None,
        on_reply: None,
        starting: Some(starting),
        _listeners: [on_message, on_error],
    })
}

/// Hands a reply to the job it is for. The slot is not borrowed while the job's
/// callback runs: it may drop its own handle or start a new job.
fn receive(reply: Reply) {
    if let Reply::Panicked(message) = &reply {
        // A bug, as a panic on the page is: the error panel, and nothing more.
        SLOT.with(|cell| retire(cell.borrow_mut().take()));
        web_sys::console::error_1(&message.into());
        crate::panic::show_panel(message);
        return;
    }
    let last = !matches!(
        reply,
        Reply::Searching(_) | Reply::Checking(_) | Reply::Tabulating(_)
    );
    let job = SLOT.with(|cell| {
        let mut slot = cell.borrow_mut();
        let s = slot.as_mut()?;
        if reply == Reply::Ready {
            s.ready = true;
            if let Some(measure) = s.starting.take() {
                measure.end();
            }
            if let Some(bytes) = s.pending.take() {
                post(&s.worker, bytes);
            }
            return None;
        }
        if let Reply::Failed(_) = reply {
            // The worker could not start or read the request: the next job gets a new one.
            let job = s.current.zip(s.on_reply.take());
            retire(slot.take());
            return job;
        }
        let id = s.current?;
        let on_reply = s.on_reply.take()?;
        if last {
            s.current = None; // done: the worker is idle, and kept for the next job
        }
        Some((id, on_reply))
    });
    let Some((id, mut on_reply)) = job else {
        return;
    };
    on_reply(reply);
    if !last {
        // Back in place, unless the job was dropped or replaced meanwhile.
        SLOT.with(|cell| {
            if let Some(s) = cell.borrow_mut().as_mut() {
                if s.current == Some(id) && s.on_reply.is_none() {
                    s.on_reply = Some(on_reply);
                }
            }
        });
    }
}
