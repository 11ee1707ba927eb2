//! `api`: serve the card games (see `--help`).

use api::config::Config;

/// mimalloc rather than glibc malloc: under load the server spends much of
/// its time allocating (JSON, HTTP), and glibc's per-thread arenas cost
/// ~15 % of its CPU (docs/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    // A refusal prints clap's message and exits 2; --help prints and exits 0.
    let config = Config::try_parse_from(std::env::args_os()).unwrap_or_else(|e| e.exit());
    if config.print_openapi {
        print!("{}", api::openapi::spec_json());
        return std::process::ExitCode::SUCCESS;
    }
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::new(&config.log_filter))
        .init();
    if let Some(to) = &config.backup_to {
        return match api::app::backup(&config, to).await {
            Ok(backup) => {
                println!("{}", serde_json::to_string(&backup).unwrap_or_default());
                std::process::ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("api: the backup failed: {e}");
                std::process::ExitCode::FAILURE
            }
        };
    }
    if config.rebuild_ratings {
        return match api::app::rebuild_ratings(&config).await {
            Ok(rebuilt) => {
                println!("{rebuilt:?}");
                std::process::ExitCode::SUCCESS
            }
            Err(e) => {
                tracing::error!(error = %e, "rebuilding the ratings failed");
                std::process::ExitCode::FAILURE
            }
        };
    }
    match api::app::run(config).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!(error = %e, "cannot start");
            std::process::ExitCode::FAILURE
        }
    }
}
