//! The fidelity suite: each `pg-*` lesson run on a real PostgreSQL server, its sessions
//! as concurrent connections with the lesson's timing, and the figures its checks name
//! compared with the simulator's (`cargo xtask fidelity`; ARCHITECTURE.md).

pub mod cluster;
pub mod compare;
pub mod plan;
pub mod real;
pub mod report;
pub mod split;

pub use compare::{compare, Entry, Simulated};
pub use plan::{plan, Plan, SessionPlan};
