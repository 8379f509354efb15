//! The timeline's visible window: which stretch of virtual time the lanes show, and
//! how zooming, panning, brushing and following the playhead move it. Pure
//! arithmetic on microseconds, so it is tested natively.

/// The narrowest window: a few microseconds across a lane, so single events of the
/// shortest statements stand apart.
pub const MIN_SPAN_US: u64 = 10;

/// A stretch `from_us..to_us` of a run that ends at `end_us`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    pub from_us: u64,
    pub to_us: u64,
}

impl Window {
    /// The whole run (at least [`MIN_SPAN_US`] wide, so an empty run still draws).
    pub fn full(end_us: u64) -> Window {
        Window {
            from_us: 0,
            to_us: end_us.max(MIN_SPAN_US),
        }
    }

    pub fn span_us(&self) -> u64 {
        self.to_us - self.from_us
    }

    /// Whether this is the whole run of `end_us`.
    pub fn is_full(&self, end_us: u64) -> bool {
        *self == Window::full(end_us)
    }

    /// `from..to` in order, at least [`MIN_SPAN_US`] wide and inside the run.
    pub fn clamped(from_us: u64, to_us: u64, end_us: u64) -> Window {
        let full = Window::full(end_us);
        let (a, b) = if from_us <= to_us {
            (from_us, to_us)
        } else {
            (to_us, from_us)
        };
        let span = (b - a).clamp(MIN_SPAN_US.min(full.to_us), full.to_us);
        let from = a.min(full.to_us - span);
        Window {
            from_us: from,
            to_us: from + span,
        }
    }

    /// Where `us` falls across the window, 0.0 at its start and 1.0 at its end
    /// (outside the window, below 0 or above 1).
    pub fn fraction(&self, us: u64) -> f64 {
        (us as f64 - self.from_us as f64) / self.span_us().max(1) as f64
    }

    /// The time at `fraction` of the way across (clamped to the window).
    pub fn at(&self, fraction: f64) -> u64 {
        let f = fraction.clamp(0.0, 1.0);
        self.from_us + (f * self.span_us() as f64).round() as u64
    }

    pub fn contains(&self, us: u64) -> bool {
        self.from_us <= us && us <= self.to_us
    }

    /// Zooms by `factor` (below 1 zooms in) keeping the time under `anchor` (a fraction
    /// of the width: the pointer, or the middle for the buttons) where it is.
    pub fn zoom(&self, factor: f64, anchor: f64, end_us: u64) -> Window {
        let anchor = anchor.clamp(0.0, 1.0);
        let pivot = self.from_us as f64 + anchor * self.span_us() as f64;
        let span = (self.span_us() as f64 * factor).max(MIN_SPAN_US as f64);
        let from = (pivot - anchor * span).max(0.0);
        Window::clamped(from.round() as u64, (from + span).round() as u64, end_us)
    }

    /// Moves by `fraction` of the width (negative: earlier), stopping at the run's ends.
    pub fn pan(&self, fraction: f64, end_us: u64) -> Window {
        let shift = fraction * self.span_us() as f64;
        let from = (self.from_us as f64 + shift).max(0.0).round() as u64;
        Window::clamped(from, from + self.span_us(), end_us)
    }

    /// The window that shows `us`: itself when `us` is inside, else moved so `us` sits
    /// a tenth in from the edge it crossed (a playing playhead turns the page).
    pub fn follow(&self, us: u64, end_us: u64) -> Window {
        if self.contains(us) {
            return *self;
        }
        let span = self.span_us();
        let from = if us > self.to_us {
            us.saturating_sub(span / 10)
        } else {
            us.saturating_sub(span - span / 10)
        };
        Window::clamped(from, from + span, end_us)
    }
}

/// A short label for a window's width: `10.8 s`, `50 ms`, `120 µs`.
pub fn span_label(us: u64) -> String {
    if us >= 1_000_000 {
        format!("{} s", trim(us as f64 / 1e6))
    } else if us >= 1000 {
        format!("{} ms", trim(us as f64 / 1e3))
    } else {
        format!("{us} µs")
    }
}

/// `x` to two decimals, zeros trimmed, with the interface language's decimal mark.
fn trim(x: f64) -> String {
    let hundredths = (x * 100.0).round() as u64;
    crate::i18n::decimal(hundredths / 100, (hundredths % 100) * 10)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zoom_keeps_the_anchor_and_stays_inside_the_run() {
        let w = Window::full(10_000_000);
        let z = w.zoom(0.5, 0.5, 10_000_000);
        assert_eq!(
            z,
            Window {
                from_us: 2_500_000,
                to_us: 7_500_000
            }
        );
        // Zooming in at the left edge keeps the start.
        let z = w.zoom(0.005, 0.0, 10_000_000);
        assert_eq!(
            z,
            Window {
                from_us: 0,
                to_us: 50_000
            }
        );
        // Far in: never narrower than the minimum, down to single microseconds.
        let mut z = w;
        for _ in 0..60 {
            z = z.zoom(0.5, 0.25, 10_000_000);
        }
        assert_eq!(z.span_us(), MIN_SPAN_US);
        assert!(z.from_us > 2_000_000 && z.to_us < 3_000_000, "{z:?}");
        // Out past the whole run: the whole run.
        assert_eq!(z.zoom(1e9, 0.9, 10_000_000), w);
    }

    #[test]
    fn fractions_and_times_round_trip() {
        let w = Window {
            from_us: 1000,
            to_us: 3000,
        };
        assert_eq!(w.fraction(2000), 0.5);
        assert!(w.fraction(500) < 0.0 && w.fraction(4000) > 1.0);
        assert_eq!(w.at(0.25), 1500);
        assert_eq!(w.at(7.0), 3000);
    }

    #[test]
    fn pan_and_brush_clamp_to_the_run() {
        let w = Window {
            from_us: 1000,
            to_us: 3000,
        };
        assert_eq!(
            w.pan(-1.0, 10_000),
            Window {
                from_us: 0,
                to_us: 2000
            }
        );
        assert_eq!(
            w.pan(10.0, 10_000),
            Window {
                from_us: 8000,
                to_us: 10_000
            }
        );
        // A brush dragged right to left, or past the end.
        assert_eq!(
            Window::clamped(5000, 2000, 10_000),
            Window {
                from_us: 2000,
                to_us: 5000
            }
        );
        assert_eq!(
            Window::clamped(9000, 20_000, 10_000),
            Window {
                from_us: 0,
                to_us: 10_000
            }
        );
        assert_eq!(
            Window::clamped(4, 4, 10_000),
            Window {
                from_us: 4,
                to_us: 14
            }
        );
        // A run shorter than the minimum span.
        assert_eq!(
            Window::full(3),
            Window {
                from_us: 0,
                to_us: MIN_SPAN_US
            }
        );
    }

    #[test]
    fn follow_turns_the_page() {
        let w = Window {
            from_us: 0,
            to_us: 1000,
        };
        assert_eq!(w.follow(500, 10_000), w);
        assert_eq!(
            w.follow(1500, 10_000),
            Window {
                from_us: 1400,
                to_us: 2400
            }
        );
        let late = Window {
            from_us: 5000,
            to_us: 6000,
        };
        assert_eq!(
            late.follow(2000, 10_000),
            Window {
                from_us: 1100,
                to_us: 2100
            }
        );
        assert_eq!(
            late.follow(9990, 10_000),
            Window {
                from_us: 9000,
                to_us: 10_000
            }
        );
    }

    #[test]
    fn span_labels() {
        assert_eq!(span_label(10_800_000), "10.8 s");
        assert_eq!(span_label(50_000), "50 ms");
        assert_eq!(span_label(1_250), "1.25 ms");
        assert_eq!(span_label(12), "12 µs");
        crate::i18n::set_lang(crate::i18n::Lang::Pl);
        assert_eq!(span_label(10_800_000), "10,8 s");
        crate::i18n::set_lang(crate::i18n::Lang::En);
    }
}
