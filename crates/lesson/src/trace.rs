//! One line of text per trace entry, the same for the CLI, tests and the player.

use engine::{Event, TraceEntry};

/// `  1500.000 ms  <event>`: virtual time in ms with µs precision, then the event.
pub fn trace_line(entry: &TraceEntry) -> String {
    format!(
        "{:>10.3} ms  {}",
        crate::value::ms(entry.at_us),
        event_text(&entry.event)
    )
}

/// The event's one-line text: the engine's `Display`, shared by every surface.
pub fn event_text(event: &Event) -> String {
    event.to_string()
}
