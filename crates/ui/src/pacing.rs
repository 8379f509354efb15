//! How fast playback goes at 1×: by events through dense stretches and by (compressed)
//! time through sleeps and waits. Virtual time alone cannot set the pace: the claim
//! race does a statement every few microseconds, the READPAST lesson waits 2.5 s for a
//! lock. So each event gets the same share of real time, and a quiet stretch between
//! two events plays for a time that grows with its length but far slower than it.

/// Real time each event is on screen at 1× (four events a second).
pub const EVENT_MS: f64 = 250.0;
/// A quiet stretch up to this long plays in real time at 1×.
pub const IDLE_REAL_MS: f64 = 250.0;
/// No quiet stretch plays longer than this at 1×, however long it is.
pub const IDLE_MAX_MS: f64 = 2000.0;

/// Real milliseconds (at 1×) that a quiet stretch of `gap_us` plays for: its own length
/// up to [`IDLE_REAL_MS`], then a quarter second more each time it doubles.
pub fn idle_ms(gap_us: u64) -> f64 {
    let gap_ms = gap_us as f64 / 1000.0;
    if gap_ms <= IDLE_REAL_MS {
        gap_ms
    } else {
        (IDLE_REAL_MS + IDLE_REAL_MS * (gap_ms / IDLE_REAL_MS).log2()).min(IDLE_MAX_MS)
    }
}

/// Whether a quiet stretch of `gap_us` plays faster than real time at 1× (the page
/// says so while the playhead is in it).
pub fn compressed(gap_us: u64) -> bool {
    gap_us as f64 / 1000.0 > IDLE_REAL_MS
}

/// The playhead as pacing sees it: events shown, virtual time, and the real time
/// already spent towards showing the next event.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pace {
    pub events: usize,
    pub t_us: u64,
    /// Real ms (at 1×) the last event shown has been on screen; the clock moves on at
    /// [`EVENT_MS`]. An event shows as the clock reaches its instant, so while it is on
    /// screen the clock reads its time, as its narration does.
    pub dwell_ms: f64,
}

/// Event times of a run: how many, and the time of the k-th (sorted).
pub trait Times {
    fn count(&self) -> usize;
    fn at(&self, k: usize) -> u64;
}

impl Times for [u64] {
    fn count(&self) -> usize {
        self.len()
    }
    fn at(&self, k: usize) -> u64 {
        self[k]
    }
}

fn before<T: Times + ?Sized>(times: &T, events: usize) -> u64 {
    match events.checked_sub(1) {
        Some(k) if k < times.count() => times.at(k),
        _ => 0,
    }
}

/// Moves `pace` on by `budget_ms` of real time at 1× (real time × speed) through a run
/// whose events happen at `times` and which ends at `end_us`. Quiet stretches between
/// events (and after the last one) pass at the rate [`idle_ms`] gives them.
pub fn advance<T: Times + ?Sized>(
    mut pace: Pace,
    times: &T,
    end_us: u64,
    mut budget_ms: f64,
) -> Pace {
    // Each loop shows an event or crosses (part of) a quiet stretch; `budget_ms` shrinks
    // by at least a dwell each event, so the loop is bounded by the events it can show.
    loop {
        if pace.events > 0 && pace.dwell_ms < EVENT_MS {
            let need_ms = EVENT_MS - pace.dwell_ms;
            if budget_ms < need_ms {
                pace.dwell_ms += budget_ms;
                return pace;
            }
            budget_ms -= need_ms;
            pace.dwell_ms = EVENT_MS;
        }
        let next_us = if pace.events < times.count() {
            times.at(pace.events)
        } else {
            end_us
        };
        let gap_from = before(times, pace.events).min(next_us);
        if pace.t_us < next_us {
            let gap = next_us - gap_from;
            let real = idle_ms(gap).max(f64::MIN_POSITIVE);
            let us_per_ms = gap as f64 / real;
            let need_ms = (next_us - pace.t_us) as f64 / us_per_ms;
            if budget_ms < need_ms {
                pace.t_us += (budget_ms * us_per_ms) as u64;
                pace.t_us = pace.t_us.min(next_us);
                return pace;
            }
            budget_ms -= need_ms;
            pace.t_us = next_us;
        }
        if pace.events >= times.count() {
            return pace;
        }
        pace.events += 1;
        pace.dwell_ms = 0.0;
    }
}

/// The quiet stretch the playhead is in, if it plays compressed: `(from_us, to_us)`.
pub fn idle_at<T: Times + ?Sized>(
    times: &T,
    end_us: u64,
    events: usize,
    t_us: u64,
) -> Option<(u64, u64)> {
    let from = before(times, events);
    let to = if events < times.count() {
        times.at(events)
    } else {
        end_us
    };
    (from < t_us && t_us < to && compressed(to - from)).then_some((from, to))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The speed control's hint (`speed-title` in player.ftl, every language) states
    /// these figures: change it with them.
    #[test]
    fn the_speed_hint_states_the_pacing() {
        assert_eq!(1000.0 / EVENT_MS, 4.0, "four events a second");
        assert_eq!(IDLE_REAL_MS, 250.0, "a quarter second in real time");
        assert_eq!(IDLE_MAX_MS, 2000.0, "2 s at most");
    }

    #[test]
    fn quiet_stretches_are_compressed_more_the_longer_they_are() {
        assert_eq!(idle_ms(100_000), 100.0);
        assert_eq!(idle_ms(250_000), 250.0);
        assert_eq!(idle_ms(500_000), 500.0);
        assert!(
            (idle_ms(2_500_000) - 1080.5).abs() < 1.0,
            "{}",
            idle_ms(2_500_000)
        );
        assert_eq!(idle_ms(3_600_000_000), IDLE_MAX_MS);
        assert!(!compressed(250_000) && compressed(250_001));
    }

    #[test]
    fn dense_events_play_four_a_second() {
        // 2 000 events a microsecond apart: one second shows four of them.
        let times: Vec<u64> = (0..2000).collect();
        let start = Pace {
            events: 0,
            t_us: 0,
            dwell_ms: EVENT_MS,
        };
        let p = advance(start, times.as_slice(), 2000, 1000.0);
        assert!((4..=5).contains(&p.events), "{p:?}");
        // In 60 frames the same.
        let mut p = start;
        for _ in 0..60 {
            p = advance(p, times.as_slice(), 2000, 1000.0 / 60.0);
        }
        assert!((4..=5).contains(&p.events), "{p:?}");
    }

    #[test]
    fn a_long_wait_passes_compressed_and_is_labelled() {
        // Two events, then 2.5 s of waiting, then one more.
        let times = [0, 10, 2_500_010];
        // The second event has had its time on screen.
        let start = Pace {
            events: 2,
            t_us: 10,
            dwell_ms: EVENT_MS,
        };
        // Half of the wait's real time crosses half of it.
        let half = idle_ms(2_500_000) / 2.0;
        let p = advance(start, &times[..], 2_500_010, half);
        assert_eq!(p.events, 2);
        assert!((p.t_us as i64 - 1_250_010).abs() < 10, "{p:?}");
        assert_eq!(
            idle_at(&times[..], 2_500_010, p.events, p.t_us),
            Some((10, 2_500_010))
        );
        // The whole wait and a dwell show the last event, in about 1.3 s, not 2.5 s.
        let p = advance(start, &times[..], 2_500_010, idle_ms(2_500_000) + EVENT_MS);
        assert_eq!((p.events, p.t_us), (3, 2_500_010));
        // A short gap is not labelled.
        assert_eq!(idle_at(&[0, 100, 200][..], 200, 1, 150), None);
    }

    /// While an event is on screen the clock reads its time: it shows as the clock
    /// reaches its instant and stays a dwell there, so a pause at any frame finds the
    /// position and the narration at the same time (or the clock on its way onwards,
    /// past the event's time, once its dwell is over).
    #[test]
    fn an_event_on_screen_has_the_clock_at_its_time() {
        let times = [0, 40_000, 40_010, 90_000];
        let mut p = Pace {
            events: 0,
            t_us: 0,
            dwell_ms: EVENT_MS,
        };
        let mut frames = 0;
        while p.events < times.len() || p.t_us < 100_000 {
            p = advance(p, &times[..], 100_000, 1000.0 / 60.0);
            frames += 1;
            assert!(frames < 1000, "{p:?}");
            if p.events > 0 && p.dwell_ms < EVENT_MS {
                assert_eq!(p.t_us, times[p.events - 1], "frame {frames}: {p:?}");
            }
            assert!(
                p.events == times.len() || p.t_us <= times[p.events],
                "{p:?}"
            );
        }
    }

    #[test]
    fn after_the_last_event_time_runs_to_the_end() {
        let times = [0, 10];
        let p = advance(
            Pace {
                events: 2,
                t_us: 10,
                dwell_ms: 0.0,
            },
            &times[..],
            110,
            1000.0,
        );
        assert_eq!((p.events, p.t_us), (2, 110));
    }
}
