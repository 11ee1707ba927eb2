//! Post-game analyses as stored (`analyses`, docs/analysis.md): one row
//! per finished game and budget. A row is created `queued` by the first
//! request (later requests for the same game and budget find it), moves to
//! `running` when a thinker takes it, and ends `done` with its result or
//! `failed` with the reason. Nothing else changes it.

use std::str::FromStr;

use chrono::{DateTime, Utc};
use diesel::backend::Backend;
use diesel::deserialize::{self, FromSql};
use diesel::prelude::*;
use diesel::serialize::{self, Output, ToSql};
use diesel::sql_types::Text;
use diesel_async::RunQueryDsl;

use super::status::UnknownValue;
use super::{Db, DbError};
use crate::with_conn;

// `analyses.status`.
/// Where an analysis is.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    serde::Serialize,
    serde::Deserialize,
    utoipa::ToSchema,
    diesel::expression::AsExpression,
    diesel::deserialize::FromSqlRow,
)]
#[diesel(sql_type = diesel::sql_types::Text)]
#[serde(rename_all = "snake_case")]
pub enum AnalysisStatus {
    /// Waiting for a thinker.
    Queued,
    /// Being computed.
    Running,
    /// Computed: the result is stored.
    Done,
    /// Could not be computed (the reason is stored).
    Failed,
}

text_enum!(AnalysisStatus, "analysis status", {
    Queued => "queued",
    Running => "running",
    Done => "done",
    Failed => "failed",
});

/// An analysis as stored, columns in table order.
#[derive(Debug, Clone, PartialEq, Queryable)]
pub struct AnalysisRow {
    pub game_id: String,
    pub playouts: i32,
    pub status: AnalysisStatus,
    pub requested_by: String,
    /// The analysis (`game_record::analysis::GameAnalysis`) as JSON text.
    pub result: Option<String>,
    pub error: Option<String>,
    pub created_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
}

impl Db {
    /// The analysis of `game_id` at `playouts`, if one was requested.
    pub async fn analysis(
        &self,
        game_id: &str,
        playouts: i32,
    ) -> Result<Option<AnalysisRow>, DbError> {
        with_conn!(self, |conn, s| {
            Ok(s::analyses::table
                .filter(s::analyses::game_id.eq(game_id))
                .filter(s::analyses::playouts.eq(playouts))
                .first::<AnalysisRow>(conn)
                .await
                .optional()?)
        })
    }

    /// Creates the analysis row `queued`, unless one exists for the game
    /// and budget; the row as it now is (the existing one, if any).
    pub async fn request_analysis(
        &self,
        game_id: &str,
        playouts: i32,
        requested_by: &str,
    ) -> Result<AnalysisRow, DbError> {
        let now = super::now();
        with_conn!(self, |conn, s| {
            diesel::insert_into(s::analyses::table)
                .values((
                    s::analyses::game_id.eq(game_id),
                    s::analyses::playouts.eq(playouts),
                    s::analyses::status.eq(AnalysisStatus::Queued),
                    s::analyses::requested_by.eq(requested_by),
                    s::analyses::created_at.eq(now),
                ))
                .on_conflict((s::analyses::game_id, s::analyses::playouts))
                .do_nothing()
                .execute(conn)
                .await?;
            Ok(s::analyses::table
                .filter(s::analyses::game_id.eq(game_id))
                .filter(s::analyses::playouts.eq(playouts))
                .first::<AnalysisRow>(conn)
                .await?)
        })
    }

    /// Marks the analysis `running` (from `queued`, or again after a
    /// restart interrupted it).
    pub async fn analysis_running(&self, game_id: &str, playouts: i32) -> Result<(), DbError> {
        with_conn!(self, |conn, s| {
            diesel::update(
                s::analyses::table
                    .filter(s::analyses::game_id.eq(game_id))
                    .filter(s::analyses::playouts.eq(playouts))
                    .filter(s::analyses::status.ne(AnalysisStatus::Done)),
            )
            .set(s::analyses::status.eq(AnalysisStatus::Running))
            .execute(conn)
            .await?;
            Ok(())
        })
    }

    /// Stores the end of an analysis: its result (`Ok`, `done`) or why it
    /// failed (`Err`, `failed`).
    pub async fn analysis_finished(
        &self,
        game_id: &str,
        playouts: i32,
        outcome: Result<String, String>,
    ) -> Result<(), DbError> {
        let now = super::now();
        let (status, result, error) = match outcome {
            Ok(result) => (AnalysisStatus::Done, Some(result), None),
            Err(error) => (AnalysisStatus::Failed, None, Some(error)),
        };
        with_conn!(self, |conn, s| {
            diesel::update(
                s::analyses::table
                    .filter(s::analyses::game_id.eq(game_id))
                    .filter(s::analyses::playouts.eq(playouts)),
            )
            .set((
                s::analyses::status.eq(status),
                s::analyses::result.eq(result.as_deref()),
                s::analyses::error.eq(error.as_deref()),
                s::analyses::finished_at.eq(Some(now)),
            ))
            .execute(conn)
            .await?;
            Ok(())
        })
    }
}
