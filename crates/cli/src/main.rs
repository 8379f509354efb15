//! `lockstep`: runs and validates lesson files headless.

/// mimalloc instead of the system's malloc: see `lockstep_cli::alloc`.
#[global_allocator]
static ALLOCATOR: lockstep_cli::alloc::MiMalloc = lockstep_cli::alloc::MiMalloc;

fn main() -> std::process::ExitCode {
    lockstep_cli::main()
}
