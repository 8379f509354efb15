//! What a statement costs in virtual time: a base per kind of statement, jittered by the
//! seeded generator (so repeated runs differ as real ones do, and one seed repeats), plus
//! a small cost per logical read and per row written.

use rand_chacha::ChaCha8Rng;
use rand_core::Rng;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CostKind {
    Select,
    Insert,
    Update,
    Delete,
    /// DECLARE, SET, PRINT, RETURN: no data touched.
    Variable,
    Exec,
    Transaction,
    Ddl,
}

impl CostKind {
    /// Typical microseconds on a warm server for a one-row statement.
    fn base_us(self) -> u64 {
        match self {
            CostKind::Select => 90,
            CostKind::Insert => 80,
            CostKind::Update => 120,
            CostKind::Delete => 100,
            CostKind::Variable => 4,
            CostKind::Exec => 15,
            CostKind::Transaction => 25,
            CostKind::Ddl => 600,
        }
    }
}

/// Each page read from the buffer pool costs about a microsecond; each row written a few.
const READ_US: u64 = 1;
const ROW_WRITE_US: u64 = 6;
/// One log flush in this many is slow (a checkpoint, a busy disk).
const SLOW_FLUSH_ONE_IN: u32 = 40;
/// A slow flush takes 2–40 ms.
const SLOW_FLUSH_US: (u64, u64) = (2_000, 40_000);

pub fn statement_cost(rng: &mut ChaCha8Rng, kind: CostKind, reads: u64, rows_written: u64) -> u64 {
    let base = kind.base_us();
    // Uniform jitter in [60 %, 140 %] of the base.
    let jitter = 60 + rng.next_u32() as u64 % 81;
    (base * jitter / 100).max(1) + reads * READ_US + rows_written * ROW_WRITE_US
}

/// The unjittered cost of a read of `reads` pages: how long a MERGE's read takes before
/// its writes. Without jitter, two MERGEs write in the order they read.
pub fn read_cost(reads: u64) -> u64 {
    CostKind::Select.base_us() + reads * READ_US
}

/// Whether this commit's log flush is a slow one, and how long it holds the log.
/// The log is shared: every commit during a slow flush waits for it (group commit), so
/// a stall delays all writers at once. These rare stalls are what knocks two workers
/// out of step in a claim race.
pub fn slow_flush(rng: &mut ChaCha8Rng) -> Option<u64> {
    let roll = rng.next_u32();
    if roll % SLOW_FLUSH_ONE_IN != 0 {
        return None;
    }
    let (lo, hi) = SLOW_FLUSH_US;
    Some(lo + (roll / SLOW_FLUSH_ONE_IN) as u64 % (hi - lo))
}
