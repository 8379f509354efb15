//! `lockstep`: runs and validates lesson files headless.

fn main() -> std::process::ExitCode {
    lockstep_cli::main()
}
