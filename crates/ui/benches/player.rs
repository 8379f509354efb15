//! What the player adds to a simulation, natively: building a `RunModel` (the run with
//! its trace, lanes, checks and snapshots), seeking from the end to the start and
//! back, and the rows of every anomaly the tables' filter holds. `cargo bench -p lockstep-ui`. The browser figures come from `cargo xtask bench`.

use std::rc::Rc;

use criterion::{criterion_group, criterion_main, Criterion};
use lockstep_ui::catalog::catalog;
use lockstep_ui::run::{RunModel, ViewCursor};

fn player(c: &mut Criterion) {
    let catalog = catalog();
    let lesson = catalog
        .lesson("queue-claim-race")
        .expect("the claim race is built in");
    let settings = lesson
        .settings_with([("claim", "two-step"), ("workers", "2"), ("tasks", "500")])
        .expect("settings");
    let mut g = c.benchmark_group("player");
    g.sample_size(10);
    g.bench_function("build queue-claim-race two-step 2x500", |b| {
        b.iter(|| RunModel::build(lesson, &settings, 7).expect("runs"))
    });
    let run = Rc::new(RunModel::build(lesson, &settings, 7).expect("runs"));
    let last = run.step_of(run.events());
    g.bench_function("seek end, start, end (fresh cursor)", |b| {
        b.iter(|| {
            let mut cursor = ViewCursor::default();
            cursor.view(&run, last);
            cursor.view(&run, 0);
            cursor.view(&run, last / 2);
            cursor.view(&run, last)
        })
    });
    // The tables' "with anomalies" rows at the end of the run (all 488 duplicates), which
    // the page recomputes each time the playhead passes an anomaly.
    let anomalies = run.anomalies.len();
    g.bench_function("anomaly rows at the end", |b| {
        b.iter(|| run.anomaly_rows(anomalies))
    });
    g.finish();
}

criterion_group!(benches, player);
criterion_main!(benches);
