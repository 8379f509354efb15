//! Lockstep's browser UI.
//!
//! Layout follows yew's `function_todomvc`: [`state`] is a pure reducer (unit-tested
//! natively), [`components`] are props-only views, and everything that touches the
//! browser (URL hash, `localStorage`, `matchMedia`, the `<html>` element) lives in
//! [`hooks`] at the edge. The UI holds no simulation logic; that is the engine's job.

pub mod anomaly_text;
pub mod catalog;
pub mod compare;
pub mod components;
pub mod conflict;
pub mod editing;
pub mod embed;
pub mod exercise;
pub mod exploring;
pub mod graph;
pub mod hooks;
pub mod i18n;
pub mod matrix;
pub use ::i18n::t;
pub mod offload;
pub mod pacing;
pub mod panic;
pub mod player;
pub mod predict;
pub mod present;
pub mod problem;
pub mod progress;
pub mod route;
pub mod run;
pub mod scheduling;
pub mod sliced;
pub mod state;
pub mod track;
pub mod why;
pub mod wire;
pub mod worker;
pub mod zoom;

pub use components::App;
