//! The per-kind schemas, from the one list of kinds (`for_each_kind!`):
//! each engine's `Config`, `Move`, `Legal` and `View` as the engine derives
//! them (its `utoipa` feature), and the unions the api's bodies refer to.
//!
//! - `GameConfig`, `Legal`, `GameView`: `anyOf` the kinds' schemas (two
//!   kinds may accept the same JSON, e.g. `{"players": 4}` or
//!   `{"prompt": "none"}`, so "exactly one" would be wrong).
//! - `Move`: `oneOf` the kinds' moves, which never overlap (each card is
//!   of one deck); each kind's move union is discriminated on `type` and
//!   its legal-move description on `prompt` (`super::shape`).
//! - `Prompt`: every kind's prompts, read off the legal-move descriptions.

use utoipa::openapi::schema::{AnyOfBuilder, ObjectBuilder, OneOfBuilder, Schema, Type};
use utoipa::openapi::{OpenApi, Ref, RefOr};
use utoipa::{Modify, ToSchema};

/// A kind's engine types whose schemas the document carries.
#[derive(Debug, Default)]
pub(super) struct KindNames {
    pub configs: Vec<String>,
    pub moves: Vec<String>,
    pub legals: Vec<String>,
    pub views: Vec<String>,
}

/// Adds `T`'s schema and everything it refers to; answers its name.
fn register<T: ToSchema>(openapi: &mut OpenApi) -> String {
    let mut schemas = Vec::new();
    T::schemas(&mut schemas);
    schemas.push((T::name().into_owned(), T::schema()));
    let components = openapi.components.get_or_insert_with(Default::default);
    for (name, schema) in schemas {
        components.schemas.insert(name, schema);
    }
    T::name().into_owned()
}

macro_rules! register_kinds {
    ($($(#[$doc:meta])* $variant:ident = $title:literal, $engine:ty;)*) => {
        /// Registers every kind's engine schemas.
        fn register_kinds(openapi: &mut OpenApi) -> KindNames {
            let mut names = KindNames::default();
            $(
                names.configs.push(register::<<$engine as cards::Ruleset>::Config>(openapi));
                names.moves.push(register::<<$engine as cards::Ruleset>::Move>(openapi));
                names.legals.push(register::<<$engine as cards::Ruleset>::Legal>(openapi));
                names.views.push(register::<<$engine as cards::Ruleset>::View>(openapi));
            )*
            names
        }
    };
}

game_record::for_each_kind!(register_kinds);

/// The name of the schema of an open (or expired) game's view: `{}`,
/// since nothing is dealt before every seat is filled.
pub(super) const NO_VIEW: &str = "NoView";

/// Registers the kinds' schemas and the unions over them.
#[derive(Debug)]
pub(super) struct KindSchemas;

impl Modify for KindSchemas {
    fn modify(&self, openapi: &mut OpenApi) {
        let names = register_kinds(openapi);
        let refs = |names: &[String]| -> Vec<RefOr<Schema>> {
            names
                .iter()
                .map(|n| Ref::from_schema_name(n.clone()).into())
                .collect()
        };
        // Closed (no property at all), so that a client reading the union
        // tells it from a kind's view instead of taking any object for it.
        let no_view = ObjectBuilder::new()
            .schema_type(Type::Object)
            .max_properties(Some(0))
            .additional_properties(Some(
                utoipa::openapi::schema::AdditionalProperties::FreeForm(false),
            ))
            .description(Some(
                "An open or expired game's view: empty, since nothing is dealt before every \
                 seat is filled (and shown provisionally the deal would let a player leave \
                 and rejoin until it suits them, docs/fairness.md).",
            ));
        let inputs: Vec<String> = names.configs.iter().map(|c| format!("{c}Input")).collect();
        let mut views = refs(&names.views);
        views.push(Ref::from_schema_name(NO_VIEW).into());
        let unions: [(&str, RefOr<Schema>); 6] = [
            (
                "GameConfig",
                any_of(
                    refs(&names.configs),
                    "A game's configuration, by kind, defaults resolved",
                ),
            ),
            (
                "GameConfigInput",
                any_of(
                    refs(&inputs),
                    "A game's configuration as a request gives it, by kind: fields left \
                     out take their defaults",
                ),
            ),
            ("Move", move_union(&names.moves)),
            (
                "Legal",
                any_of(
                    refs(&names.legals),
                    "What the seat is asked (`prompt`) and \
                    its choices, by kind",
                ),
            ),
            (
                "GameView",
                any_of(views, "The game as the viewer may see it (G-2), by kind"),
            ),
            (NO_VIEW, no_view.into()),
        ];
        let components = openapi.components.get_or_insert_with(Default::default);
        components
            .schemas
            .insert("ProblemCode".to_owned(), problem_code_enum());
        components
            .schemas
            .insert("SeekVariant".to_owned(), seek_variant_enum());
        for (name, schema) in unions {
            components.schemas.insert(name.to_owned(), schema);
        }
    }
}

fn any_of(items: Vec<RefOr<Schema>>, description: &str) -> RefOr<Schema> {
    items
        .into_iter()
        .fold(AnyOfBuilder::new(), AnyOfBuilder::item)
        .description(Some(description))
        .into()
}

/// Every kind's configuration schema (split into input and output by
/// `super::shape::split_config`).
pub(super) fn configs() -> Vec<String> {
    let mut openapi = OpenApi::default();
    register_kinds(&mut openapi).configs
}

/// The schemas whose `oneOf` variants each carry a constant tag, and the
/// tag: made into discriminated unions by `super::shape`.
pub(super) fn discriminated() -> Vec<(String, &'static str)> {
    let mut unions = Vec::new();
    macro_rules! tagged {
        ($($(#[$doc:meta])* $variant:ident = $title:literal, $engine:ty;)*) => {
            $(
                unions.push((<<$engine as cards::Ruleset>::Move as ToSchema>::name().into_owned(), "type"));
                unions.push((<<$engine as cards::Ruleset>::Legal as ToSchema>::name().into_owned(), "prompt"));
            )*
        };
    }
    game_record::for_each_kind!(tagged);
    unions
}

/// `Move`: any kind's move.
fn move_union(moves: &[String]) -> RefOr<Schema> {
    moves
        .iter()
        .map(|name| Ref::from_schema_name(name.clone()))
        .fold(OneOfBuilder::new(), OneOfBuilder::item)
        .description(Some("One move, of the game's kind (its `type` says which)"))
        .into()
}

/// `post_move`'s body: the `Move` union (the route takes it as JSON and
/// the game's engine parses it).
#[derive(Debug)]
pub struct AnyMove;

impl utoipa::PartialSchema for AnyMove {
    fn schema() -> RefOr<Schema> {
        let mut openapi = OpenApi::default();
        move_union(&register_kinds(&mut openapi).moves)
    }
}

impl ToSchema for AnyMove {
    fn name() -> std::borrow::Cow<'static, str> {
        "Move".into()
    }
}

/// A real view for examples: seat 0's, of a new two-player Lost Heir game.
pub(super) fn example_view() -> serde_json::Value {
    use cards::{Ruleset, Seat, Seed, Viewer};
    let config = rules_lost_heir::Config::new(2);
    let game = rules_lost_heir::LostHeir::new(config, Seed::from_u64(7))
        .expect("a two-player game is valid");
    let seat = Seat::new(0);
    serde_json::to_value(game.view(Viewer::Seat(seat))).expect("views serialize")
}

macro_rules! engine_codes {
    ($($(#[$doc:meta])* $variant:ident = $title:literal, $engine:ty;)*) => {
        /// Every kind's refusal codes: its moves' and its configurations'.
        fn engine_codes() -> Vec<&'static str> {
            use cards::RuleViolation;
            let mut codes = Vec::new();
            $(
                codes.extend(<<$engine as cards::Ruleset>::Error as RuleViolation>::CODES);
                codes.extend(<<$engine as cards::Ruleset>::ConfigError as RuleViolation>::CODES);
            )*
            codes
        }
    };
}

game_record::for_each_kind!(engine_codes);

/// Every problem code the server may answer, sorted, once each: the api's
/// own, the records', and every kind's rule and configuration codes.
pub fn problem_codes() -> Vec<&'static str> {
    let mut codes: Vec<&'static str> = crate::error::API_CODES
        .iter()
        .chain(crate::games::records::RECORD_CODES)
        .copied()
        .chain(engine_codes())
        .collect();
    codes.sort_unstable();
    codes.dedup();
    codes
}

/// Every kind's named variants a seek may ask for (`games::seeks::options`).
fn seek_variant_enum() -> RefOr<Schema> {
    let mut about = String::from("A variant a seek accepts, by kind:");
    for kind in game_record::GameKind::ALL {
        let Some(options) = crate::games::seeks::options::of(kind.code()) else {
            continue;
        };
        for group in options.groups {
            for v in group.variants {
                about.push_str(&format!(" `{}` ({}, {});", v.name, kind.code(), v.rule));
            }
        }
    }
    about.pop();
    about.push('.');
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(crate::games::seeks::options::variant_names()))
        .description(Some(about))
        .into()
}

fn problem_code_enum() -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(problem_codes()))
        .description(Some(
            "A problem's stable code: the api's own, a record's, or a kind's refusal of a \
             move or configuration (then `rule` names the ruling).",
        ))
        .into()
}
