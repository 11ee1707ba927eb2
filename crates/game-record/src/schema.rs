//! Schemas of the record's engine-defined parts, by name: the api's
//! document defines `GameConfig` and `Move` (unions over every kind) and
//! the engines their score-sheet rows.

use utoipa::ToSchema;
use utoipa::openapi::schema::{AnyOfBuilder, ObjectBuilder, Schema, Type};
use utoipa::openapi::{Ref, RefOr};

pub(crate) fn config() -> Ref {
    Ref::from_schema_name("GameConfig")
}

pub(crate) fn a_move() -> Ref {
    Ref::from_schema_name("Move")
}

/// The round's score-sheet row, as the kind's view shows it; null until
/// the round is over.
pub(crate) fn score_row() -> RefOr<Schema> {
    AnyOfBuilder::new()
        .item(Ref::from_schema_name(
            <rules_lost_heir::RoundRecord as ToSchema>::name(),
        ))
        .item(Ref::from_schema_name(
            <rules_cancel_hearts::ScoreSheetRow as ToSchema>::name(),
        ))
        .item(ObjectBuilder::new().schema_type(Type::Null))
        .into()
}
