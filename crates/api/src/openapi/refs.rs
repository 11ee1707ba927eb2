//! References to the document's own schemas, for the `schema_with` of
//! resources, routes and problems: each names a schema the document adds
//! itself (the kinds' unions, the problem codes), so they depend on nothing.

/// A nullable `Prompt` (the enum `shape::add_prompt_enum` adds).
pub(crate) fn nullable_prompt() -> utoipa::openapi::schema::Schema {
    use utoipa::openapi::schema::{OneOfBuilder, Type};
    use utoipa::openapi::{ObjectBuilder, Ref};
    OneOfBuilder::new()
        .item(Ref::from_schema_name("Prompt"))
        .item(ObjectBuilder::new().schema_type(Type::Null))
        .build()
        .into()
}

/// The payload of a player-stream notice: its log event's.
pub(crate) fn notice_payload() -> utoipa::openapi::schema::Schema {
    use utoipa::openapi::Ref;
    use utoipa::openapi::schema::OneOfBuilder;
    OneOfBuilder::new()
        .item(Ref::from_schema_name("SeatTaken"))
        .item(Ref::from_schema_name("GameStarted"))
        .item(Ref::from_schema_name("GameFinished"))
        .build()
        .into()
}

fn reference(name: &str) -> utoipa::openapi::Ref {
    utoipa::openapi::Ref::from_schema_name(name)
}

/// `GameConfig`, the kinds' configurations (`kinds::KindSchemas`).
pub(crate) fn game_config() -> utoipa::openapi::Ref {
    reference("GameConfig")
}

/// `GameConfigInput`, the kinds' configurations as requests give them.
pub(crate) fn game_config_input() -> utoipa::openapi::Ref {
    reference("GameConfigInput")
}

/// `ProblemCode`, every code a problem may carry.
pub(crate) fn problem_code() -> utoipa::openapi::Ref {
    reference("ProblemCode")
}

/// `GameView`, the kinds' views.
pub(crate) fn game_view() -> utoipa::openapi::Ref {
    reference("GameView")
}

/// `Legal`, the kinds' legal-move descriptions.
pub(crate) fn legal() -> utoipa::openapi::Ref {
    reference("Legal")
}

/// A list of moves, or null.
pub(crate) fn moves_or_null() -> utoipa::openapi::schema::Schema {
    use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, OneOfBuilder, Type};
    OneOfBuilder::new()
        .item(ArrayBuilder::new().items(reference("Move")))
        .item(ObjectBuilder::new().schema_type(Type::Null))
        .build()
        .into()
}

/// A list of `SeekVariant`s, every kind's variant names (`kinds::KindSchemas`).
pub(crate) fn seek_variants() -> utoipa::openapi::schema::Schema {
    use utoipa::openapi::schema::ArrayBuilder;
    ArrayBuilder::new()
        .items(reference("SeekVariant"))
        .build()
        .into()
}
