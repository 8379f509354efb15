//! `lockstep`: runs and validates lesson files headless.

/// mimalloc instead of the system's malloc: see the dependency's comment in Cargo.toml.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    lockstep_cli::main()
}
