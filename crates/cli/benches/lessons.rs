//! How long whole lessons take to simulate natively: the claim race (two-step, 2 workers,
//! 500 tasks: thousands of statements and lock waits) and the filtered-index lesson
//! (a 20 040-row setup, then one claim); the cost of cloning a simulation mid-run; and
//! explore mode's search, in states per second. `cargo bench -p lockstep-cli`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use lesson::{run, Lesson};

fn applied(id: &str, settings: &[(&str, &str)]) -> lesson::Applied {
    let path = format!("{}/../../lessons/{id}.md", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("lesson file");
    let lesson = Lesson::parse(&format!("{id}.md"), &text).expect("lesson parses");
    let settings = lesson
        .settings_with(settings.iter().copied())
        .expect("settings");
    lesson.apply(&settings).expect("lesson applies")
}

fn lessons(c: &mut Criterion) {
    let mut g = c.benchmark_group("lesson");
    g.sample_size(10);
    let race = applied(
        "queue-claim-race",
        &[("claim", "two-step"), ("workers", "2"), ("tasks", "500")],
    );
    g.bench_function("queue-claim-race two-step 2x500", |b| {
        b.iter(|| run(&race, 7).expect("runs"))
    });
    // Finding the anomalies of a finished run (488 duplicate claims): what a run pays
    // for them on top of the simulation timed above.
    let report = run(&race, 7).expect("runs");
    g.bench_function("queue-claim-race two-step 2x500 anomalies", |b| {
        b.iter(|| lesson::run_anomalies(&race.anomalies, &report.trace.entries, &report.simulation))
    });
    let filtered = applied(
        "queue-filtered-index",
        &[("index", "filtered"), ("finished", "20000")],
    );
    g.bench_function("queue-filtered-index filtered 20000", |b| {
        b.iter(|| run(&filtered, 1).expect("runs"))
    });
    let none = applied(
        "queue-filtered-index",
        &[("index", "none"), ("finished", "20000")],
    );
    g.bench_function("queue-filtered-index none 20000", |b| {
        b.iter(|| run(&none, 1).expect("runs"))
    });
    g.finish();
}

/// A clone of the claim race's simulation halfway through its steps: what explore mode
/// and the player's snapshots pay per copy.
fn clone(c: &mut Criterion) {
    let race = applied(
        "queue-claim-race",
        &[("claim", "two-step"), ("workers", "2"), ("tasks", "500")],
    );
    let mut sim = engine::Simulation::new(&race.scenario, 7).expect("builds");
    let mut steps = 0usize;
    while sim.step() {
        steps += 1;
    }
    let mut sim = engine::Simulation::new(&race.scenario, 7).expect("builds");
    for _ in 0..steps / 2 {
        sim.step();
    }
    let mut g = c.benchmark_group("engine");
    g.bench_function("clone queue-claim-race 2x500 mid-run", |b| {
        b.iter(|| std::hint::black_box(sim.clone()))
    });
    g.finish();
}

/// Explore mode on the claim race at 2 workers × 3 tasks: finding two-step's duplicate
/// (search, shrink and narration) and proving one-statement for every interleaving.
/// Criterion's throughput is the search's distinct states: states per second.
fn explore(c: &mut Criterion) {
    let mut g = c.benchmark_group("explore");
    g.sample_size(10);
    for (name, claim) in [
        ("find two-step duplicate 2x3", "two-step"),
        ("prove one-statement 2x3", "one-statement"),
    ] {
        let race = applied("queue-claim-race", &[("claim", claim), ("tasks", "3")]);
        let property =
            lesson::find_property(&race.properties, "no-double-claim").expect("declared");
        let search = || {
            explore::Search::new(&race, 7, property.clone(), explore::Options::default())
                .and_then(explore::Search::run)
                .expect("searches")
        };
        g.throughput(Throughput::Elements(search().progress.states));
        g.bench_function(name, |b| b.iter(search));
    }
    g.finish();
}

criterion_group!(benches, lessons, clone, explore);
criterion_main!(benches);

/// The `lockstep` binary's allocator, so the figures are the CLI's.
#[global_allocator]
static ALLOCATOR: lockstep_cli::alloc::MiMalloc = lockstep_cli::alloc::MiMalloc;
