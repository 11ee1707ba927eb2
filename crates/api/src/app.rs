//! Wiring: state, the actix app, and starting the server.

use actix_web::dev::ServerHandle;
use actix_web::{App, HttpResponse, HttpServer, web};
use std::net::{SocketAddr, TcpListener};
use std::sync::Arc;
use utoipa_actix_web::AppExt;
use utoipa_swagger_ui::SwaggerUi;

use crate::auth::{self, Keys};
use crate::config::Config;
use crate::error;
use crate::ops;
use crate::ops::metrics::MetricsAccess;
use crate::ops::rate_limit::RateLimiter;
use crate::ops::timeout::RequestTimeout;
use crate::routes::docs::openapi::OpenApiDocument;
use crate::services::{Services, StoreUnavailable};
use crate::state::AppState;

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("database: {0}")]
    Db(#[from] StoreUnavailable),
    #[error("signing key: {0}")]
    Key(String),
    #[error("listening: {0}")]
    Io(#[from] std::io::Error),
}

/// Opens the store and its services (running migrations) and builds the keys.
pub async fn build_state(config: &Config) -> Result<AppState, StartError> {
    let services = Services::open(config).await?;
    let secret = match &config.jwt_secret {
        Some(secret) => secret.clone(),
        None => auth::load_or_create_secret(&config.data_dir)
            .map_err(|e| StartError::Key(e.to_string()))?,
    };
    let previous: Vec<&[u8]> = config
        .jwt_previous_secrets
        .iter()
        .map(|k| k.as_bytes())
        .collect();
    let keys = Keys::with_previous(secret.as_bytes(), &previous, config.token_ttl)
        .map_err(|e| StartError::Key(e.to_string()))?;
    Ok(AppState {
        accounts: services.accounts,
        keys: Arc::new(keys),
        games: services.games,
        webhooks: services.webhooks,
        probe: services.probe,
    })
}

/// A server running in the background (for tests and embedding).
#[derive(Debug)]
pub struct RunningServer {
    pub addr: SocketAddr,
    pub handle: ServerHandle,
    pub state: web::Data<AppState>,
}

impl RunningServer {
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Stops accepting, finishes in-flight requests, then stops the bots
    /// after their current move.
    pub async fn stop(&self) {
        // First end the streams and long polls, which would otherwise hold
        // the graceful stop until its timeout.
        self.state.games.stop_background();
        self.handle.stop(true).await;
        self.state.games.stop_bots().await;
    }
}

async fn redirect_to_docs() -> HttpResponse {
    HttpResponse::PermanentRedirect()
        .insert_header(("Location", "/docs/"))
        .finish()
}

/// Binds and builds the server; `signals`: stop on SIGINT/SIGTERM.
async fn start(
    config: Config,
    signals: bool,
) -> Result<(RunningServer, actix_web::dev::Server), StartError> {
    let state = web::Data::new(build_state(&config).await?);
    let listener = TcpListener::bind(config.listen_addr())?;
    let addr = listener.local_addr()?;
    let body_limit = config.body_limit;
    let document = web::Data::new(OpenApiDocument(crate::openapi::spec_json()));
    let app_state = state.clone();
    let limiter = web::Data::new(RateLimiter::new(config.rate_limit, config.rate_burst));
    let timeout = web::Data::new(RequestTimeout(config.request_timeout));
    let gather = web::Data::new(crate::routes::sse::SpectatorGather(config.spectator_gather));
    let stream_limits = web::Data::from(ops::stream_limits::StreamLimits::new(
        config.streams_per_client,
        config.anonymous_streams,
    ));
    // What auth and ops take instead of the whole state.
    let keys = web::Data::from(state.keys.clone());
    let accounts = web::Data::new(state.accounts.clone());
    let metrics = web::Data::from(state.games.metrics_handle());
    let webhooks = web::Data::from(state.webhooks.clone());
    let metrics_access = web::Data::new(MetricsAccess::new(config.metrics_token.as_deref()));
    let cors = web::Data::new(ops::cors::CorsPolicy(config.cors.clone()));
    // Players' writes, noted for read-your-writes (kept only with a replica).
    let recent_writes = web::Data::from(state.games.recent_writes());
    let mut server = HttpServer::new(move || {
        // The same registrations the OpenAPI document is generated from.
        let (app, _) = App::new()
            .into_utoipa_app()
            .app_data(app_state.clone())
            .app_data(document.clone())
            .app_data(limiter.clone())
            .app_data(timeout.clone())
            .app_data(gather.clone())
            .app_data(stream_limits.clone())
            .app_data(keys.clone())
            .app_data(accounts.clone())
            .app_data(metrics.clone())
            .app_data(webhooks.clone())
            .app_data(metrics_access.clone())
            .app_data(cors.clone())
            .app_data(recent_writes.clone())
            .app_data(
                web::JsonConfig::default()
                    .limit(body_limit)
                    .error_handler(error::json_error),
            )
            .app_data(web::PayloadConfig::default().limit(body_limit))
            .app_data(web::PathConfig::default().error_handler(error::path_error))
            .app_data(web::QueryConfig::default().error_handler(error::query_error))
            .service(utoipa_actix_web::scope("/v1").configure(crate::routes::configure_v1))
            .configure(crate::routes::configure_root)
            .split_for_parts();
        app.service(
            SwaggerUi::new("/docs/{_:.*}").config(utoipa_swagger_ui::Config::from("/openapi.json")),
        )
        .route("/docs", web::get().to(redirect_to_docs))
        // The web table: `/` and its bundle, not API operations (last, so
        // every route above keeps its path).
        .configure(crate::routes::web::configure)
        .default_service(web::to(ops::problems::no_route))
        .wrap(actix_web::middleware::from_fn(
            ops::problems::problem_for_every_error,
        ))
        .wrap(actix_web::middleware::from_fn(ops::private_cache::mark))
        .wrap(actix_web::middleware::from_fn(ops::read_your_writes::note))
        // Outermost last: the id and the log see everything, including 429s
        // and timeouts; CORS answers preflights before the limit and marks
        // every answer, 429s included; limits apply before any work; the
        // timeout covers the handler and error rendering.
        .wrap(actix_web::middleware::from_fn(ops::timeout::enforce))
        .wrap(actix_web::middleware::from_fn(ops::rate_limit::limit))
        .wrap(actix_web::middleware::from_fn(ops::cors::handle))
        .wrap(actix_web::middleware::from_fn(ops::request_id::observe))
    })
    .workers(config.workers);
    if !signals {
        server = server.disable_signals();
    }
    let server = server.listen(listener)?.run();
    let resumed = state
        .games
        .resume_bots()
        .await
        .map_err(StoreUnavailable::from)?;
    if resumed > 0 {
        tracing::info!(resumed, "resumed bots in games in progress");
    }
    state.games.start_background();
    let ttls = crate::games::expiry::Ttls {
        idle_player: config.idle_player_ttl,
        open_game: config.open_game_ttl,
        idempotency: config.idempotency_ttl,
        webhook_deliveries: config.webhooks.retention,
    };
    crate::games::expiry::spawn(state.games.clone(), ttls);
    crate::games::ratings::spawn(state.games.clone());
    state.webhooks.spawn(state.games.clone());
    let running = RunningServer {
        addr,
        handle: server.handle(),
        state,
    };
    Ok((running, server))
}

/// Starts the server on `config`'s address (port 0: any free port) in the
/// background of the current tokio runtime, and resumes bots of games in
/// progress.
/// `api --rebuild-ratings`: migrates, recomputes every rating from the log
/// (`games::ratings`), rewrites what differs, and returns what it found.
pub async fn rebuild_ratings(
    config: &Config,
) -> Result<crate::games::ratings::Rebuilt, Box<dyn std::error::Error>> {
    let state = build_state(config).await?;
    Ok(state.games.rebuild_ratings().await?)
}

/// `api --backup-to PATH`: copies the SQLite database `config` names into
/// the new file `to` while servers may be using it (`services::backup`).
pub async fn backup(
    config: &Config,
    to: &std::path::Path,
) -> Result<crate::services::Backup, StoreUnavailable> {
    crate::services::backup(&config.database_target(), to).await
}

pub async fn spawn(config: Config) -> Result<RunningServer, StartError> {
    let (running, server) = start(config, false).await?;
    tokio::spawn(server);
    Ok(running)
}

/// Runs the server until SIGINT or SIGTERM.
pub async fn run(config: Config) -> Result<(), StartError> {
    let (running, server) = start(config, true).await?;
    tracing::info!(addr = %running.addr, "listening");
    // actix hears the same signal and starts its graceful stop; ending the
    // streams and long polls at once keeps them from holding it up.
    let games = running.state.games.clone();
    tokio::spawn(async move {
        stop_signal().await;
        games.stop_background();
    });
    server.await?;
    running.state.games.stop_bots().await;
    tracing::info!("stopped");
    Ok(())
}

/// SIGINT or (Unix) SIGTERM.
async fn stop_signal() {
    let ctrl_c = actix_web::rt::signal::ctrl_c();
    #[cfg(unix)]
    {
        use actix_web::rt::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = ctrl_c => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => drop(ctrl_c.await),
        }
    }
    #[cfg(not(unix))]
    drop(ctrl_c.await);
}
